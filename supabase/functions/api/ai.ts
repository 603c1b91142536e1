// /ai: whether AI writing is available to the caller, "Write with AI" drafts for the DM wizard, and
// the wizard's preview of what a real lead of the source would be sent.
// The endpoint and its key stay here (function secrets); the client only ever sees drafted text.
// Every call goes through the daily budget of the caller's active workspace (public.ai_reserve,
// atomic in the database), booked to the caller; only the roles that write campaigns may use it.

import { type AiStatus, type Drafts, type PersonalizedPreview, renderTemplate } from '@reachflow/domain'
import {
  AI_FAILURE_TEXT,
  AI_NOT_CONFIGURED_HINT,
  type AiBudget,
  type AiConfig,
  AiError,
  aiConfigFrom,
  chatWithinBudget,
  draftInputProblem,
  draftRequest,
  parseDraft,
  personalizeText,
} from '../_shared/ai.ts'
import { fromDbError, must } from '../_shared/db-errors.ts'
import { HttpError, jsonResponse } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseBody, z } from '../_shared/validation.ts'
import { EDIT_ROLES, requireWorkspaceRole } from '../_shared/workspace-role.ts'
import type { CallContext } from './deps.ts'

interface Usage {
  requests: number
  tokens: number
  requestLimit: number
  tokenLimit: number
}

/** What ai_reserve answers (its jsonb also carries the counts it checked). */
const reservation = z.object({ allowed: z.boolean(), day: z.string() })

const today = (now: Date) => now.toISOString().slice(0, 10)

/**
 * The active workspace's use of today's budget: every member's row of the day (RLS shows the
 * active workspace's rows to the roles that read usage; none yet = nothing used).
 */
async function usageOf(ctx: CallContext): Promise<Usage> {
  const limits = await ctx.caller.db
    .from('ai_settings')
    .select('requests_per_day, tokens_per_day')
    .maybeSingle()
  const settings = must(limits)
  const { data: rows, error } = await ctx.caller.db
    .from('ai_usage')
    .select('requests, tokens')
    .eq('day', today(ctx.deps.now()))
  if (error) throw fromDbError(error)
  return {
    requests: rows.reduce((sum, row) => sum + row.requests, 0),
    tokens: rows.reduce((sum, row) => sum + row.tokens, 0),
    requestLimit: settings?.requests_per_day ?? 0,
    tokenLimit: settings?.tokens_per_day ?? 0,
  }
}

/**
 * The caller's active workspace, when their role there writes campaigns (the drafts and previews
 * are for the campaign wizard); 403 with the workspace errors otherwise.
 */
async function aiWorkspace(ctx: CallContext): Promise<string> {
  return (await requireWorkspaceRole(ctx.caller.db, EDIT_ROLES)).workspaceId
}

/** The workspace's budget, booked to the caller, through the service role (the RPCs are not the customer's to call). */
export function budgetFor(ctx: CallContext, workspaceId: string): AiBudget {
  return {
    reserve: async (tokens) => {
      const reserved = await ctx.service().rpc('ai_reserve', {
        p_workspace_id: workspaceId,
        p_user_id: ctx.caller.id,
        p_tokens: tokens,
      })
      return fromJson(reservation, must(reserved), 'ai_reserve')
    },
    settle: async (day, reserved, used, failed) => {
      const { error } = await ctx.service().rpc('ai_settle', {
        p_workspace_id: workspaceId,
        p_user_id: ctx.caller.id,
        p_day: day,
        p_reserved: reserved,
        p_used: used,
        p_failed: failed,
      })
      if (error) throw fromDbError(error)
    },
  }
}

function configOf(ctx: CallContext): AiConfig | null {
  return aiConfigFrom(ctx.deps.env)
}

export async function aiStatus(_req: Request, ctx: CallContext): Promise<Response> {
  const config = configOf(ctx)
  if (!config) return jsonResponse({ available: false, reason: AI_NOT_CONFIGURED_HINT } satisfies AiStatus)
  const usage = await usageOf(ctx)
  const exhausted = usage.requests >= usage.requestLimit || usage.tokens >= usage.tokenLimit
  return jsonResponse({
    available: true,
    model: config.model,
    sandbox: config.model === 'reachflow-sandbox',
    budget: {
      ...usage,
      exhausted,
      resetsAt: `${today(new Date(ctx.deps.now().getTime() + 86_400_000))}T00:00:00Z`,
    },
    reason: exhausted ? AI_FAILURE_TEXT.budget : null,
  } satisfies AiStatus)
}

const text = (what: string, max: number) =>
  z
    .string(`${what} is required`)
    .trim()
    .min(3, `Describe the ${what.toLowerCase()} in a few words`)
    .max(max, `${what} may be at most ${max} characters`)

export const draftSchema = z.object({
  goal: text('Goal', 500),
  offer: text('Offer', 500),
  platform: z.enum(['twitter', 'instagram'], 'Platform must be twitter or instagram').default('twitter'),
  variants: z.number().int().min(1, 'Ask for 1 to 3 variants').max(3, 'Ask for 1 to 3 variants').default(3),
  followUps: z
    .number()
    .int()
    .min(0, 'Ask for 0 to 3 follow-ups')
    .max(3, 'Ask for 0 to 3 follow-ups')
    .default(0),
})

/** HTTP statuses of the failures: the budget is the customer's (429), the rest is the AI service's. */
const STATUS_OF: Record<AiError['kind'], number> = {
  not_configured: 503,
  budget: 429,
  timeout: 504,
  rate_limited: 503,
  server_error: 502,
  network: 502,
  malformed: 502,
  too_long: 502,
  // the drafts echoed something the customer wrote (an offer that is "risk-free"): theirs to rephrase
  banned_phrase: 422,
  // a link, handle or e-mail address the goal and offer do not contain: the AI's invention
  foreign_contact: 502,
}

export async function draftMessages(req: Request, ctx: CallContext): Promise<Response> {
  const config = configOf(ctx)
  if (!config) throw new HttpError(503, AI_NOT_CONFIGURED_HINT)
  const workspaceId = await aiWorkspace(ctx)
  const input = await parseBody(req, draftSchema)
  // refused before the model is asked (and the budget charged): its drafts would come back cut off
  const tooLong = draftInputProblem(input)
  if (tooLong) throw new HttpError(400, tooLong, { reason: 'input_too_long' })
  const request = draftRequest(input)
  try {
    const result = await chatWithinBudget(config, budgetFor(ctx, workspaceId), request, {
      fetch: ctx.deps.fetch,
      validate: (text) => parseDraft(text, input),
    })
    const draft = parseDraft(result.text, input)
    return jsonResponse({ ...draft, tokens: result.tokens } satisfies Drafts)
  } catch (error) {
    if (error instanceof AiError) {
      const phrase = /\("(.+)"\)$/.exec(error.message)?.[1]
      const message =
        error.kind === 'banned_phrase'
          ? `The drafts used the banned phrase "${phrase}". Rephrase your goal or offer and try again.`
          : error.message
      throw new HttpError(STATUS_OF[error.kind], message, { reason: error.kind })
    }
    throw error
  }
}

export const previewSchema = z.object({
  template: z.string('Write a message to preview').trim().min(1, 'Write a message to preview').max(10_000),
  scraping_campaign_id: z.uuid('Choose a lead source to preview for'),
  platform: z.enum(['twitter', 'instagram'], 'Platform must be twitter or instagram').default('twitter'),
})

/**
 * What the first valid lead of the caller's lead source would be sent with AI personalisation on:
 * the template rendered for that lead and personalised by the code the runner sends with (the
 * template itself, with the reason, when the AI cannot). Charged to the workspace's AI budget.
 */
export async function previewMessage(req: Request, ctx: CallContext): Promise<Response> {
  const workspaceId = await aiWorkspace(ctx)
  const input = await parseBody(req, previewSchema)
  const found = await ctx.caller.db
    .from('scraping_campaign_leads')
    .select('username, profile_data')
    .eq('scraping_campaign_id', input.scraping_campaign_id)
    .eq('is_filtered', false)
    .order('collected_at', { ascending: true })
    .order('username', { ascending: true })
    .limit(1)
    .maybeSingle()
  const lead = must(found)
  if (!lead) throw new HttpError(404, 'The lead source has no leads to preview')
  const profile = (lead.profile_data ?? {}) as Record<string, unknown>
  const rendered = renderTemplate(input.template, { username: lead.username, profile }, Math.random)
  if (rendered === null) throw new HttpError(400, 'Write a message to preview')
  const result = await personalizeText(
    configOf(ctx),
    budgetFor(ctx, workspaceId),
    { template: rendered, username: lead.username, profile, platform: input.platform },
    { fetch: ctx.deps.fetch },
  )
  return jsonResponse({ username: lead.username, ...result } satisfies PersonalizedPreview)
}
