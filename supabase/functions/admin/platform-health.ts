// The Platform health tab and the overview's alert: per platform what is paused after a site
// change, the canary's last runs, 30 days of pass/fail and the pack in use; the incidents with
// the evidence that paused them (or that they are only suspected) and their page outlines;
// resuming a paused action by hand; running the canary now.

import { PACK_PLATFORMS, type PackPlatform } from '@reachflow/domain'
import type { Tables } from '../_shared/database.ts'
import { must } from '../_shared/db-errors.ts'
import { conflict, jsonResponse, notFound } from '../_shared/errors.ts'
import { fromJson, nullableText, timestamp } from '../_shared/json.ts'
import { parseBody, parseId, parseQuery, z } from '../_shared/validation.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { fileOutlines, readOutline } from './incident-outlines.ts'
import { LABELS, platformParam } from './platform-packs.ts'

export const HEALTH_MESSAGES = {
  incidentNotFound: 'Incident not found',
  runNotFound: 'Canary run not found',
  notPaused: (what: string) => `${what} is not paused.`,
  noCanaryAccount: (label: string) => `Choose an active canary account for ${label} first.`,
} as const

export const ACTIONS = ['send', 'inbox', 'scrape', 'session'] as const
const ACTION_LABELS: Record<(typeof ACTIONS)[number], string> = {
  send: 'Sending',
  inbox: 'Reading replies',
  scrape: 'Lead scraping',
  session: 'Sign-in (everything)',
}

const RUN_COLUMNS =
  'id, platform, trigger, status, account_username, pack_version, steps, error, created_at, started_at, finished_at, duration_ms'
const INCIDENT_COLUMNS =
  'id, platform, action, step, path, status, sightings, first_seen_at, last_seen_at, source, pack_version, auto_resume, outline_object, resolved_at, resolution, resolved_by, paused_at, evidence'

type RunRow = Pick<
  Tables<'platform_canary_runs'>,
  | 'id'
  | 'platform'
  | 'trigger'
  | 'status'
  | 'account_username'
  | 'pack_version'
  | 'steps'
  | 'error'
  | 'created_at'
  | 'started_at'
  | 'finished_at'
  | 'duration_ms'
>
type IncidentRow = Omit<Tables<'platform_incidents'>, 'outline'>
type PauseRow = Pick<Tables<'platform_action_pauses'>, 'platform' | 'action' | 'incident_id' | 'paused_at'>

/** The label of a platform or action the database names (its checks allow only known ones). */
const platformLabel = (platform: string) => LABELS[platform as PackPlatform] ?? platform
const actionLabel = (action: string) => ACTION_LABELS[action as (typeof ACTIONS)[number]] ?? action

/** A platform's or its incidents' history as admin_canary_history writes it, passed on unchanged. */
const canaryHistory = z.array(z.json())
const effectivePack = z.object({
  effective: z.object({ version: z.string(), source: z.string() }).nullable(),
})
const resumed = z.object({ resolved: z.number(), resumed: z.array(z.string()) }).nullable()
/** What paused an incident, as internal.record_site_change wrote it (null while only suspected). */
const evidence = z
  .object({
    reason: z.enum(['accounts', 'canary', 'single']),
    windowMinutes: z.number().nullable(),
    sightings: z.array(
      z.object({
        source: z.enum(['job', 'canary']),
        accountId: nullableText,
        username: nullableText,
        canaryRunId: nullableText,
        path: z.string(),
        seenAt: timestamp,
      }),
    ),
  })
  .nullable()

const toRun = (r: RunRow) => ({
  id: r.id,
  platform: r.platform,
  trigger: r.trigger,
  status: r.status,
  accountUsername: r.account_username,
  packVersion: r.pack_version,
  steps: r.steps,
  error: r.error,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  durationMs: r.duration_ms,
})

const toIncident = (r: IncidentRow) => ({
  id: r.id,
  platform: r.platform,
  label: platformLabel(r.platform),
  action: r.action,
  step: r.step,
  path: r.path,
  status: r.status,
  sightings: r.sightings,
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
  source: r.source,
  packVersion: r.pack_version,
  autoResume: r.auto_resume,
  hasOutline: r.outline_object !== null,
  resolvedAt: r.resolved_at,
  resolution: r.resolution,
  pausedAt: r.paused_at,
  evidence: fromJson(evidence, r.evidence, 'platform_incidents.evidence'),
})

const toPause = (r: PauseRow) => ({
  platform: r.platform,
  label: platformLabel(r.platform),
  action: r.action,
  actionLabel: actionLabel(r.action),
  incidentId: r.incident_id,
  pausedAt: r.paused_at,
})

async function pauses(ctx: AdminContext): Promise<PauseRow[]> {
  return must(
    await ctx.db
      .from('platform_action_pauses')
      .select('platform, action, incident_id, paused_at')
      .order('paused_at'),
  )
}

async function incidents(ctx: AdminContext, status: 'open' | 'all', limit: number): Promise<IncidentRow[]> {
  let query = ctx.db
    .from('platform_incidents')
    .select(INCIDENT_COLUMNS)
    .order('status', { ascending: true })
    .order('last_seen_at', { ascending: false })
    .limit(limit)
  if (status === 'open') query = query.eq('status', 'open')
  return must(await query)
}

/** GET /platform-alerts: what the overview warns about (paused actions, open incidents). */
export async function getPlatformAlerts(_req: Request, ctx: AdminContext): Promise<Response> {
  await fileOutlines(ctx.db)
  const open = await incidents(ctx, 'open', 50)
  return jsonResponse({ pauses: (await pauses(ctx)).map(toPause), incidents: open.map(toIncident) })
}

/**
 * The badge speaks of finished checks of the platform's own pack only: a run still queued or
 * running says nothing yet, and a pass that skipped a step checked less than everything.
 */
function healthOf(recent: ReturnType<typeof toRun>[]): 'healthy' | 'partial' | 'failing' | 'unknown' {
  const finished = recent.find((r) => r.trigger !== 'try' && r.status !== 'queued' && r.status !== 'running')
  if (!finished) return 'unknown'
  if (finished.status !== 'passed') return 'failing'
  return skippedIn(finished.steps) ? 'partial' : 'healthy'
}

const skippedIn = (steps: unknown) =>
  Array.isArray(steps) && steps.some((s) => (s as { status?: unknown } | null)?.status === 'skipped')

/** GET /platform-health: per platform its pauses, the canary's runs and history, the pack in use. */
export async function getPlatformHealth(_req: Request, ctx: AdminContext): Promise<Response> {
  await fileOutlines(ctx.db)
  const paused = await pauses(ctx)
  const platforms = await Promise.all(
    PACK_PLATFORMS.map(async (platform) => {
      const [runs, history, accounts, pack] = await Promise.all([
        ctx.db
          .from('platform_canary_runs')
          .select(RUN_COLUMNS)
          .eq('platform', platform)
          .order('created_at', { ascending: false })
          .limit(10),
        rpc(ctx.db, 'admin_canary_history', { p_platform: platform, p_days: 30 }),
        rpc(ctx.db, 'admin_canary_accounts', { p_platform: platform }),
        rpc(ctx.db, 'admin_platform_pack', { p_platform: platform }),
      ])
      const recent = must(runs).map(toRun)
      const { effective } = fromJson(effectivePack, pack, 'admin_platform_pack')
      const lastRun = recent.find((r) => r.trigger !== 'try') ?? null
      const mine = paused.filter((p) => p.platform === platform)
      return {
        platform,
        label: LABELS[platform],
        status: mine.length > 0 ? 'paused' : healthOf(recent),
        pauses: mine.map(toPause),
        lastRun,
        recentRuns: recent,
        history: fromJson(canaryHistory, history, 'admin_canary_history'),
        canaryAccounts: accounts.length,
        pack: effective ? { version: effective.version, source: effective.source } : null,
      }
    }),
  )
  const list = await incidents(ctx, 'all', 50)
  return jsonResponse({ platforms, incidents: list.map(toIncident) })
}

const incidentsQuery = z.object({
  status: z.enum(['open', 'all']).default('all'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})

/** GET /incidents?status=open|all&limit= */
export async function listIncidents(_req: Request, ctx: AdminContext): Promise<Response> {
  const { status, limit } = parseQuery(ctx.url, incidentsQuery)
  await fileOutlines(ctx.db)
  return jsonResponse((await incidents(ctx, status, limit)).map(toIncident))
}

/** GET /incidents/:id: the incident with its page outline from storage. */
export async function getIncident(_req: Request, ctx: AdminContext): Promise<Response> {
  const id = parseId(ctx.params.id, HEALTH_MESSAGES.incidentNotFound)
  await fileOutlines(ctx.db)
  const { data, error } = await ctx.db
    .from('platform_incidents')
    .select(INCIDENT_COLUMNS)
    .eq('id', id)
    .maybeSingle()
  if (error) throw new Error(`Reading incident ${id}: ${error.message}`)
  if (!data) throw notFound(HEALTH_MESSAGES.incidentNotFound)
  return jsonResponse({ ...toIncident(data), outline: await readOutline(ctx.db, data.outline_object) })
}

/** GET /canary-runs/:id: one run with its steps (the pack editor follows its try this way). */
export async function getCanaryRun(_req: Request, ctx: AdminContext): Promise<Response> {
  const id = parseId(ctx.params.id, HEALTH_MESSAGES.runNotFound)
  const { data, error } = await ctx.db
    .from('platform_canary_runs')
    .select(RUN_COLUMNS)
    .eq('id', id)
    .maybeSingle()
  if (error) throw new Error(`Reading canary run ${id}: ${error.message}`)
  if (!data) throw notFound(HEALTH_MESSAGES.runNotFound)
  return jsonResponse(toRun(data))
}

const resumeBody = z.strictObject({ action: z.enum(ACTIONS) })

/** POST /platform-health/:platform/resume {action}: an operator resumes a paused action by hand. */
export async function resumeAction(req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const { action } = await parseBody(req, resumeBody, { maxBytes: 1024 })
  const what = `${ACTION_LABELS[action]} on ${LABELS[platform]}`
  const done = fromJson(
    resumed,
    await rpc(ctx.db, 'admin_resume_platform_action', {
      p_platform: platform,
      p_action: action,
      p_by: ctx.admin.id,
    }),
    'admin_resume_platform_action',
  )
  if (!done) throw conflict(HEALTH_MESSAGES.notPaused(what))
  await writeAuditLog(
    ctx.db,
    ctx.admin,
    `Resumed ${ACTION_LABELS[action].toLowerCase()} on ${LABELS[platform]} by hand`,
    {
      platform,
      action,
      ...done,
    },
  )
  return jsonResponse(done)
}

/** POST /platform-health/:platform/canary: run the canary now with the platform's own pack. */
export async function runCanary(_req: Request, ctx: AdminContext): Promise<Response> {
  const platform = platformParam(ctx.params)
  const runId = await rpc(ctx.db, 'admin_run_canary', {
    p_platform: platform,
    p_by: ctx.admin.id,
  })
  if (!runId) throw conflict(HEALTH_MESSAGES.noCanaryAccount(LABELS[platform]))
  await writeAuditLog(ctx.db, ctx.admin, `Ran the ${LABELS[platform]} canary`, { platform, runId })
  return jsonResponse({ runId }, 202)
}
