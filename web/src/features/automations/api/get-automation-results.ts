import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import type { AutomationResults, FollowupResults } from './types'

const reasons = z.array(z.object({ reason: z.string(), count: z.number() }))

const rowSchema = z.object({
  automation_id: z.string(),
  triggered: z.number(),
  sent: z.number(),
  refused: z.number(),
  failed: z.number(),
  replied: z.number(),
  conversations_started: z.number(),
  refusals: reasons,
  last_triggered_at: z.string().nullable(),
})

const followupSchema = z.object({
  automation_id: z.string(),
  waiting: z.number(),
  sent: z.number(),
  skipped: z.number(),
  not_sent: z.number(),
  reasons,
})

export const NO_FOLLOWUPS: FollowupResults = { waiting: 0, sent: 0, skipped: 0, notSent: 0, reasons: [] }

/** rpc/instagram_automation_results and rpc/instagram_followup_results: each automation's figures, by its id. */
export async function getAutomationResults(): Promise<Map<string, AutomationResults>> {
  const [runs, followups] = await Promise.all([
    supabase.rpc('instagram_automation_results'),
    supabase.rpc('instagram_followup_results'),
  ])
  const error = runs.error ?? followups.error
  if (error) throw new Error(`Could not load the automations' results: ${error.message}`)
  const byAutomation = new Map(
    z
      .array(followupSchema)
      .parse(followups.data)
      .map((f): [string, FollowupResults] => [
        f.automation_id,
        { waiting: f.waiting, sent: f.sent, skipped: f.skipped, notSent: f.not_sent, reasons: f.reasons },
      ]),
  )
  return new Map(
    z
      .array(rowSchema)
      .parse(runs.data)
      .map((r) => [
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
          followups: byAutomation.get(r.automation_id) ?? NO_FOLLOWUPS,
        },
      ]),
  )
}
