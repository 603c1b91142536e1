// Unconfirmed sends are settled by whoever next holds their account: the next tick of a campaign,
// or an inbox sync. A campaign with nothing else due gets no tick, so this sweep queues an
// inbox.sync (which settles them) for every active account with sends left unconfirmed.
// Not for an account this runner is working right now: its intent rows are `uncertain` from before
// typing until the page confirms, so with a short minimum age (tests and benchmarks use 0) every
// account in the middle of a send looked unsettled, and each heartbeat queued a sync that waited for
// the account, then read its inbox and every recent thread to settle nothing. Whatever is still
// unconfirmed once the job lets go of the account is swept at the next heartbeat.
import type { PgBoss } from 'pg-boss'
import type { Db } from '../db.ts'

export async function queueSettlingSyncs(
  db: Db,
  boss: PgBoss,
  minAgeMs: number,
  inUse: (accountId: string) => boolean = () => false,
): Promise<number> {
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
    if (inUse(account_id)) continue
    const id = await boss.send(
      'inbox.sync',
      { accountId: account_id },
      { singletonKey: `inbox:${account_id}` },
    )
    if (id) queued++
  }
  return queued
}
