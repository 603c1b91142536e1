// Settling sends nobody could confirm. Run by whoever holds the account (so no send of it is in
// flight): a lead still `sending` was left by a runner that died mid-send, and is as uncertain as
// one whose confirmation never came. Each is checked in the thread once it is old enough for a
// late delivery to show: found → sent; not there → not sent, and the step may be sent again; a
// thread that cannot tell keeps it uncertain. The thread is searched below the last message we
// stored from it before the send (X's rows carry no machine-readable time).
import type { Db } from '../db.ts'
import type { Lease } from '../leases.ts'
import type { PlatformSession } from '../platforms/types.ts'
import { settleUnconfirmed } from './engine.ts'
import { recordNotSent, recordSent } from './intent.ts'
import { threadWith } from './threads.ts'

export interface UnsettledSend {
  log_id: string
  lead_id: string
  step: number
  text: string
  created_at: Date
  sent_at: Date
  username: string
  profile_data: Record<string, unknown>
  last_message_id: string | null
  seen_before: string[] | null
}

/** Unconfirmed sends of this account at least minAgeMs old, oldest first. */
export async function unsettledSends(
  db: Db,
  accountId: string,
  minAgeMs: number,
  limit: number,
): Promise<UnsettledSend[]> {
  const { rows } = await db.query<UnsettledSend>(
    `select d.id as log_id, l.id as lead_id, d.step, coalesce(d.message_sent, '') as text, d.created_at, d.sent_at,
            l.username, l.profile_data, d.seen_before,
            (select m.platform_message_id
               from public.inbox_messages m
               join public.inbox_threads t on t.id = m.thread_id
              where t.account_id = d.account_id
                and lower(t.peer_username) = lower(ltrim(l.username, '@'))
                and m.platform_message_id is not null and m.created_at < d.created_at
              order by m.created_at desc, coalesce(m.sent_at, m.created_at) desc
              limit 1) as last_message_id
       from public.dm_logs d
       join public.campaign_leads l on l.id = d.campaign_lead_id and l.current_step = d.step
      where d.account_id = $1 and d.status = 'uncertain' and l.state in ('sending', 'uncertain')
        and d.created_at <= now() - make_interval(secs => $2::float8 / 1000)
      order by d.created_at
      limit $3`,
    [accountId, minAgeMs, limit],
  )
  return rows
}

export interface SettleSummary {
  sent: number
  notSent: number
  unreadable: number
}

/** Reads the thread of each unsettled send and records what it shows. Stops when the lease is lost. */
export async function settleUncertainSends(
  db: Db,
  session: PlatformSession,
  accountId: string,
  lease: Lease,
  options: { minAgeMs: number; limit: number },
): Promise<SettleSummary> {
  const sends = await unsettledSends(db, accountId, options.minAgeMs, options.limit)
  const intentOf = (send: UnsettledSend) => ({
    logId: send.log_id,
    leadId: send.lead_id,
    step: send.step,
    previousState: send.step === 0 ? ('pending' as const) : ('sent' as const),
  })
  return settleUnconfirmed(session, lease, sends, {
    thread: (send) => threadWith(session, send),
    text: (send) => send.text,
    since: (send) => send.created_at,
    after: (send) => send.last_message_id,
    seenBefore: (send) => send.seen_before,
    sent: (send) => recordSent(db, intentOf(send), send.sent_at),
    notSent: async (send, reason) => {
      await recordNotSent(db, intentOf(send), 'failed', reason)
    },
  })
}
