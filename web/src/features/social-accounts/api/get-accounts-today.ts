import { supabase } from '@/lib/supabase'

/** An account's sending today as the runner and the scheduler count it (rpc/account_daily_usage). */
export interface AccountToday {
  /** DMs the account may send today: the lowest of its caps (internal.account_daily_cap). */
  allowed: number
  /** The cap that sets `allowed`. */
  setBy: 'warmup' | 'account' | 'platform' | 'recovering'
  /** Campaign DMs and inbox answers sent today, in the account's time zone. */
  sent: number
  /** Of `sent`, the answers written in the inbox. */
  answers: number
  /** The customer's own daily limit, which applies once warm-up (or recovery) no longer caps it. */
  ownLimit: number
  /** Day of warm-up (1 on the day it was connected); null once warmed up. */
  warmupDay: number | null
}

const SET_BY: readonly AccountToday['setBy'][] = ['warmup', 'account', 'platform', 'recovering']
const isSetBy = (value: string | null): value is AccountToday['setBy'] =>
  (SET_BY as readonly (string | null)[]).includes(value)

/** Today's sending of each of the caller's accounts, by account id. */
export async function getAccountsToday(): Promise<Map<string, AccountToday>> {
  const { data, error } = await supabase.rpc('account_daily_usage')
  if (error) throw new Error(`Could not load today's sending: ${error.message}`)
  const today = new Map<string, AccountToday>()
  for (const row of data) {
    if (!isSetBy(row.cap_reason)) throw new Error(`Unknown cap "${row.cap_reason}" for @${row.username}`)
    today.set(row.account_id, {
      allowed: row.account_cap,
      setBy: row.cap_reason,
      sent: row.sent_today,
      answers: row.answers_today,
      ownLimit: row.account_limit,
      warmupDay: row.warmup_day,
    })
  }
  return today
}
