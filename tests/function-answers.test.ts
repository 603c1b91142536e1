// The admin function's answers, called as the seeded operator through the gateway, against the
// answer type @reachflow/domain's AdminEndpoints names for each route (the type web reads them as).
// Each schema here is typed as that answer, so a schema that drifts from the type fails tsc; an
// answer that leaves a key out or types it otherwise fails the parse; an answer with a key the type
// does not know fails the comparison with what was parsed (z.object drops unknown keys), as in
// rpc-json-shapes.test.ts for the RPCs.
import {
  type AdminAnswer,
  type AdminEndpoints,
  type AdminRoute,
  type CallArgs,
  type JsonValue,
  LOG_LEVELS,
  PACK_PLATFORMS,
  PLATFORM_ACTIONS,
  requestLine,
} from '@reachflow/domain'
import type { SupabaseClient } from '@supabase/supabase-js'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { invoke, signedInAdmin } from './admin/helpers.ts'

type Schema<K extends AdminRoute> = z.ZodType<AdminAnswer<K>>

const text = z.string()
const maybeText = z.string().nullable()
const json: z.ZodType<JsonValue> = z.json()
const platform = z.enum(PACK_PLATFORMS)
const workspaceRole = z.enum(['owner', 'admin', 'editor', 'agent', 'viewer'])

const queue = z.object({
  name: text,
  status: z.enum(['active', 'paused']),
  pending: z.number(),
  active: z.number(),
  completed: z.number(),
  failed: z.number(),
  retrying: z.number(),
  rate: z.number(),
})
const adminAccount = z.object({
  id: text,
  username: text,
  platform_name: text,
  user_email: text,
  status: text,
  warmup_phase: z.number(),
  trust_score: z.number(),
  last_login: maybeText,
})
const adminCampaign = z.object({
  id: text,
  name: text,
  user_email: text,
  status: text,
  messages_sent: z.number(),
  contacted: z.number(),
  target_count: z.number(),
  response_count: z.number(),
  started_at: maybeText,
})
const messageLog = z.object({
  id: text,
  status: text,
  target_username: text,
  message_sent: maybeText.optional(),
  message_type: text.optional(),
  step: z.number().optional(),
  error: maybeText,
  sent_at: text,
})
const canaryRun = z.object({
  id: text,
  platform,
  trigger: z.enum(['schedule', 'try', 'publish', 'manual', 'confirm']),
  status: z.enum(['queued', 'running', 'passed', 'failed', 'error']),
  accountUsername: maybeText,
  packVersion: maybeText,
  steps: z.array(
    z.object({
      step: text,
      label: text,
      status: z.enum(['passed', 'failed', 'skipped']),
      ms: z.number(),
      detail: text.optional(),
      kind: z.enum(['layout_changed', 'stop_signal', 'timeout', 'error']).optional(),
      message: text.optional(),
      path: text.optional(),
      outlineLines: z.number().optional(),
      incidentId: text.optional(),
    }),
  ),
  error: maybeText,
  createdAt: text,
  startedAt: maybeText,
  finishedAt: maybeText,
  durationMs: z.number().nullable(),
})
const pause = z.object({
  platform,
  label: text,
  action: z.enum(PLATFORM_ACTIONS),
  actionLabel: text,
  incidentId: maybeText,
  pausedAt: text,
})
const incident = z.object({
  id: text,
  platform,
  label: text,
  action: z.enum(PLATFORM_ACTIONS),
  step: text,
  path: text,
  status: z.enum(['open', 'resolved']),
  sightings: z.number(),
  firstSeenAt: text,
  lastSeenAt: text,
  source: z.enum(['job', 'canary']),
  packVersion: maybeText,
  autoResume: z.boolean(),
  hasOutline: z.boolean(),
  resolvedAt: maybeText,
  resolution: z.enum(['canary', 'operator']).nullable(),
  pausedAt: maybeText,
  evidence: z
    .object({
      reason: z.enum(['accounts', 'canary', 'single']),
      windowMinutes: z.number().nullable(),
      sightings: z.array(
        z.object({
          source: z.enum(['job', 'canary']),
          accountId: maybeText,
          username: maybeText,
          canaryRunId: maybeText,
          path: text,
          seenAt: text,
        }),
      ),
    })
    .nullable(),
})
const facts = z.record(z.string(), json)
const packSource = z.enum(['code', 'operator'])

/** The GET routes read here, each with the schema of its answer; details take an id from a list. */
const READS: { [K in ReadRoute]?: Schema<K> } = {
  'GET /stats': z.object({
    users: z.object({ total: z.number(), active: z.number(), trial: z.number(), paid: z.number() }),
    campaigns: z.object({ total: z.number(), active: z.number(), paused: z.number(), completed: z.number() }),
    accounts: z.object({ total: z.number(), verified: z.number(), warming: z.number(), flagged: z.number() }),
    system: z.object({ uptime: z.number(), activeWorkers: z.number(), errorRate: z.number() }),
  }),
  'GET /recent-activity': z.array(
    z.object({ id: text, description: text, timestamp: text, type: text, status: text }),
  ),
  'GET /processes': z.array(
    z.object({
      name: text,
      pid: z.number(),
      status: text,
      cpu: z.number(),
      memory: z.number(),
      uptime: z.number(),
    }),
  ),
  'GET /system-info': z.object({
    cpu: z.object({ usage: z.number() }),
    memory: z.object({ percentage: z.number() }),
    loadAvg: z.array(z.number()),
  }),
  'GET /logs': z.array(
    z.object({ timestamp: text, level: z.enum(LOG_LEVELS), service: text, message: text, metadata: json }),
  ),
  'GET /queues': z.array(queue),
  'GET /queue-stats': z.object({
    totalJobs: z.number(),
    activeJobs: z.number(),
    failedJobs: z.number(),
    jobsPerHour: z.number(),
  }),
  'GET /retries': z.array(
    z.object({
      id: text,
      jobType: text,
      queue: text,
      failedAt: maybeText,
      attempts: z.number(),
      maxAttempts: z.number(),
      error: text,
    }),
  ),
  'GET /retry-stats': z.object({
    failedJobs: z.number(),
    retryingJobs: z.number(),
    maxRetriesJobs: z.number(),
    successRate: z.number(),
  }),
  'GET /users': z.array(
    z.object({
      id: text,
      email: text,
      subscription_status: text,
      account_count: z.number(),
      campaign_count: z.number(),
      status: text,
    }),
  ),
  'GET /campaigns': z.array(adminCampaign),
  'GET /social-accounts': z.array(adminAccount),
  'GET /workspaces': z.array(
    z.object({
      id: text,
      name: text,
      owner_email: maybeText,
      member_count: z.number(),
      roles: z.partialRecord(workspaceRole, z.number()),
      plan_type: text,
      subscription_status: text,
      accounts_used: z.number(),
      account_limit: z.number(),
      created_at: text,
    }),
  ),
  'GET /workspaces/:id': z.object({
    id: text,
    name: text,
    personal: z.boolean(),
    planType: text,
    subscriptionStatus: text,
    sends: z.boolean(),
    stripeCustomerId: maybeText,
    accountsUsed: z.number(),
    accountLimit: z.number(),
    createdAt: text,
    members: z.array(
      z.object({ userId: text, email: text, fullName: maybeText, role: workspaceRole, joinedAt: text }),
    ),
  }),
  'GET /hosts': z.array(
    z.object({
      host: text,
      role: z.enum(['runner', 'database']),
      cpu: z.number(),
      memoryPercentage: z.number().nullable(),
      loadAvg: z.array(z.number()),
      processes: z.number(),
    }),
  ),
  'GET /ai-usage': z.object({
    day: text,
    requestLimit: z.number(),
    tokenLimit: z.number(),
    workspaces: z.array(
      z.object({
        workspaceId: text,
        name: text,
        ownerEmail: text.nullable(),
        requests: z.number(),
        tokens: z.number(),
        denied: z.number(),
        failures: z.number(),
        exhausted: z.boolean(),
      }),
    ),
  }),
  'GET /platform-alerts': z.object({ pauses: z.array(pause), incidents: z.array(incident) }),
  'GET /platform-health': z.object({
    platforms: z.array(
      z.object({
        platform,
        label: text,
        status: z.enum(['healthy', 'partial', 'paused', 'failing', 'unknown']),
        pauses: z.array(pause),
        lastRun: canaryRun.nullable(),
        recentRuns: z.array(canaryRun),
        history: z.array(z.object({ day: text, passed: z.number(), failed: z.number(), errors: z.number() })),
        canaryAccounts: z.number(),
        pack: z.object({ version: text, source: packSource }).nullable(),
      }),
    ),
    incidents: z.array(incident),
  }),
  'GET /incidents': z.array(incident),
  'GET /canary/:platform': z.object({
    platform,
    label: text,
    accounts: z.array(
      z.object({
        accountId: text,
        username: text,
        status: text,
        userEmail: text,
        operator: z.boolean(),
        threadId: maybeText,
        addedAt: text,
        lastRunAt: maybeText,
      }),
    ),
    settings: z.object({ profileUsername: maybeText, searchQuery: text, everyMinutes: z.number() }),
  }),
  'GET /canary/:platform/candidates': z.array(
    z.object({
      accountId: text,
      username: text,
      status: text,
      userEmail: text,
      operator: z.boolean(),
      chosen: z.boolean(),
    }),
  ),
  'GET /platform-packs/:platform': z.object({
    platform,
    label: text,
    codeDefault: z.object({ packId: text, version: text, facts, registeredAt: text }).nullable(),
    effective: z
      .object({
        source: packSource,
        packId: text,
        version: text,
        facts,
        publishedAt: maybeText,
        publishedBy: maybeText,
        kind: z.enum(['publish', 'rollback']).nullable(),
      })
      .nullable(),
    rollbackTo: z.object({ packId: maybeText, source: packSource, version: maybeText }).nullable(),
    history: z.array(
      z.object({
        id: z.number(),
        kind: text,
        version: text,
        unchecked: z.array(text),
        publishedAt: text,
        publishedBy: maybeText,
      }),
    ),
  }),
  'GET /queues/:name': z.object({
    name: text,
    policy: maybeText,
    retryLimit: z.number(),
    retryDelaySeconds: z.number(),
    retryBackoff: z.boolean(),
    expireSeconds: z.number().nullable(),
    paused: z.boolean(),
    pausedAt: maybeText,
    pausedBy: maybeText,
    recentJobs: z.array(
      z.object({
        id: text,
        state: text,
        created_on: text,
        started_on: maybeText,
        completed_on: maybeText,
        start_after: text,
        retry_count: z.number(),
        retry_limit: z.number(),
        singleton_key: maybeText,
        data: z.record(z.string(), z.unknown()).nullable(),
        error: maybeText,
      }),
    ),
    counts: queue.optional(),
  }),
  'GET /users/:id': z.object({
    id: text,
    email: text,
    fullName: maybeText,
    businessName: maybeText,
    isAdmin: z.boolean(),
    status: text,
    subscriptionStatus: text,
    subscriptionPlan: text,
    onboardingCompleted: z.boolean(),
    createdAt: text,
    lastSignInAt: maybeText,
    subscriptions: z.array(
      z.object({
        id: text,
        status: text,
        planType: text,
        billingPeriod: text,
        accountsPurchased: z.number(),
        currentPeriodStart: maybeText,
        currentPeriodEnd: maybeText,
        cancelAtPeriodEnd: z.boolean(),
        trialEnd: maybeText,
        createdAt: text,
      }),
    ),
    accounts: z.array(adminAccount.omit({ user_email: true })),
    campaigns: z.array(adminCampaign.omit({ user_email: true, contacted: true })),
    payments: z.array(
      z.object({
        id: text,
        amount: z.number(),
        currency: text,
        status: text,
        description: maybeText,
        created_at: text,
      }),
    ),
  }),
  'GET /campaigns/:id': z.object({
    id: text,
    name: text,
    status: text,
    userEmail: text,
    accountUsername: maybeText,
    platformName: text,
    targetCount: z.number(),
    dailyMessageLimit: z.number(),
    messagesSent: z.number(),
    messagesFailed: z.number(),
    totalAttempts: z.number(),
    responseCount: z.number(),
    messagesSentToday: z.number(),
    errorMessage: maybeText,
    schedule: z.object({
      timezone: text.optional(),
      timeFrom: text.optional(),
      timeTo: text.optional(),
      activeDays: z.array(text).optional(),
      randomDaysOff: z.boolean().optional(),
    }),
    createdAt: text,
    startedAt: maybeText,
    pausedAt: maybeText,
    completedAt: maybeText,
    updatedAt: text,
    nextActionAt: maybeText,
    leads: z.object({
      total: z.number(),
      pending: z.number(),
      inFlight: z.number(),
      contacted: z.number(),
      replied: z.number(),
      failed: z.number(),
      skipped: z.number(),
    }),
    recentMessages: z.array(messageLog),
  }),
  'GET /social-accounts/:id': z.object({
    id: text,
    username: text,
    platform_name: text,
    platformDisplayName: text,
    userEmail: text,
    status: text,
    flagReason: maybeText,
    pausedUntil: maybeText,
    warmupPhase: z.number(),
    warmupStartedAt: text,
    trustScore: z.number(),
    dailyMessageLimit: z.number(),
    allowedToday: z.number(),
    messagesSentToday: z.number(),
    requestsPending: z.number(),
    lastLogin: maybeText,
    lastSyncedAt: maybeText,
    lastTestedAt: maybeText,
    createdAt: text,
    campaigns: z.array(z.object({ id: text, name: text, status: text, messages_sent: z.number() })),
    recentMessages: z.array(messageLog),
  }),
}

let operator: SupabaseClient
beforeAll(async () => {
  operator = await signedInAdmin()
})

type ReadRoute = Extract<AdminRoute, `GET ${string}`>

/** Reads a route as the operator, with the request line web's adminRequest builds. */
async function call<K extends ReadRoute>(route: K, ...[options]: CallArgs<AdminEndpoints, K>) {
  const { path } = requestLine(route, options?.params)
  const query = new URLSearchParams(
    Object.entries(options?.query ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString()
  const result = await invoke<unknown>(operator, `admin/${path}${query ? `?${query}` : ''}`, 'GET')
  expect(result.status, `${route}: ${JSON.stringify(result.body)}`).toBe(200)
  return result.body
}

/** The answer against its schema: nothing missing or mistyped, nothing the type does not know. */
function expectShape(route: ReadRoute, answer: unknown) {
  const schema = READS[route]
  if (!schema) throw new Error(`${route} has no schema here`)
  const parsed = schema.safeParse(answer)
  expect(parsed.error?.issues ?? [], `${route}: keys the function leaves out or types otherwise`).toEqual([])
  expect(parsed.data, `${route}: keys the function answers that AdminAnswer does not know`).toEqual(answer)
}

/** The id of the first element of a list answer; the seed has one of each. */
const firstOf = (answer: unknown, key: string): string => {
  const first: unknown = Array.isArray(answer) ? answer[0] : undefined
  const value =
    first && typeof first === 'object' ? Object.entries(first).find(([k]) => k === key)?.[1] : null
  if (typeof value !== 'string') throw new Error(`the seed has no element with a ${key} here`)
  return value
}

describe('admin function answers, as the operator reads them', () => {
  it.each([
    'GET /stats',
    'GET /recent-activity',
    'GET /processes',
    'GET /system-info',
    'GET /queues',
    'GET /queue-stats',
    'GET /retries',
    'GET /retry-stats',
    'GET /hosts',
    'GET /ai-usage',
    'GET /platform-alerts',
    'GET /platform-health',
    'GET /incidents',
  ] as const)('%s answers its AdminAnswer type', async (route) => {
    expectShape(route, await call(route))
  })

  it('GET /logs answers AdminLog[] at every level filter', async () => {
    for (const level of ['', ...LOG_LEVELS]) {
      expectShape('GET /logs', await call('GET /logs', { query: { level, service: '', limit: 100 } }))
    }
  })

  it('the lists and each one’s detail answer their types', async () => {
    const users = await call('GET /users')
    expectShape('GET /users', users)
    expectShape('GET /users/:id', await call('GET /users/:id', { params: { id: firstOf(users, 'id') } }))
    const campaigns = await call('GET /campaigns')
    expectShape('GET /campaigns', campaigns)
    const campaign = { params: { id: firstOf(campaigns, 'id') } }
    expectShape('GET /campaigns/:id', await call('GET /campaigns/:id', campaign))
    const accounts = await call('GET /social-accounts')
    expectShape('GET /social-accounts', accounts)
    const account = { params: { id: firstOf(accounts, 'id') } }
    expectShape('GET /social-accounts/:id', await call('GET /social-accounts/:id', account))
    const workspaces = await call('GET /workspaces')
    expectShape('GET /workspaces', workspaces)
    const workspace = { params: { id: firstOf(workspaces, 'id') } }
    expectShape('GET /workspaces/:id', await call('GET /workspaces/:id', workspace))
    const queues = await call('GET /queues')
    const name = { params: { name: firstOf(queues, 'name') } }
    expectShape('GET /queues/:name', await call('GET /queues/:name', name))
  })

  it.each(PACK_PLATFORMS)('the %s canary and platform pack answer their types', async (name) => {
    const params = { platform: name }
    expectShape('GET /canary/:platform', await call('GET /canary/:platform', { params }))
    expectShape(
      'GET /canary/:platform/candidates',
      await call('GET /canary/:platform/candidates', { params, query: { q: '' } }),
    )
    expectShape('GET /platform-packs/:platform', await call('GET /platform-packs/:platform', { params }))
  })
})
