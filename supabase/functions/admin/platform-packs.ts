// The Platform health tab's pack editor: the pack in effect (or the code default), Validate (the
// draft must have the code default's exact shape; every problem names its path), Try on canary
// (stores the draft and queues a canary run with it), Publish (only a draft whose newest canary
// try passed) and Roll back (to what was in effect before the newest publication). Runners pick a
// publication up within one poll.

import {
  MAX_PACK_BYTES,
  PACK_PLATFORMS,
  type PackIssue,
  type PackPlatform,
  type PackTried,
  type PackValidation,
  packBytes,
  packIssues,
  packVersion,
} from '@reachflow/domain'
import { conflict, type HttpError, jsonResponse, notFound, unprocessable } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseBody, z } from '../_shared/validation.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'

export const PLATFORM_NOT_FOUND = 'Platform not found'

export const PACK_MESSAGES = {
  noDefault: (label: string) =>
    `No runner has registered ${label}'s facts yet: start a runner, then edit the pack.`,
  tooLarge: `The pack is larger than ${MAX_PACK_BYTES / 1024} KB`,
  notFound: 'Pack not found',
  notTried: 'Try this pack on the canary first: publishing needs a passing canary run.',
  trying: 'The canary is still trying this pack: publish it once the run has passed.',
  failed: 'This pack did not pass its canary run: fix it, try it again, then publish.',
  unchecked: (labels: string) =>
    `The canary try did not check ${labels}: publish only by confirming what was not checked.`,
  current: 'This pack is already published.',
  versionTaken: (version: string) =>
    `Version ${version} already names other facts: give this pack a new version.`,
  nothingToRollBack: 'Nothing was published: the code default is in use.',
} as const

export const LABELS: Record<PackPlatform, string> = { twitter: 'X', instagram: 'Instagram' }

export function platformParam(params: Record<string, string>): PackPlatform {
  const platform = params.platform ?? ''
  if (!(PACK_PLATFORMS as readonly string[]).includes(platform)) throw notFound(PLATFORM_NOT_FOUND)
  return platform as PackPlatform
}

const facts = z.record(z.string(), z.json())
/** admin_platform_pack's answer; passed on to the pack editor as written (loose: nothing is dropped). */
const packViewSchema = z.looseObject({
  codeDefault: z.looseObject({ packId: z.string(), version: z.string(), facts }).nullable(),
  effective: z.looseObject({ source: z.enum(['code', 'operator']), version: z.string() }).nullable(),
})

const packView = async (ctx: AdminContext, platform: PackPlatform) =>
  fromJson(
    packViewSchema,
    await rpc(ctx.db, 'admin_platform_pack', { p_platform: platform }),
    'admin_platform_pack',
  )

/** GET /platform-packs/:platform */
export async function getPack(_req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  return jsonResponse({ ...(await packView(ctx, platform)), label: LABELS[platform] })
}

const factsBody = z.strictObject({
  facts: z.record(z.string(), z.json(), { error: 'facts must be a JSON object' }),
})

interface Checked {
  platform: PackPlatform
  facts: z.infer<typeof facts>
  version: string | null
  issues: PackIssue[]
}

/** The draft against the code default a runner registered last. */
async function checkDraft(req: Request, ctx: AdminContext): Promise<Checked> {
  const platform = platformParam(ctx.params)
  const { facts } = await parseBody(req, factsBody, { maxBytes: MAX_PACK_BYTES + 1024 })
  if (packBytes(facts) > MAX_PACK_BYTES) throw unprocessable(PACK_MESSAGES.tooLarge)
  const view = await packView(ctx, platform)
  if (!view.codeDefault) throw conflict(PACK_MESSAGES.noDefault(LABELS[platform]))
  return { platform, facts, version: packVersion(facts), issues: packIssues(facts, view.codeDefault.facts) }
}

function shapeError(label: string, issues: PackIssue[]): HttpError {
  const first = issues[0]?.message ?? 'it does not match'
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''
  return unprocessable(`The pack does not fit ${label}'s facts: ${first}${more}`, { issues })
}

/** POST /platform-packs/:platform/validate {facts}: 200 {valid, version, issues}. */
export async function validatePack(req: Request, ctx: AdminContext): Promise<Response> {
  const { version, issues } = await checkDraft(req, ctx)
  return jsonResponse({ valid: issues.length === 0, version, issues } satisfies PackValidation)
}

/** POST /platform-packs/:platform/try {facts}: the draft stored, a canary run queued with it. */
export async function tryPack(req: Request, ctx: AdminContext): Promise<Response> {
  const { platform, facts, version, issues } = await checkDraft(req, ctx)
  if (issues.length > 0) throw shapeError(LABELS[platform], issues)
  const { data, error } = await ctx.db.rpc('admin_try_pack', {
    p_platform: platform,
    p_facts: facts,
    p_by: ctx.admin.id,
  })
  if (error?.hint === 'no_canary_account') throw unprocessable(error.message)
  if (error) throw new Error(`admin_try_pack: ${error.message}`)
  const tried = fromJson(z.object({ packId: z.string(), runId: z.string() }), data, 'admin_try_pack')
  await writeAuditLog(ctx.db, ctx.admin, `Tried ${LABELS[platform]} pack ${version} on the canary`, {
    platform,
    ...tried,
  })
  return jsonResponse({ ...tried, version } satisfies PackTried, 202)
}

const publishBody = z.strictObject({
  packId: z.uuid(),
  /** The operator's confirmation: the names of the steps the try skipped, publishing without them checked. */
  unchecked: z.array(z.string().max(40)).max(10).optional(),
})

const triedSteps = z.array(z.looseObject({ step: z.string(), label: z.string(), status: z.string() }))

/** The steps the pack's newest try skipped, as the runner labelled them (what the operator confirms). */
async function skippedSteps(ctx: AdminContext, packId: string): Promise<{ step: string; label: string }[]> {
  const { data, error } = await ctx.db
    .from('platform_canary_runs')
    .select('steps')
    .eq('pack_id', packId)
    .eq('trigger', 'try')
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle()
  if (error) throw new Error(`Reading the try of pack ${packId}: ${error.message}`)
  return fromJson(triedSteps, data?.steps ?? [], 'platform_canary_runs.steps')
    .filter((s) => s.status === 'skipped')
    .map(({ step, label }) => ({ step, label }))
}

const listed = (labels: string[]) =>
  labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`

/** POST /platform-packs/:platform/publish {packId} */
export async function publishPack(req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const { packId, unchecked } = await parseBody(req, publishBody, { maxBytes: 1024 })
  const outcome = await rpc(ctx.db, 'admin_publish_pack', {
    p_platform: platform,
    p_pack_id: packId,
    p_by: ctx.admin.id,
    ...(unchecked ? { p_unchecked: unchecked } : {}),
  })
  switch (outcome) {
    case 'not_found':
      throw notFound(PACK_MESSAGES.notFound)
    case 'not_tried':
      throw unprocessable(PACK_MESSAGES.notTried)
    case 'trying':
      throw conflict(PACK_MESSAGES.trying)
    case 'failed':
      throw unprocessable(PACK_MESSAGES.failed)
    case 'unchecked': {
      const skipped = await skippedSteps(ctx, packId)
      throw unprocessable(PACK_MESSAGES.unchecked(listed(skipped.map((s) => `"${s.label}"`))), {
        unchecked: skipped,
      })
    }
    case 'current':
      throw conflict(PACK_MESSAGES.current)
    case 'version_taken':
      throw unprocessable(PACK_MESSAGES.versionTaken(await versionOf(ctx, packId)))
  }
  const view = await packView(ctx, platform)
  // what went out unchecked is named in the log too, beside the publication's own record
  const skipped = unchecked?.length ? await skippedSteps(ctx, packId) : []
  const without = skipped.length
    ? ` without checking ${listed(skipped.map((s) => `"${s.label}"`))} (confirmed)`
    : ''
  await writeAuditLog(
    ctx.db,
    ctx.admin,
    `Published ${LABELS[platform]} pack ${view.effective?.version}${without}`,
    { platform, packId, ...(skipped.length ? { unchecked: skipped.map((s) => s.step) } : {}) },
  )
  return jsonResponse({ ...view, label: LABELS[platform] })
}

async function versionOf(ctx: AdminContext, packId: string): Promise<string> {
  const { data } = await ctx.db.from('platform_packs').select('version').eq('id', packId).maybeSingle()
  return data?.version ?? 'this'
}

/** POST /platform-packs/:platform/rollback: to what was in effect before the newest publication. */
export async function rollbackPack(_req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const target = fromJson(
    z.object({ version: z.string().nullable(), source: z.string() }).nullable(),
    await rpc(ctx.db, 'admin_rollback_pack', { p_platform: platform, p_by: ctx.admin.id }),
    'admin_rollback_pack',
  )
  if (!target) throw conflict(PACK_MESSAGES.nothingToRollBack)
  const view = await packView(ctx, platform)
  await writeAuditLog(
    ctx.db,
    ctx.admin,
    `Rolled ${LABELS[platform]} back to ${target.source === 'code' ? 'the code default' : 'pack'} ${view.effective?.version}`,
    { platform },
  )
  return jsonResponse({ ...view, label: LABELS[platform] })
}
