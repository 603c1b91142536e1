// The Platform health tab and the overview's alert: per platform what is paused after a site
// change, the canary's last runs, 30 days of pass/fail and the pack in use; the incidents with
// the evidence that paused them (or that they are only suspected) and their page outlines;
// resuming a paused action by hand; running the canary now.

import {
  type ActionResumed,
  CANARY_RUN_STATUSES,
  CANARY_TRIGGERS,
  type CanaryQueued,
  type CanaryRun,
  INCIDENT_RESOLUTIONS,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  type Incident,
  type IncidentDetail,
  PACK_PLATFORMS,
  PLATFORM_ACTIONS,
  type PlatformAction,
  type PlatformAlerts,
  type PlatformHealth,
  type PlatformHealthOverview,
  type PlatformPause,
} from '@reachflow/domain'
import type { Tables } from '../_shared/database.ts'
import { must } from '../_shared/db-errors.ts'
import { conflict, jsonResponse, notFound } from '../_shared/errors.ts'
import { fromJson, known, nullableText, timestamp } from '../_shared/json.ts'
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

const ACTION_LABELS: Record<PlatformAction, string> = {
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

/** A platform or action the database names (its checks allow only known ones). */
const platformOf = (value: string, table: string) => known(PACK_PLATFORMS, value, `${table}.platform`)
const actionOf = (value: string, table: string) => known(PLATFORM_ACTIONS, value, `${table}.action`)

/** A platform's canary days as admin_canary_history writes them, passed on whole. */
const canaryHistory = z.array(
  z.looseObject({ day: z.string(), passed: z.number(), failed: z.number(), errors: z.number() }),
)
const effectivePack = z.object({
  effective: z.object({ version: z.string(), source: z.enum(['code', 'operator']) }).nullable(),
})
const resumed = z.object({ resolved: z.number(), resumed: z.array(z.string()) }).nullable()
/** A canary run's steps as the runner wrote them (runner/src/jobs/platform-canary.ts), kept whole. */
const canarySteps = z.array(
  z.looseObject({
    step: z.string(),
    label: z.string(),
    status: z.enum(['passed', 'failed', 'skipped']),
    ms: z.number(),
    detail: z.string().optional(),
    kind: z.enum(['layout_changed', 'stop_signal', 'timeout', 'error']).optional(),
    message: z.string().optional(),
    path: z.string().optional(),
    outlineLines: z.number().optional(),
    incidentId: z.string().optional(),
  }),
)
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

const RUNS = 'platform_canary_runs'
const toRun = (r: RunRow): CanaryRun => ({
  id: r.id,
  platform: platformOf(r.platform, RUNS),
  trigger: known(CANARY_TRIGGERS, r.trigger, `${RUNS}.trigger`),
  status: known(CANARY_RUN_STATUSES, r.status, `${RUNS}.status`),
  accountUsername: r.account_username,
  packVersion: r.pack_version,
  steps: fromJson(canarySteps, r.steps, `${RUNS}.steps`),
  error: r.error,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  durationMs: r.duration_ms,
})

const INCIDENTS = 'platform_incidents'
const toIncident = (r: IncidentRow): Incident => {
  const platform = platformOf(r.platform, INCIDENTS)
  return {
    id: r.id,
    platform,
    label: LABELS[platform],
    action: actionOf(r.action, INCIDENTS),
    step: r.step,
    path: r.path,
    status: known(INCIDENT_STATUSES, r.status, `${INCIDENTS}.status`),
    sightings: r.sightings,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
    source: known(INCIDENT_SOURCES, r.source, `${INCIDENTS}.source`),
    packVersion: r.pack_version,
    autoResume: r.auto_resume,
    hasOutline: r.outline_object !== null,
    resolvedAt: r.resolved_at,
    resolution:
      r.resolution === null ? null : known(INCIDENT_RESOLUTIONS, r.resolution, `${INCIDENTS}.resolution`),
    pausedAt: r.paused_at,
    evidence: fromJson(evidence, r.evidence, `${INCIDENTS}.evidence`),
  }
}

const toPause = (r: PauseRow): PlatformPause => {
  const platform = platformOf(r.platform, 'platform_action_pauses')
  const action = actionOf(r.action, 'platform_action_pauses')
  return {
    platform,
    label: LABELS[platform],
    action,
    actionLabel: ACTION_LABELS[action],
    incidentId: r.incident_id,
    pausedAt: r.paused_at,
  }
}

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
  return jsonResponse({
    pauses: (await pauses(ctx)).map(toPause),
    incidents: open.map(toIncident),
  } satisfies PlatformAlerts)
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
    PACK_PLATFORMS.map(async (platform): Promise<PlatformHealth> => {
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
  return jsonResponse({ platforms, incidents: list.map(toIncident) } satisfies PlatformHealthOverview)
}

const incidentsQuery = z.object({
  status: z.enum(['open', 'all']).default('all'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})

/** GET /incidents?status=open|all&limit= */
export async function listIncidents(_req: Request, ctx: AdminContext): Promise<Response> {
  const { status, limit } = parseQuery(ctx.url, incidentsQuery)
  await fileOutlines(ctx.db)
  return jsonResponse((await incidents(ctx, status, limit)).map(toIncident) satisfies Incident[])
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
  return jsonResponse({
    ...toIncident(data),
    outline: await readOutline(ctx.db, data.outline_object),
  } satisfies IncidentDetail)
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
  return jsonResponse(toRun(data) satisfies CanaryRun)
}

const resumeBody = z.strictObject({ action: z.enum(PLATFORM_ACTIONS) })

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
  return jsonResponse(done satisfies ActionResumed)
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
  return jsonResponse({ runId } satisfies CanaryQueued, 202)
}
