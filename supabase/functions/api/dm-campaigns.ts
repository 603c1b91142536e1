// /v2/campaigns: DM campaigns. Create copies the lead source's valid leads (a trigger of the data
// model does it in the insert's transaction); run_immediately starts it (status running), otherwise
// it is a draft. Launch sets running and the scheduler queues its ticks within the minute; pause and
// delete cancel or remove its waiting ticks in the same transaction (api_operations).

import { type CampaignChanged, type CampaignView, type Deleted, dailyLimitOf } from '@reachflow/domain'
import type { Tables } from '../_shared/database.ts'
import { fromDbError, must } from '../_shared/db-errors.ts'
import { badRequest, conflict, jsonResponse, unprocessable } from '../_shared/errors.ts'
import { parseBody, parseId } from '../_shared/validation.ts'
import type { CallContext } from './deps.ts'
import { createCampaignSchema, updateCampaignSchema } from './dm-campaign-input.ts'

const NOT_FOUND = 'Campaign not found'
const SENDING = ['queued', 'running', 'active']
const NO_SOURCE = 'No completed scraping campaigns'

const CAMPAIGN_COLUMNS = `*, platform:platforms(name, display_name), social_account:social_accounts(id, username, status),
  scraping_campaign:scraping_campaigns(id, name, status, leads_collected), lead_list:lead_lists(id, name, lead_count)`

/** product.md §3 DM campaign with its dashboard card view (industry, stage, leads, sent, total_attempts, updated). */
function campaignView<Row extends Pick<Tables<'campaigns'>, 'messages_sent' | 'updated_at'>>(
  row: Row,
  leads: number,
) {
  return {
    ...row,
    leads,
    sent: row.messages_sent,
    updated: row.updated_at,
  }
}

/** Leads per campaign of the caller (one query, under RLS). */
async function leadCounts(ctx: CallContext): Promise<Map<string, number>> {
  const rows = must(await ctx.caller.db.rpc('campaign_lead_counts'))
  return new Map(rows.map((r) => [r.campaign_id, Number(r.leads)]))
}

async function viewOf(ctx: CallContext, id: string) {
  const found = await ctx.caller.db.from('campaigns').select(CAMPAIGN_COLUMNS).eq('id', id).maybeSingle()
  return campaignView(must(found, NOT_FOUND), (await leadCounts(ctx)).get(id) ?? 0)
}

/** The lead source must be the caller's own, finished, and have leads to message (product.md §2 DM wizard). */
async function checkLeadSource(
  ctx: CallContext,
  source: { scraping_campaign_id?: string | null; lead_list_id?: string | null },
): Promise<void> {
  if (source.scraping_campaign_id) {
    const { data, error } = await ctx.caller.db
      .from('scraping_campaigns')
      .select('status, leads_collected')
      .eq('id', source.scraping_campaign_id)
      .maybeSingle()
    if (error) throw fromDbError(error)
    if (!data) throw badRequest('Choose one of your scraping campaigns as the lead source')
    if (data.status !== 'completed' || data.leads_collected < 1) {
      throw unprocessable(`${NO_SOURCE}: choose a completed scraping campaign with collected leads`)
    }
  }
  if (source.lead_list_id) {
    const { data, error } = await ctx.caller.db
      .from('lead_lists')
      .select('lead_count')
      .eq('id', source.lead_list_id)
      .maybeSingle()
    if (error) throw fromDbError(error)
    if (!data) throw badRequest('Choose one of your lead lists as the lead source')
    if (data.lead_count < 1) throw unprocessable('The lead list has no leads to message')
  }
}

async function checkPlatform(
  ctx: CallContext,
  accountId: string,
  platform: string | undefined,
): Promise<void> {
  if (!platform) return
  const { data, error } = await ctx.caller.db
    .from('social_accounts')
    .select('platform:platforms(name)')
    .eq('id', accountId)
    .maybeSingle()
  if (error) throw fromDbError(error)
  const name = data?.platform?.name
  if (name && name !== platform) throw badRequest(`The chosen account is not a ${platform} account`)
}

export async function createCampaign(req: Request, ctx: CallContext): Promise<Response> {
  const body = await parseBody(req, createCampaignSchema)
  await checkPlatform(ctx, body.account_id, body.platform)
  await checkLeadSource(ctx, body)
  const { data, error } = await ctx.caller.db
    .from('campaigns')
    .insert({
      ...(body.id ? { id: body.id } : {}),
      user_id: ctx.caller.id,
      name: body.name,
      account_id: body.account_id,
      scraping_campaign_id: body.scraping_campaign_id ?? null,
      lead_list_id: body.lead_list_id ?? null,
      sequences: body.sequences,
      schedule: body.schedule,
      run_immediately: body.run_immediately,
      target_count: body.target_count ?? 100,
      daily_message_limit: dailyLimitOf(body),
      winner_after_sends: body.winner_after_sends ?? null,
      message_template: body.message_template ?? null,
      industry: body.industry ?? null,
      stage: body.stage ?? null,
      ai_personalization: body.ai_personalization ?? false,
    })
    .select('id')
    .single()
  if (error) throw fromDbError(error)
  return jsonResponse((await viewOf(ctx, data.id)) satisfies CampaignView, 201)
}

export async function listCampaigns(_req: Request, ctx: CallContext): Promise<Response> {
  const listed = await ctx.caller.db
    .from('campaigns')
    .select(CAMPAIGN_COLUMNS)
    .order('created_at', { ascending: false })
  const rows = must(listed)
  const counts = await leadCounts(ctx)
  return jsonResponse(rows.map((row) => campaignView(row, counts.get(row.id) ?? 0)) satisfies CampaignView[])
}

export async function getCampaign(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const view = await viewOf(ctx, id)
  const stats = must(await ctx.caller.db.rpc('campaign_stats', { p_campaign_id: id }), NOT_FOUND)
  return jsonResponse({ ...view, stats })
}

export async function updateCampaign(req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const body = await parseBody(req, updateCampaignSchema)
  const found = await ctx.caller.db
    .from('campaigns')
    .select('id, status, account_id')
    .eq('id', id)
    .maybeSingle()
  const current = must(found, NOT_FOUND)
  if (current.status === 'completed') throw conflict('A completed campaign cannot be changed')
  const sourceChanges = body.scraping_campaign_id !== undefined || body.lead_list_id !== undefined
  if (sourceChanges && current.status !== 'draft') {
    throw conflict('The lead source can only change while the campaign is a draft')
  }
  if (sourceChanges) await checkLeadSource(ctx, body)
  if (body.account_id || body.platform) {
    const account = body.account_id ?? current.account_id
    if (account) await checkPlatform(ctx, account, body.platform)
  }
  const { platform: _platform, ...changes } = body
  if (body.daily_message_limit === undefined && body.target_count !== undefined) {
    Object.assign(changes, { daily_message_limit: dailyLimitOf(body) })
  }
  const { error } = await ctx.caller.db.from('campaigns').update(changes).eq('id', id)
  if (error) throw fromDbError(error, NOT_FOUND)
  return jsonResponse((await viewOf(ctx, id)) satisfies CampaignView)
}

export async function deleteCampaign(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const { error } = await ctx.caller.db.rpc('delete_campaign', { p_campaign_id: id })
  if (error) throw fromDbError(error, NOT_FOUND)
  return jsonResponse({ id, deleted: true, message: 'Campaign deleted successfully!' } satisfies Deleted)
}

export async function launchCampaign(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const found = await ctx.caller.db.from('campaigns').select('id, status').eq('id', id).maybeSingle()
  const current = must(found, NOT_FOUND)
  if (SENDING.includes(current.status)) return jsonResponse((await viewOf(ctx, id)) satisfies CampaignChanged)
  if (current.status !== 'draft' && current.status !== 'paused') {
    throw conflict(`A ${current.status} campaign cannot be launched again`)
  }
  const leads = (await leadCounts(ctx)).get(id) ?? 0
  if (leads === 0) throw unprocessable('No leads collected yet: the campaign has no one to message')
  // The scheduler ticks running campaigns whose window is open, every minute (pg_cron).
  const { error } = await ctx.caller.db.from('campaigns').update({ status: 'running' }).eq('id', id)
  if (error) throw fromDbError(error, NOT_FOUND)
  return jsonResponse({ ...(await viewOf(ctx, id)), message: 'Campaign launched!' } satisfies CampaignChanged)
}

export async function pauseCampaign(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const { error } = await ctx.caller.db.rpc('pause_campaign', { p_campaign_id: id })
  if (error) throw fromDbError(error, NOT_FOUND)
  return jsonResponse({ ...(await viewOf(ctx, id)), message: 'Campaign paused!' } satisfies CampaignChanged)
}
