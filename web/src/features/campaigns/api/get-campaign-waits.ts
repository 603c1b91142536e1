import { supabase } from '@/lib/supabase'

/** Why a sending campaign with leads due sends nothing today (rpc/campaign_sending_waits). */
export interface CampaignWait {
  accountUsername: string
  /** Whose cap is used up: the account's (warmup, account, platform, recovering) or the campaign's. */
  cause: 'warmup' | 'account' | 'platform' | 'recovering' | 'campaign'
  cap: number
  /** When sending resumes (the cap's next day, in the schedule's next open window); null: none within two weeks. */
  resumesAt: string | null
}

const CAUSES: readonly CampaignWait['cause'][] = ['warmup', 'account', 'platform', 'recovering', 'campaign']
const isCause = (value: string): value is CampaignWait['cause'] =>
  (CAUSES as readonly string[]).includes(value)

/** The caller's campaigns that wait on a used-up daily cap, by campaign id. */
export async function getCampaignWaits(): Promise<Map<string, CampaignWait>> {
  const { data, error } = await supabase.rpc('campaign_sending_waits')
  if (error) throw new Error(`Could not load why your campaigns wait: ${error.message}`)
  const waits = new Map<string, CampaignWait>()
  for (const row of data) {
    if (!isCause(row.cause)) throw new Error(`Unknown cap "${row.cause}" for campaign ${row.campaign_id}`)
    waits.set(row.campaign_id, {
      accountUsername: row.account_username,
      cause: row.cause,
      cap: row.cap,
      resumesAt: row.resumes_at,
    })
  }
  return waits
}
