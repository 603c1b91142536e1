import { supabase } from '@/lib/supabase'

/** What an account may send today as the runner keeps it (rpc/account_daily_usage, one account). */
export interface AccountAllowance {
  username: string
  allowed: number
  /** The cap that sets it: warmup, account (its own limit), platform, or recovering from a warning. */
  setBy: string
  warmupDay: number | null
}

export async function getAccountAllowance(accountId: string): Promise<AccountAllowance | null> {
  const { data: rows, error } = await supabase.rpc('account_daily_usage')
  if (error) throw new Error(`Could not load the account's daily allowance: ${error.message}`)
  const data = rows.find((row) => row.account_id === accountId)
  if (!data) return null
  return {
    username: data.username,
    allowed: data.account_cap,
    setBy: data.cap_reason,
    warmupDay: data.warmup_day,
  }
}
