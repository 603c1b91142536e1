// How much a campaign may still send today and how long to wait before its next DM. Caps are the
// lowest of the campaign's daily limit, the account's limit, its warm-up ramp and the platform
// ceiling, lowered for an account whose trust dropped after a stop signal
// (internal.sends_left_today: the scheduler's and the dashboard's own rule). Gaps are random and
// spread what is left over what remains of today's window, so a day's DMs do not bunch at the
// start of it; a recovering account's gaps are longer too.
import type { Queryable } from '../db.ts'

export interface SendAllowance {
  /** DMs the campaign may still send today (0 = none). */
  left: number
  windowOpen: boolean
  /** When today's window closes (an instant). */
  windowEnd: Date
  now: Date
  /** 1 normally; below 1 while the account recovers from a stop signal. */
  rateFactor: number
}

/**
 * Full speed from trust 0.5 up; below that the account sends proportionally less (at least a
 * quarter). The daily cap applies it in the database (internal.trust_rate_factor); here it spaces DMs.
 */
export function rateFactor(trustScore: number): number {
  return trustScore >= 0.5 ? 1 : Math.max(0.25, trustScore / 0.5)
}

export async function sendAllowance(db: Queryable, campaignId: string): Promise<SendAllowance | undefined> {
  const { rows } = await db.query<{
    left: number | null
    window_open: boolean
    window_end: Date
    now: Date
    trust: number
  }>(
    `select internal.sends_left_today(c.id) as left,
            internal.campaign_window_open(c.id, c.schedule, internal.now()) as window_open,
            pg_catalog.timezone(c.schedule ->> 'timezone',
              pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date + (c.schedule ->> 'timeTo')::time) as window_end,
            internal.now() as now,
            a.trust_score::float8 as trust
       from public.campaigns c
       join public.social_accounts a on a.id = c.account_id
      where c.id = $1`,
    [campaignId],
  )
  const row = rows[0]
  if (!row) return undefined
  return {
    left: Math.max(0, row.left ?? 0),
    windowOpen: row.window_open,
    windowEnd: row.window_end,
    now: row.now,
    rateFactor: rateFactor(row.trust),
  }
}

/** The shortest gap between two DMs of one account at realistic pacing. */
export const MIN_GAP_MS = 45_000

/**
 * The wait before the next DM: what remains of the window shared among the sends left, times a
 * random 0.5–1.5, never shorter than MIN_GAP_MS, slower while the account recovers, then scaled
 * by the pacing factor (1 in production; tests and benchmarks compress it).
 */
export function nextGapMs(
  allowance: Pick<SendAllowance, 'left' | 'windowEnd' | 'now' | 'rateFactor'>,
  pacingFactor: number,
  random: () => number = Math.random,
): number {
  const remaining = Math.max(0, allowance.windowEnd.getTime() - allowance.now.getTime())
  const share = allowance.left > 0 ? remaining / allowance.left : remaining
  const gap = Math.max(MIN_GAP_MS, share * (0.5 + random())) / allowance.rateFactor
  return Math.round(Math.min(gap, Math.max(remaining, MIN_GAP_MS)) * pacingFactor)
}
