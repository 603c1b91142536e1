// The Users, Campaigns and Accounts tabs, their detail drawers (View Details, Monitor, Manage) and
// Manage's one action: pausing or resuming an account's sending.
import { badRequest, conflict, jsonResponse, notFound } from '../_shared/errors.ts'
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

interface UserRow {
  id: string
  email: string
  subscription_status: string
  account_count: number
  campaign_count: number
  status: string
}

export async function listUsers(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc<UserRow[]>(db, 'admin_users', { p_limit: limit })
  return jsonResponse(
    rows.map((row) => ({
      id: row.id,
      email: row.email,
      subscription_status: row.subscription_status,
      account_count: num(row.account_count),
      campaign_count: num(row.campaign_count),
      status: row.status,
    })),
  )
}

interface CampaignRow {
  id: string
  name: string
  user_email: string
  status: string
  messages_sent: number
  contacted: number
  target_count: number
  response_count: number
  started_at: string | null
}

export async function listCampaigns(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc<CampaignRow[]>(db, 'admin_campaigns', { p_limit: limit })
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
    })),
  )
}

interface AccountRow {
  id: string
  username: string
  platform_name: string
  user_email: string
  status: string
  warmup_phase: number
  trust_score: number | string
  last_login: string | null
}

export async function listAccounts(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc<AccountRow[]>(db, 'admin_social_accounts', { p_limit: limit })
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
    })),
  )
}

function detail(rpcName: string, param: string, notFoundMessage: string) {
  return async (_req: Request, { db, params }: AdminContext): Promise<Response> => {
    const id = parseId(params.id, notFoundMessage)
    const found = await rpc<Record<string, unknown> | null>(db, rpcName, { [param]: id })
    if (!found) throw notFound(notFoundMessage)
    return jsonResponse(found)
  }
}

/** GET /users/:id: profile, subscriptions, accounts, campaigns, latest payments. */
export const getUser = detail('admin_user_detail', 'p_user_id', NOT_FOUND.user)
/** GET /campaigns/:id: figures, lead progress and the latest message log. */
export const getCampaign = detail('admin_campaign_detail', 'p_campaign_id', NOT_FOUND.campaign)
/** GET /social-accounts/:id: status, flag, pause, warm-up, trust, today's sends. */
export const getAccount = detail('admin_social_account_detail', 'p_account_id', NOT_FOUND.account)

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
  const outcome = await rpc<string>(ctx.db, 'admin_set_account_sending', {
    p_account_id: id,
    p_paused: paused,
    p_until: until,
  })
  if (outcome === 'not_found') throw notFound(NOT_FOUND.account)
  if (outcome === 'not_allowed')
    throw conflict(paused ? ACCOUNT_MESSAGES.cannotPause : ACCOUNT_MESSAGES.cannotResume)
  const account = await rpc<Record<string, unknown> | null>(ctx.db, 'admin_social_account_detail', {
    p_account_id: id,
  })
  const name = account ? `@${account.username}` : id
  await writeAuditLog(
    ctx.db,
    ctx.admin,
    paused ? `Paused sending for ${name}${until ? ` until ${until}` : ''}` : `Resumed sending for ${name}`,
    { accountId: id },
  )
  return jsonResponse(account)
}
