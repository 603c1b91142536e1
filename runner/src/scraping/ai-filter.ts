// AI lead filtering: a scraping campaign with an ideal-customer description has
// each new lead that passed its rule filters scored 0-100 against it. A lead below the campaign's
// minimum is kept as filtered, its reason saying the score and why; a lead the AI could not score
// (timeout, rate limit, budget, a bad answer) is kept unscored, never dropped (docs/decisions.md).
// The verdict is the lead's profile_data.ai: {status: scored | below_threshold | unscored, score,
// reason, threshold}.
import {
  AI_FAILURE_TEXT,
  type AiConfig,
  AiError,
  chatWithinBudget,
  leadForAi,
  parseScore,
  scoreRequest,
} from '@reachflow/ai'
import type { Queryable } from '../db.ts'
import { type AiBooking, dbBudget } from '../sending/personalize.ts'

export interface LeadRowForAi {
  username: string
  profile_data: Record<string, unknown>
  is_filtered: boolean
  filter_reason: string | null
}

export interface AiFilter {
  idealCustomer: string
  minScore: number
}

/** Failures after which the rest of a page is not sent to the AI (a hanging endpoint must not eat the run). */
const STOP_AFTER_FAILURES = 2
const UNREACHABLE: AiError['kind'][] = ['timeout', 'network', 'server_error', 'rate_limited', 'budget']

export async function scoreRows(
  db: Queryable,
  ai: AiConfig | null | undefined,
  booking: AiBooking,
  filter: AiFilter,
  rows: LeadRowForAi[],
  alreadyCollected: Set<string>,
): Promise<LeadRowForAi[]> {
  let failuresInARow = 0
  let stoppedReason: string | null = null
  const out: LeadRowForAi[] = []
  for (const row of rows) {
    if (row.is_filtered || alreadyCollected.has(row.username.toLowerCase())) {
      out.push(row)
      continue
    }
    const unscored = (error: string): LeadRowForAi => ({
      ...row,
      profile_data: { ...row.profile_data, ai: { status: 'unscored', error: error.slice(0, 200) } },
    })
    if (!ai) {
      out.push(unscored(AI_FAILURE_TEXT.not_configured))
      continue
    }
    if (stoppedReason) {
      out.push(unscored(stoppedReason))
      continue
    }
    try {
      const lead = leadForAi(row.username, row.profile_data)
      const result = await chatWithinBudget(
        ai,
        dbBudget(db, booking),
        scoreRequest(filter.idealCustomer, lead),
        { validate: (text) => parseScore(text, filter.idealCustomer) },
      )
      const { score, reason } = parseScore(result.text, filter.idealCustomer)
      failuresInARow = 0
      const below = score < filter.minScore
      out.push({
        ...row,
        is_filtered: below,
        filter_reason: below
          ? `AI score ${score} is below ${filter.minScore}${reason ? `: ${reason}` : ''}`.slice(0, 300)
          : null,
        profile_data: {
          ...row.profile_data,
          ai: { status: below ? 'below_threshold' : 'scored', score, reason, threshold: filter.minScore },
        },
      })
    } catch (error) {
      const message = error instanceof AiError ? error.message : AI_FAILURE_TEXT.server_error
      out.push(unscored(message))
      if (error instanceof AiError && UNREACHABLE.includes(error.kind)) {
        failuresInARow++
        if (error.kind === 'budget' || failuresInARow >= STOP_AFTER_FAILURES) stoppedReason = message
      }
    }
  }
  return out
}

/** The campaign's AI counters from its stored leads (one indexed scan of its own rows). */
export async function refreshAiCounters(db: Queryable, campaignId: string): Promise<void> {
  await db.query(
    `update public.scraping_campaigns c
        set ai_kept = s.kept, ai_skipped = s.skipped, ai_unscored = s.unscored
       from (select count(*) filter (where l.profile_data -> 'ai' ->> 'status' = 'scored')::int as kept,
                    count(*) filter (where l.profile_data -> 'ai' ->> 'status' = 'below_threshold')::int as skipped,
                    count(*) filter (where l.profile_data -> 'ai' ->> 'status' = 'unscored')::int as unscored
               from public.scraping_campaign_leads l where l.scraping_campaign_id = $1) s
      where c.id = $1`,
    [campaignId],
  )
}
