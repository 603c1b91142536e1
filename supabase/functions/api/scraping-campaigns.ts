// Lead scraping campaigns (product.md §7: /lead-scraping/campaigns and /scraping-campaigns name the same
// thing): create (pending), list, start (the wizard's "started manually from the list"), pause and
// delete. Start, pause and delete are one transaction each with the job queue (api_operations).

import type { Deleted, ScrapingCampaignView, ScrapingOperated } from '@reachflow/domain'
import { AI_NOT_CONFIGURED_HINT, aiConfigFrom } from '../_shared/ai.ts'
import type { Json, Tables } from '../_shared/database.ts'
import { fromDbError, must } from '../_shared/db-errors.ts'
import { badRequest, jsonResponse, unprocessable } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseBody, parseId, z } from '../_shared/validation.ts'
import type { CallContext } from './deps.ts'

const NOT_FOUND = 'Scraping campaign not found'

const SOURCE_TYPES: Record<string, 'followers' | 'following' | 'hashtag' | 'keyword'> = {
  followers: 'followers',
  following: 'following',
  hashtag: 'hashtag',
  hashtags: 'hashtag',
  hashtag_posts: 'hashtag',
  keyword: 'keyword',
  keywords: 'keyword',
  keyword_search: 'keyword',
  search: 'keyword',
}

const source = z.object({
  type: z
    .string()
    .transform((t) => SOURCE_TYPES[t.trim().toLowerCase()])
    .refine(
      (t) => t !== undefined,
      'Choose a lead source: followers, following, hashtag posts or keyword search',
    ),
  value: z.string().max(200, 'The source value may be at most 200 characters').optional(),
})

const wholeNumber = (message: string) => z.number(message).int(message)

const filters = z
  .object({
    min_followers: wholeNumber('Min followers must be a whole number of 0 or more').min(
      0,
      'Min followers must be a whole number of 0 or more',
    ),
    max_followers: wholeNumber('Max followers must be a whole number, or empty for no limit')
      .min(0)
      .nullable(),
    verified_only: z.boolean(),
    has_bio: z.boolean(),
    exclude_business: z.boolean(),
  })
  .partial()
  .refine(
    (f) => f.max_followers == null || f.min_followers === undefined || f.max_followers >= f.min_followers,
    'Max followers must be empty (no limit) or at least min followers',
  )

const createBody = z.object({
  name: z.string('Campaign name is required').trim().min(1, 'Campaign name is required').max(200),
  account_id: z.uuid('Choose one of your social accounts for this campaign'),
  sources: z.union([source, z.array(source).min(1).max(20)], 'Choose a lead source for this campaign'),
  target_count: wholeNumber('Target count must be a whole number from 1 to 10,000')
    .min(1, 'Target count must be a whole number from 1 to 10,000')
    .max(10_000, 'Target count must be a whole number from 1 to 10,000')
    .default(100),
  filters: filters.nullish(),
  ai_ideal_customer: z
    .string()
    .trim()
    .max(1000, 'The ideal-customer description may be at most 1,000 characters')
    .nullish(),
  ai_min_score: wholeNumber('The minimum AI score must be a whole number from 0 to 100')
    .min(0, 'The minimum AI score must be a whole number from 0 to 100')
    .max(100, 'The minimum AI score must be a whole number from 0 to 100')
    .optional(),
})

/** Values as the data model keeps them: hashtags without #, usernames without @ (product.md §5). */
function normalisedSources(input: z.output<typeof createBody>['sources']) {
  const list = Array.isArray(input) ? input : [input]
  return list.map((s) => {
    let value = (s.value ?? '').trim()
    if (s.type === 'hashtag') value = value.replace(/^#+/, '')
    if (s.type === 'followers' || s.type === 'following') value = value.replace(/^@+/, '')
    if (!value) throw badRequest('Enter the source value (a username, hashtag or keyword)')
    return { type: s.type as string, value }
  })
}

export const SCRAPING_COLUMNS = `*, account:social_accounts(id, username, status), platform:platforms(name, display_name),
  lead_list:lead_lists!scraping_campaigns_lead_list_id_fkey(id, name, lead_count)`

/** scraping_campaigns.sources as the insert below and the table's check write it. */
const storedSources = z.array(z.object({ type: z.string(), value: z.string() }))

type ScrapingFigures = Pick<
  Tables<'scraping_campaigns'>,
  'collected_count' | 'leads_collected' | 'last_run_at' | 'next_run_at'
>
/** start/pause/delete answer jsonb; delete says deleted. */
const operationResult = z.looseObject({ deleted: z.boolean().optional() })

const CRITERIA: Record<string, (value: string) => string> = {
  followers: (v) => `Followers of @${v}`,
  following: (v) => `Following of @${v}`,
  hashtag: (v) => `#${v}`,
  keyword: (v) => `"${v}"`,
}

/** product.md §3 scraping campaign, with its list view (platform, criteria, scraped, verified, lastRun, nextRun). */
function scrapingView<Row extends { sources: Json; platform: { name: string } | null } & ScrapingFigures>(
  row: Row,
) {
  const sources = fromJson(storedSources, row.sources, 'scraping_campaigns.sources')
  return {
    ...row,
    platform_name: row.platform?.name ?? null,
    criteria: sources.map((s) => (CRITERIA[s.type] ?? String)(s.value)).join(', '),
    scraped: row.collected_count,
    verified: row.leads_collected,
    lastRun: row.last_run_at,
    nextRun: row.next_run_at,
  }
}

async function viewOf(ctx: CallContext, id: string) {
  const found = await ctx.caller.db
    .from('scraping_campaigns')
    .select(SCRAPING_COLUMNS)
    .eq('id', id)
    .maybeSingle()
  return scrapingView(must(found, NOT_FOUND))
}

export async function createScrapingCampaign(req: Request, ctx: CallContext): Promise<Response> {
  const body = await parseBody(req, createBody)
  if (body.ai_ideal_customer && !aiConfigFrom(ctx.deps.env)) throw unprocessable(AI_NOT_CONFIGURED_HINT)
  const { data, error } = await ctx.caller.db
    .from('scraping_campaigns')
    .insert({
      user_id: ctx.caller.id,
      name: body.name,
      account_id: body.account_id,
      sources: normalisedSources(body.sources),
      target_count: body.target_count,
      filters: body.filters ?? {},
      ai_ideal_customer: body.ai_ideal_customer || null,
      ai_min_score: body.ai_min_score ?? 60,
    })
    .select('id')
    .single()
  if (error) throw fromDbError(error)
  return jsonResponse((await viewOf(ctx, data.id)) satisfies ScrapingCampaignView, 201)
}

export async function listScrapingCampaigns(_req: Request, ctx: CallContext): Promise<Response> {
  const rows = await ctx.caller.db
    .from('scraping_campaigns')
    .select(SCRAPING_COLUMNS)
    .order('created_at', { ascending: false })
  return jsonResponse(must(rows).map(scrapingView) satisfies ScrapingCampaignView[])
}

export async function getScrapingCampaign(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const view = await viewOf(ctx, id)
  const stats = must(
    await ctx.caller.db.rpc('scraping_campaign_stats', { p_scraping_campaign_id: id }),
    NOT_FOUND,
  )
  return jsonResponse({ ...view, stats })
}

/** start / pause / delete: the RPCs check ownership themselves (another customer's id is a 404). */
function operation(
  rpc: 'start_scraping_campaign' | 'pause_scraping_campaign' | 'delete_scraping_campaign',
  message: string,
) {
  return async (_req: Request, ctx: CallContext): Promise<Response> => {
    const id = parseId(ctx.params.id, NOT_FOUND)
    const { data, error } = await ctx.caller.db.rpc(rpc, { p_scraping_campaign_id: id })
    if (error) throw fromDbError(error, NOT_FOUND)
    if (fromJson(operationResult, data, rpc).deleted)
      return jsonResponse({ id, deleted: true, message } satisfies Deleted)
    return jsonResponse({ ...(await viewOf(ctx, id)), message } satisfies ScrapingOperated)
  }
}

export const startScrapingCampaign = operation('start_scraping_campaign', 'Scraping campaign started!')
export const pauseScrapingCampaign = operation('pause_scraping_campaign', 'Scraping campaign paused!')
export const deleteScrapingCampaign = operation(
  'delete_scraping_campaign',
  'Scraping campaign deleted successfully!',
)
