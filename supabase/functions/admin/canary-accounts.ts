// Which accounts the canary signs in with (chosen among customers' active accounts or operators'
// own, used in turn) and what it opens: the known thread per account, the profile and the search
// per platform, how often it runs.
import type {
  CanaryAccountChoice,
  CanaryAccountRemoved,
  CanaryCandidate,
  CanaryConfig,
  CanarySettings,
} from '@reachflow/domain'
import { must } from '../_shared/db-errors.ts'
import { conflict, jsonResponse, notFound } from '../_shared/errors.ts'
import { parseBody, parseId, parseQuery, z } from '../_shared/validation.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { LABELS, platformParam } from './platform-packs.ts'

export const CANARY_MESSAGES = {
  accountNotFound: 'Account not found',
  notSupported: 'The canary runs on X and Instagram accounts only',
  notActive: 'Only an active account can be a canary account',
  notChosen: 'This account is not a canary account',
} as const

/** GET /canary/:platform: the chosen accounts and the settings. */
export async function getCanary(_req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const [accounts, settings] = await Promise.all([
    rpc(ctx.db, 'admin_canary_accounts', { p_platform: platform }),
    ctx.db
      .from('platform_canary_settings')
      .select('profile_username, search_query, every_minutes, updated_at')
      .eq('platform', platform)
      .single(),
  ])
  const s = must(settings)
  return jsonResponse({
    platform,
    label: LABELS[platform],
    accounts: accounts.map((a) => ({
      accountId: a.account_id,
      username: a.username,
      status: a.status,
      userEmail: a.user_email,
      operator: a.operator,
      threadId: a.thread_id,
      addedAt: a.added_at,
      lastRunAt: a.last_run_at,
    })),
    settings: {
      profileUsername: s.profile_username,
      searchQuery: s.search_query,
      everyMinutes: s.every_minutes,
    },
  } satisfies CanaryConfig)
}

const candidatesQuery = z.object({
  q: z.string().max(100).default(''),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})

/** GET /canary/:platform/candidates?q=: active accounts an operator may choose. */
export async function listCandidates(_req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const { q, limit } = parseQuery(ctx.url, candidatesQuery)
  const rows = await rpc(ctx.db, 'admin_canary_candidates', {
    p_platform: platform,
    p_search: q.trim(),
    p_limit: limit,
  })
  return jsonResponse(
    rows.map((r) => ({
      accountId: r.account_id,
      username: r.username,
      status: r.status,
      userEmail: r.user_email,
      operator: r.operator,
      chosen: r.chosen,
    })) satisfies CanaryCandidate[],
  )
}

const accountBody = z.strictObject({
  accountId: z.uuid(),
  threadId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:-]{1,200}$/, 'threadId must be a conversation id (letters, digits, _ : -)')
    .nullable()
    .optional(),
})

/** POST /canary/accounts {accountId, threadId?}: choose an account (or change its known thread). */
export async function chooseAccount(req: Request, ctx: AdminContext): Promise<Response> {
  const { accountId, threadId } = await parseBody(req, accountBody, { maxBytes: 2048 })
  const outcome = await rpc(ctx.db, 'admin_set_canary_account', {
    p_account_id: accountId,
    p_thread_id: threadId ?? null,
    p_by: ctx.admin.id,
  })
  if (outcome === 'not_found') throw notFound(CANARY_MESSAGES.accountNotFound)
  if (outcome === 'not_supported') throw conflict(CANARY_MESSAGES.notSupported)
  if (outcome === 'not_active') throw conflict(CANARY_MESSAGES.notActive)
  await writeAuditLog(ctx.db, ctx.admin, 'Chose a canary account', { accountId, threadId: threadId ?? null })
  return jsonResponse({ accountId, threadId: threadId ?? null } satisfies CanaryAccountChoice)
}

/** DELETE /canary/accounts/:id */
export async function removeAccount(_req: Request, ctx: AdminContext): Promise<Response> {
  const id = parseId(ctx.params.id, CANARY_MESSAGES.notChosen)
  const removed = must(
    await ctx.db.from('platform_canary_accounts').delete().eq('account_id', id).select('account_id'),
  )
  if (removed.length === 0) throw notFound(CANARY_MESSAGES.notChosen)
  await writeAuditLog(ctx.db, ctx.admin, 'Removed a canary account', { accountId: id })
  return jsonResponse({ accountId: id, removed: true } satisfies CanaryAccountRemoved)
}

const settingsBody = z.strictObject({
  profileUsername: z
    .string()
    .trim()
    .regex(/^@?[A-Za-z0-9_.]{1,30}$/, 'profileUsername must be a username (letters, digits, _ and .)')
    .nullable(),
  searchQuery: z.string().trim().min(1).max(100),
  everyMinutes: z.number().int().min(1).max(60),
})

/** PUT /canary/:platform/settings {profileUsername, searchQuery, everyMinutes} */
export async function saveSettings(req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const body = await parseBody(req, settingsBody, { maxBytes: 2048 })
  // Awaited apart from must(): inline, must's parameter type would steer .single()'s row type.
  const saved = await ctx.db
    .from('platform_canary_settings')
    .update({
      profile_username: body.profileUsername?.replace(/^@/, '') ?? null,
      search_query: body.searchQuery,
      every_minutes: body.everyMinutes,
      updated_by: ctx.admin.id,
      updated_at: new Date().toISOString(),
    })
    .eq('platform', platform)
    .select('profile_username, search_query, every_minutes, updated_at')
    .single()
  const row = must(saved)
  await writeAuditLog(ctx.db, ctx.admin, `Changed the ${LABELS[platform]} canary settings`, { platform })
  return jsonResponse({
    profileUsername: row.profile_username,
    searchQuery: row.search_query,
    everyMinutes: row.every_minutes,
  } satisfies CanarySettings)
}
