// /lead-lists: named lists of scraped leads (id, name, lead_count). Each scraping campaign fills its
// own list; customers can also make lists from leads they pick. Everything runs as the caller, so
// row-level security and the data model's member check keep lists and leads the caller's own.
import type { LeadListView } from '@reachflow/domain'
import { fromDbError, must } from '../_shared/db-errors.ts'
import { badRequest, conflict, jsonResponse, notFound } from '../_shared/errors.ts'
import { parseBody, parseId, z } from '../_shared/validation.ts'
import type { CallContext } from './deps.ts'

const NOT_FOUND = 'Lead list not found'
const LIST_COLUMNS = 'id, name, lead_count, scraping_campaign_id, created_at, updated_at'
/** product.md §9: detail lists show up to 500 scraped leads. */
const MEMBER_LIMIT = 500

const createBody = z.object({
  name: z.string('List name is required').trim().min(1, 'List name is required').max(200),
  lead_ids: z
    .array(z.uuid('Lead ids must be UUIDs'))
    .max(1000, 'A list can be created with at most 1,000 leads')
    .default([]),
})

export async function listLeadLists(_req: Request, ctx: CallContext): Promise<Response> {
  const rows = must(
    await ctx.caller.db.from('lead_lists').select(LIST_COLUMNS).order('created_at', { ascending: false }),
  )
  return jsonResponse(rows satisfies LeadListView[])
}

export async function getLeadList(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  const found = await ctx.caller.db.from('lead_lists').select(LIST_COLUMNS).eq('id', id).maybeSingle()
  const list = must(found, NOT_FOUND)
  const joined = await ctx.caller.db
    .from('lead_list_members')
    .select(
      'added_at, lead:scraping_campaign_leads(id, username, profile_data, is_filtered, filter_reason, source_type, source_value, collected_at, scraping_campaign_id)',
    )
    .eq('lead_list_id', id)
    .order('added_at', { ascending: false })
    .limit(MEMBER_LIMIT)
  const members = must(joined)
  return jsonResponse({
    ...list,
    leads: members.flatMap((m) => (m.lead ? [{ ...m.lead, added_at: m.added_at }] : [])),
  })
}

export async function createLeadList(req: Request, ctx: CallContext): Promise<Response> {
  const body = await parseBody(req, createBody)
  const leadIds = [...new Set(body.lead_ids)]
  if (leadIds.length > 0) {
    // Under RLS only the caller's own leads are counted, so a foreign or unknown id shows here.
    const { count, error } = await ctx.caller.db
      .from('scraping_campaign_leads')
      .select('id', { count: 'exact', head: true })
      .in('id', leadIds)
    if (error) throw fromDbError(error)
    if (count !== leadIds.length) throw badRequest('Some of these leads do not exist or are not yours')
  }
  const inserted = await ctx.caller.db
    .from('lead_lists')
    .insert({ user_id: ctx.caller.id, name: body.name })
    .select('id')
    .single()
  const created = must(inserted)
  if (leadIds.length > 0) {
    const { error } = await ctx.caller.db.from('lead_list_members').insert(
      leadIds.map((leadId) => ({
        lead_list_id: created.id,
        scraping_lead_id: leadId,
        user_id: ctx.caller.id,
      })),
    )
    if (error) {
      await ctx.caller.db.from('lead_lists').delete().eq('id', created.id)
      throw fromDbError(error)
    }
  }
  const list = must(await ctx.caller.db.from('lead_lists').select(LIST_COLUMNS).eq('id', created.id).single())
  return jsonResponse(list, 201)
}

export async function deleteLeadList(_req: Request, ctx: CallContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND)
  // A launched campaign keeps its lead source: say which one, rather than the data model's refusal.
  const { data: users, error: usersError } = await ctx.caller.db
    .from('campaigns')
    .select('name')
    .eq('lead_list_id', id)
    .neq('status', 'draft')
    .limit(1)
  if (usersError) throw fromDbError(usersError)
  const user = users[0]
  if (user)
    throw conflict(
      `This lead list is the lead source of the DM campaign "${user.name}": delete that campaign first`,
    )
  const { data, error } = await ctx.caller.db.from('lead_lists').delete().eq('id', id).select('id')
  if (error) throw fromDbError(error, NOT_FOUND)
  if (!data || data.length === 0) throw notFound(NOT_FOUND)
  return jsonResponse({ id, deleted: true, message: 'Lead list deleted successfully!' })
}
