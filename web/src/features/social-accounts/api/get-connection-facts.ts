import { X_API_USAGE_KINDS, type XApiUsageKind, xApiCostMills } from '@reachflow/domain'
import { supabase } from '@/lib/supabase'

/** What is true for an official Instagram account (rpc/instagram_official_facts). */
export interface InstagramFacts {
  lastReceivedAt: string | null
  receivedThisWeek: number
  /** When Meta last delivered a webhook event for the account. */
  lastWebhookAt: string | null
}

const isUsageKind = (kind: string): kind is XApiUsageKind =>
  (X_API_USAGE_KINDS as readonly string[]).includes(kind)

/** What each official X account's developer app was billed this month (mills), by account id. */
export async function getXApiSpend(): Promise<Map<string, number>> {
  const { data, error } = await supabase.rpc('x_api_usage_this_month')
  if (error) throw new Error(`Could not load the X API cost: ${error.message}`)
  const units = new Map<string, Partial<Record<XApiUsageKind, number>>>()
  for (const row of data) {
    if (!isUsageKind(row.kind)) throw new Error(`Unknown X API usage "${row.kind}"`)
    units.set(row.account_id, { ...units.get(row.account_id), [row.kind]: row.units })
  }
  return new Map([...units].map(([id, byKind]) => [id, xApiCostMills(byKind)]))
}

/** Each official Instagram account's facts, by account id. */
export async function getInstagramFacts(): Promise<Map<string, InstagramFacts>> {
  const { data, error } = await supabase.rpc('instagram_official_facts')
  if (error) throw new Error(`Could not load the Instagram accounts' messages: ${error.message}`)
  return new Map(
    data.map((row) => [
      row.account_id,
      {
        lastReceivedAt: row.last_received_at,
        receivedThisWeek: row.received_this_week,
        lastWebhookAt: row.last_webhook_at,
      },
    ]),
  )
}
