// Whether every DM the bench's campaigns wanted went out exactly once, judged by the sandbox's own
// delivery log rather than our records: duplicates (a lead the sandbox got 2+ DMs for), DMs recorded
// sent that the sandbox never got, and campaigns left waiting with a lead due (never attempted by
// the end). Plus how the accounts' inbox syncs kept to their schedule, and whether the load cost a
// failed job or an account (a slow machine must defer work, never fail it or flag anyone).
import type pg from 'pg'

export interface Outcomes {
  duplicates: number
  sentNotDelivered: number
  overdueCampaigns: number
  worstLateClockMinutes: number
  byStatus: string
  inboxSyncsDone: number
  /**
   * Syncs failed or waiting for a retry after an error. Not a sync retried because its account was
   * busy with another job (RetryLaterError): waiting its turn is how a sync shares the account.
   */
  inboxSyncsFailed: number
  /** Completed syncs that found no slot or a page too slow: the scheduler queues them again. */
  inboxSyncsDeferred: number
  /** Completed syncs that ended before taking the session: a campaign tick had just read the inbox. */
  inboxSyncsSkipped: number
  /** Campaign ticks that read the inbox in the session they held. */
  inboxReadsInTicks: number
  accountsBehindOnInbox: number
  /** Campaign ticks completed, not deferred. */
  ticksDone: number
  /** Ticks that found no slot or a page too slow, completed as `{ deferred }`: queued again, not failed. */
  ticksDeferred: number
  /** Ticks that failed (pg-boss never retries one). */
  ticksFailed: number
  /** Accounts not active at the end (all were active when the fleet was made). */
  accountsNotActive: number
  /** Accounts whose trust score is lower at the end than at the window's start. */
  accountsTrustDown: number
  /**
   * Accounts paused or flagged during the window, counted by their account_flagged notifications:
   * at a fast clock the scheduler resumes a pause within seconds, so the end state alone misses it.
   */
  accountsStopped: number
  /** Of those, paused by the circuit breaker (its notification names no stop signal). */
  accountsBreakerTripped: number
  /** What the failed ticks and syncs said, most frequent first ("queue: message ×n"). */
  failures: string[]
}

export type AccountStates = Map<string, { status: string; trust: number }>

/** Every account's status and trust score now, for `outcomes` to compare the end with. */
export async function accountStates(db: pg.Pool, userId: string): Promise<AccountStates> {
  const { rows } = await db.query<{ id: string; status: string; trust: number }>(
    'select id, status, trust_score::float8 as trust from public.social_accounts where user_id = $1',
    [userId],
  )
  return new Map(rows.map((r) => [r.id, { status: r.status, trust: r.trust }]))
}

/**
 * `atStart`: the accounts as `accountStates` read them when the window began; `lateAfterMs` (clock
 * time): how long past its next send a campaign may wait in the queue before it counts as never
 * attempted; `syncEveryMs`: the scheduler's sync interval for an account in use.
 */
export async function outcomes(
  db: pg.Pool,
  userId: string,
  deliveries: { account: string; recipientUsername: string }[],
  window: { from: Date; to: Date },
  atStart: AccountStates,
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
  // a job waiting for its retry has no completed_on, so it is placed by when its attempt started
  const jobs = await db.query<{
    name: string
    completed: number
    deferred: number
    skipped: number
    read_inbox: number
    failed: number
  }>(
    `select j.name,
            count(*) filter (where j.state = 'completed')::int as completed,
            count(*) filter (where j.state = 'completed' and j.output ? 'deferred')::int as deferred,
            count(*) filter (where j.state = 'completed' and (j.output ->> 'readRecently')::boolean)::int as skipped,
            count(*) filter (where j.state = 'completed' and (j.output ->> 'readInbox')::boolean)::int as read_inbox,
            count(*) filter (where j.state in ('failed', 'retry')
                               and j.output ->> 'name' is distinct from 'RetryLaterError')::int as failed
       from pgboss.job j
      where j.name in ('campaign.tick', 'inbox.sync')
        and coalesce(j.completed_on, j.started_on) >= $1 and coalesce(j.completed_on, j.started_on) < $2
      group by 1`,
    [window.from, window.to],
  )
  const syncs = jobs.rows.find((r) => r.name === 'inbox.sync')
  const ticks = jobs.rows.find((r) => r.name === 'campaign.tick')
  const behind = await db.query<{ n: number }>(
    `select count(*)::int as n from public.social_accounts a
      where a.user_id = $1 and a.status = 'active'
        and coalesce(a.last_synced_at, '-infinity') < internal.now() - make_interval(secs => $2::float8 / 1000)`,
    [userId, syncEveryMs * 2],
  )
  const accounts = await db.query<{
    id: string
    status: string
    trust: number
    stopped: boolean
    breaker: boolean
  }>(
    `select a.id, a.status, a.trust_score::float8 as trust,
            count(n.id) > 0 as stopped,
            count(n.id) filter (where n.metadata ->> 'status' = 'paused' and not n.metadata ? 'kind') > 0 as breaker
       from public.social_accounts a
       left join public.notifications n
              on n.user_id = a.user_id and n.type = 'account_flagged' and n.metadata ->> 'accountId' = a.id::text
             and n.created_at >= $2 and n.created_at < $3
      where a.user_id = $1
      group by a.id`,
    [userId, window.from, window.to],
  )
  const failures = await db.query<{ line: string }>(
    `select f.name || ': ' || f.message || ' ×' || count(*) as line
       from (select j.name, coalesce(j.output ->> 'message', j.state::text) as message
               from pgboss.job j
              where j.name in ('campaign.tick', 'inbox.sync') and j.state in ('failed', 'retry')
                and j.output ->> 'name' is distinct from 'RetryLaterError'
                and coalesce(j.completed_on, j.started_on) >= $1 and coalesce(j.completed_on, j.started_on) < $2) f
      group by f.name, f.message order by count(*) desc limit 5`,
    [window.from, window.to],
  )
  return {
    failures: failures.rows.map((r) => r.line),
    duplicates: [...got.values()].filter((n) => n > 1).length,
    sentNotDelivered,
    overdueCampaigns: overdue.rows[0]?.n ?? 0,
    worstLateClockMinutes: overdue.rows[0]?.worst ?? 0,
    byStatus: [...counts].map(([status, n]) => `${status} ${n}`).join(', '),
    inboxSyncsDone: syncs?.completed ?? 0,
    inboxSyncsFailed: syncs?.failed ?? 0,
    inboxSyncsDeferred: syncs?.deferred ?? 0,
    inboxSyncsSkipped: syncs?.skipped ?? 0,
    inboxReadsInTicks: ticks?.read_inbox ?? 0,
    accountsBehindOnInbox: behind.rows[0]?.n ?? 0,
    ticksDone: (ticks?.completed ?? 0) - (ticks?.deferred ?? 0),
    ticksDeferred: ticks?.deferred ?? 0,
    ticksFailed: ticks?.failed ?? 0,
    accountsNotActive: accounts.rows.filter((a) => a.status !== 'active').length,
    accountsTrustDown: accounts.rows.filter((a) => a.trust < (atStart.get(a.id)?.trust ?? a.trust)).length,
    accountsStopped: accounts.rows.filter((a) => a.stopped).length,
    accountsBreakerTripped: accounts.rows.filter((a) => a.breaker).length,
  }
}
