// Unconfirmed sends are settled by whoever next holds their account: the next tick of a campaign,
// or an inbox sync. A campaign with nothing else due gets no tick, so this sweep queues an
// inbox.sync (which settles them) for every active account with sends left unconfirmed.
import type PgBoss from 'pg-boss'
import type { Db } from '../db.ts'

export async function queueSettlingSyncs(db: Db, boss: PgBoss, minAgeMs: number): Promise<number> {
  const { rows } = await db.query<{ account_id: string }>(
    `select distinct d.account_id
       from public.campaign_leads l
       join public.dm_logs d on d.campaign_lead_id = l.id and d.step = l.current_step
       join public.social_accounts a on a.id = d.account_id
      where l.state in ('sending', 'uncertain') and d.status = 'uncertain' and a.status = 'active'
        and d.created_at <= now() - make_interval(secs => $1::float8 / 1000)`,
    [minAgeMs],
  )
  let queued = 0
  for (const { account_id } of rows) {
    const id = await boss.send(
      'inbox.sync',
      { accountId: account_id },
      { singletonKey: `inbox:${account_id}` },
    )
    if (id) queued++
  }
  return queued
}
