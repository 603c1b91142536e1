import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import type { AutomationResults } from './types'

const rowSchema = z.object({
  automation_id: z.string(),
  triggered: z.number(),
  sent: z.number(),
  refused: z.number(),
  failed: z.number(),
  replied: z.number(),
  conversations_started: z.number(),
  refusals: z.array(z.object({ reason: z.string(), count: z.number() })),
  last_triggered_at: z.string().nullable(),
})

/** rpc/instagram_automation_results: each automation's figures, by its id. */
export async function getAutomationResults(): Promise<Map<string, AutomationResults>> {
  const { data, error } = await supabase.rpc('instagram_automation_results')
  if (error) throw new Error(`Could not load the automations' results: ${error.message}`)
  const rows = z.array(rowSchema).parse(data)
  return new Map(
    rows.map((r) => [
      r.automation_id,
      {
        triggered: r.triggered,
        sent: r.sent,
        refused: r.refused,
        failed: r.failed,
        replied: r.replied,
        conversationsStarted: r.conversations_started,
        refusals: r.refusals,
        lastTriggeredAt: r.last_triggered_at,
      },
    ]),
  )
}
