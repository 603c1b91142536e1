// Whether every DM the bench's campaigns wanted went out exactly once, judged by the sandbox's own
// delivery log rather than our records: duplicates (a lead the sandbox got 2+ DMs for), DMs recorded
// sent that the sandbox never got, and campaigns left waiting with a lead due (never attempted by
// the end). Plus how the accounts' inbox syncs kept to their schedule.
import type pg from 'pg'

export interface Outcomes {
  duplicates: number
  sentNotDelivered: number
  overdueCampaigns: number
  worstLateClockMinutes: number
  byStatus: string
  inboxSyncsDone: number
  inboxSyncsFailed: number
  /** Completed syncs that ended before taking the session: a campaign tick had just read the inbox. */
  inboxSyncsSkipped: number
  /** Campaign ticks that read the inbox in the session they held. */
  inboxReadsInTicks: number
  accountsBehindOnInbox: number
}

/**
 * `lateAfterMs` (clock time): how long past its next send a campaign may wait in the queue before it
 * counts as never attempted; `syncEveryMs`: the scheduler's sync interval for an account in use.
 */
export async function outcomes(
  db: pg.Pool,
  userId: string,
  deliveries: { account: string; recipientUsername: string }[],
  window: { from: Date; to: Date },
  lateAfterMs: number,
  syncEveryMs: number,
): Promise<Outcomes> {
  const got = new Map<string, number>()
  for (const d of deliveries) {
    const key = `${d.account}>${d.recipientUsername}`.toLowerCase()
    got.set(key, (got.get(key) ?? 0) + 1)
  }
  const logs = await db.query<{ account: string; target: string; status: string }>(
    `select a.username as account, d.target_username as target, d.status
       from public.dm_logs d join public.social_accounts a on a.id = d.account_id
      where a.user_id = $1`,
    [userId],
  )
  const counts = new Map<string, number>()
  for (const row of logs.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1)
  const sentNotDelivered = logs.rows.filter(
    (r) => r.status === 'sent' && !got.has(`${r.account}>${r.target}`.toLowerCase()),
  ).length
  // a campaign still sending, a lead due, its next send passed longer ago than a queued tick waits
  const overdue = await db.query<{ n: number; worst: number | null }>(
    `select count(*)::int as n, max(extract(epoch from internal.now() - c.next_action_at) / 60)::float8 as worst
       from public.campaigns c
      where c.user_id = $1 and c.status in ('queued', 'running', 'active')
        and coalesce(c.next_action_at, '-infinity') < internal.now() - make_interval(secs => $2::float8 / 1000)
        and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= internal.now()
                                                           and l.state = 'pending')`,
    [userId, lateAfterMs],
  )
  const syncs = await db.query<{ state: string; n: number; skipped: number }>(
    `select j.state::text, count(*)::int as n,
            count(*) filter (where (j.output ->> 'readRecently')::boolean)::int as skipped
       from pgboss.job j
      where j.name = 'inbox.sync' and j.completed_on >= $1 and j.completed_on < $2 group by 1`,
    [window.from, window.to],
  )
  const folded = await db.query<{ n: number }>(
    `select count(*)::int as n from pgboss.job j
      where j.name = 'campaign.tick' and j.state = 'completed' and j.completed_on >= $1 and j.completed_on < $2
        and (j.output ->> 'readInbox')::boolean`,
    [window.from, window.to],
  )
  const behind = await db.query<{ n: number }>(
    `select count(*)::int as n from public.social_accounts a
      where a.user_id = $1 and a.status = 'active'
        and coalesce(a.last_synced_at, '-infinity') < internal.now() - make_interval(secs => $2::float8 / 1000)`,
    [userId, syncEveryMs * 2],
  )
  return {
    duplicates: [...got.values()].filter((n) => n > 1).length,
    sentNotDelivered,
    overdueCampaigns: overdue.rows[0]?.n ?? 0,
    worstLateClockMinutes: overdue.rows[0]?.worst ?? 0,
    byStatus: [...counts].map(([status, n]) => `${status} ${n}`).join(', '),
    inboxSyncsDone: syncs.rows.find((r) => r.state === 'completed')?.n ?? 0,
    inboxSyncsFailed: syncs.rows.filter((r) => r.state !== 'completed').reduce((s, r) => s + r.n, 0),
    inboxSyncsSkipped: syncs.rows.find((r) => r.state === 'completed')?.skipped ?? 0,
    inboxReadsInTicks: folded.rows[0]?.n ?? 0,
    accountsBehindOnInbox: behind.rows[0]?.n ?? 0,
  }
}
