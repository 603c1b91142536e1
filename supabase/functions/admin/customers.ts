// The Users, Campaigns and Accounts tabs, their detail drawers (View Details, Monitor, Manage) and
// Manage's one action: pausing or resuming an account's sending.
import type { AdminAccount, AdminCampaign, AdminUser } from '@reachflow/domain'
import type { SupabaseClient } from '../_shared/clients.ts'
import type { Json } from '../_shared/database.ts'
import { badRequest, conflict, jsonResponse, notFound } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseId, parseQuery, parseWith, readText, z } from '../_shared/validation.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num } from './views.ts'

export const NOT_FOUND = {
  user: 'User not found',
  campaign: 'Campaign not found',
  account: 'Account not found',
} as const

export const ACCOUNT_MESSAGES = {
  cannotPause: 'Only an active or flagged account can be paused',
  cannotResume: 'Only a paused or flagged account can be resumed',
} as const

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(500) })

export async function listUsers(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc(db, 'admin_users', { p_limit: limit })
  return jsonResponse(
    rows.map((row) => ({
      id: row.id,
      email: row.email,
      subscription_status: row.subscription_status,
      account_count: num(row.account_count),
      campaign_count: num(row.campaign_count),
      status: row.status,
    })) satisfies AdminUser[],
  )
}

export async function listCampaigns(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc(db, 'admin_campaigns', { p_limit: limit })
  return jsonResponse(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      user_email: row.user_email,
      status: row.status,
      messages_sent: num(row.messages_sent),
      contacted: num(row.contacted),
      target_count: num(row.target_count),
      response_count: num(row.response_count),
      started_at: row.started_at,
    })) satisfies AdminCampaign[],
  )
}

export async function listAccounts(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc(db, 'admin_social_accounts', { p_limit: limit })
  return jsonResponse(
    rows.map((row) => ({
      id: row.id,
      username: row.username,
      platform_name: row.platform_name,
      user_email: row.user_email,
      status: row.status,
      warmup_phase: num(row.warmup_phase),
      trust_score: num(row.trust_score),
      last_login: row.last_login,
    })) satisfies AdminAccount[],
  )
}

/** A detail drawer: the RPC's JSON passed on as the SQL writes it, or 404 when it answers null. */
function detail(read: (db: SupabaseClient, id: string) => Promise<Json>, notFoundMessage: string) {
  return async (_req: Request, { db, params }: AdminContext): Promise<Response> => {
    const found = await read(db, parseId(params.id, notFoundMessage))
    if (found === null) throw notFound(notFoundMessage)
    return jsonResponse(found)
  }
}

/** GET /users/:id: profile, subscriptions, accounts, campaigns, latest payments. */
export const getUser = detail((db, id) => rpc(db, 'admin_user_detail', { p_user_id: id }), NOT_FOUND.user)
/** GET /campaigns/:id: figures, lead progress and the latest message log. */
export const getCampaign = detail(
  (db, id) => rpc(db, 'admin_campaign_detail', { p_campaign_id: id }),
  NOT_FOUND.campaign,
)
/** GET /social-accounts/:id: status, flag, pause, warm-up, trust, today's sends. */
export const getAccount = detail(
  (db, id) => rpc(db, 'admin_social_account_detail', { p_account_id: id }),
  NOT_FOUND.account,
)

const accountName = z.object({ username: z.string() }).nullable()

// Pause for a while (the scheduler resumes it when the time comes) or, without minutes, until resumed.
const pauseBody = z.strictObject({
  minutes: z
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 30)
    .nullable()
    .optional(),
})

async function readPauseBody(req: Request) {
  const text = await readText(req, { maxBytes: 1024 })
  if (!text.trim()) return { minutes: null }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw badRequest('Request body must be valid JSON')
  }
  return parseWith(pauseBody, json)
}

export async function pauseAccount(req: Request, ctx: AdminContext): Promise<Response> {
  const id = parseId(ctx.params.id, NOT_FOUND.account)
  const { minutes } = await readPauseBody(req)
  const until = minutes ? new Date(Date.now() + minutes * 60_000).toISOString() : null
  return setSending(ctx, id, true, until)
}

export async function resumeAccount(_req: Request, ctx: AdminContext): Promise<Response> {
  return setSending(ctx, parseId(ctx.params.id, NOT_FOUND.account), false, null)
}

async function setSending(ctx: AdminContext, id: string, paused: boolean, until: string | null) {
  const outcome = await rpc(ctx.db, 'admin_set_account_sending', {
    p_account_id: id,
    p_paused: paused,
    p_until: until,
  })
  if (outcome === 'not_found') throw notFound(NOT_FOUND.account)
  if (outcome === 'not_allowed')
    throw conflict(paused ? ACCOUNT_MESSAGES.cannotPause : ACCOUNT_MESSAGES.cannotResume)
  const account = await rpc(ctx.db, 'admin_social_account_detail', { p_account_id: id })
  const named = fromJson(accountName, account, 'admin_social_account_detail')
  const name = named ? `@${named.username}` : id
  await writeAuditLog(
    ctx.db,
    ctx.admin,
    paused ? `Paused sending for ${name}${until ? ` until ${until}` : ''}` : `Resumed sending for ${name}`,
    { accountId: id },
  )
  return jsonResponse(account)
}
