// Per-lead personalisation at send time, for campaigns with ai_personalization:
// the composed template goes to the AI endpoint with the lead's name, bio and recent posts; the
// answer is sent only when it passes every check (length cap, no placeholder, no banned phrase, no
// link, handle or e-mail address the template lacks: the lead's bio is a stranger's text).
// Any failure (not configured, budget, timeout, 429, 5xx, malformed, too long, banned, a foreign
// link) sends the template, and the step's dm_logs row says which happened and why. A step already
// logged (a retry of a send known not to have gone out) keeps its stored text: no second AI call.
import {
  type AiBudget,
  type AiConfig,
  type AiPlatform,
  type Personalization,
  personalizeText,
} from '@reachflow/ai'
import type { Queryable } from '../db.ts'

export type { Personalization }

/** Whose budget an AI call counts against (the workspace's) and who it is booked to. */
export interface AiBooking {
  /** The workspace of the campaign or scraping campaign the call is for. */
  workspaceId: string
  /** That campaign's creator. */
  userId: string
}

/** public.ai_reserve / ai_settle for one workspace's budget, through the runner's connection. */
export function dbBudget(db: Queryable, booking: AiBooking): AiBudget {
  return {
    reserve: async (tokens) => {
      const { rows } = await db.query<{ result: { allowed: boolean; day: string } }>(
        'select public.ai_reserve($1, $2, $3) as result',
        [booking.workspaceId, booking.userId, tokens],
      )
      const result = rows[0]?.result
      return { allowed: result?.allowed === true, day: result?.day ?? '' }
    },
    settle: async (day, reserved, used, failed) => {
      await db.query('select public.ai_settle($1, $2, $3::date, $4, $5, $6)', [
        booking.workspaceId,
        booking.userId,
        day,
        reserved,
        used,
        failed,
      ])
    },
  }
}

/**
 * The text to send for one lead's step. Null when personalisation does not apply (off for the
 * campaign, or the step already has a logged text the claim will reuse).
 */
export async function personalizeForLead(
  db: Queryable,
  ai: AiConfig | null | undefined,
  request: AiBooking & {
    enabled: boolean
    platform: AiPlatform
    leadId: string
    step: number
    username: string
    profile: Record<string, unknown>
    template: string
  },
): Promise<Personalization | null> {
  if (!request.enabled) return null
  const logged = await db.query('select 1 from public.dm_logs where campaign_lead_id = $1 and step = $2', [
    request.leadId,
    request.step,
  ])
  if (logged.rowCount) return null
  return personalizeText(ai, dbBudget(db, request), request)
}

/** Writes the verdict on the step's log row, once the claim has written the row with `text`. */
export async function recordPersonalization(
  db: Queryable,
  logId: string,
  sentText: string,
  verdict: Personalization,
): Promise<void> {
  if (sentText !== verdict.text) return
  await db.query('update public.dm_logs set personalization = $2, personalization_note = $3 where id = $1', [
    logId,
    verdict.personalization,
    verdict.note,
  ])
}
