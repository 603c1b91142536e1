// How many warm accounts this runner should hold when several runners share the fleet. A runner
// keeps an account's lease while its session is warm, so without a bound the first runner would
// keep every busy account and a machine added later would get none. Each runner holds at most its
// share of the active accounts (with slack, so accounts do not move back and forth on every beat);
// beyond it the least recently used close and their next jobs go to whichever runner takes them.
import type { Queryable } from '../db.ts'

/** A runner seen within this long counts as alive (heartbeats come every few seconds). */
const ALIVE_SECONDS = 60

export function shareOf(activeAccounts: number, runners: number): number {
  return Math.ceil((activeAccounts / Math.max(1, runners)) * 1.2) + 1
}

export async function fleetShare(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ accounts: number; runners: number }>(
    `select (select count(*) from public.social_accounts where status = 'active')::int as accounts,
            (select count(*) from public.runner_heartbeats
              where status = 'running' and last_seen_at > now() - make_interval(secs => $1))::int as runners`,
    [ALIVE_SECONDS],
  )
  const row = rows[0]
  return shareOf(row?.accounts ?? 0, row?.runners ?? 1)
}
