// Every route of the admin function through the gateway with supabase-js's functions.invoke: the
// seeded operator sees the demo data in the product's shapes, a customer gets 403 with the product's
// text, a visitor without a session 401; pausing and resuming a queue writes paused_queues.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db } from '../../stack/gateway/test/helpers.ts'
import { admin, client, customer, signedInAdmin } from './helpers.ts'

type Sb = Awaited<ReturnType<typeof signedInAdmin>>
const MISSING = '00000000-0000-4000-8000-000000000000'

const ROUTES: ['GET' | 'POST' | 'DELETE', string][] = [
  ['GET', 'stats'],
  ['GET', 'recent-activity'],
  ['GET', 'processes'],
  ['GET', 'system-info'],
  ['GET', 'logs?level=&service=&limit=100'],
  ['POST', 'logs/clear'],
  ['GET', 'queues'],
  ['GET', 'queue-stats'],
  ['POST', 'queues/scrape.run/pause'],
  ['POST', 'queues/scrape.run/resume'],
  ['GET', 'retries'],
  ['GET', 'retry-stats'],
  ['POST', `retries/${MISSING}/retry`],
  ['DELETE', `retries/${MISSING}`],
  ['GET', 'users'],
  ['GET', 'campaigns'],
  ['GET', 'social-accounts'],
  ['GET', 'workspaces'],
  ['GET', 'hosts'],
  ['GET', 'queues/scrape.run'],
  ['POST', 'processes/runner-1/restart'],
  ['POST', 'processes/runner-1/kill'],
  ['GET', `users/${MISSING}`],
  ['GET', `campaigns/${MISSING}`],
  ['GET', `social-accounts/${MISSING}`],
  ['GET', `workspaces/${MISSING}`],
  ['POST', `social-accounts/${MISSING}/pause`],
  ['POST', `social-accounts/${MISSING}/resume`],
]

let operator: Sb
beforeAll(async () => {
  operator = await signedInAdmin()
})

describe('who may call the admin function', () => {
  it('a visitor without a session gets 401 on every route', async () => {
    const visitor = client()
    for (const [method, path] of ROUTES) {
      const result = await admin(visitor, path, method)
      expect(result.status, `${method} ${path}`).toBe(401)
      expect(typeof result.body.error).toBe('string')
    }
  })

  it('a customer gets 403 with the product text on every route', async () => {
    const { sb } = await customer('not-an-admin')
    for (const [method, path] of ROUTES) {
      const result = await admin(sb, path, method)
      expect(result, `${method} ${path}`).toEqual({
        status: 403,
        body: { error: 'Access denied - admin privileges required' },
      })
    }
  })
})

describe('the seeded operator', () => {
  it('sees the demo customer, their campaigns and accounts', async () => {
    const users = await admin<Record<string, unknown>[]>(operator, 'users')
    expect(users.status).toBe(200)
    expect(users.body.find((u) => u.email === 'demo@reachflow.test')).toMatchObject({
      subscription_status: 'trialing',
      account_count: 2,
      campaign_count: 4,
    })
    const campaigns = await admin<Record<string, unknown>[]>(operator, 'campaigns')
    expect(campaigns.body.find((c) => c.name === 'SaaS founders outreach')).toMatchObject({
      user_email: 'demo@reachflow.test',
      status: 'running',
      // the people it messages (its 100 seeded leads), not the create call's number
      target_count: 100,
    })
    const accounts = await admin<Record<string, unknown>[]>(operator, 'social-accounts')
    expect(accounts.body.find((a) => a.username === 'demo.studio')).toMatchObject({
      platform_name: 'instagram',
      user_email: 'demo@reachflow.test',
      warmup_phase: 2,
      trust_score: 0.62,
    })
  })

  it("sees the demo customer's workspace with its owner, plan, accounts and members", async () => {
    const workspaces = await admin<Record<string, unknown>[]>(operator, 'workspaces')
    expect(workspaces.status).toBe(200)
    const demo = workspaces.body.find((w) => w.owner_email === 'demo@reachflow.test')
    expect(demo).toMatchObject({
      member_count: 1,
      roles: { owner: 1 },
      subscription_status: 'trialing',
      accounts_used: 2,
    })
    const detail = await admin<Record<string, unknown>>(operator, `workspaces/${demo?.id}`)
    expect(detail.body).toMatchObject({
      personal: true,
      sends: true,
      members: [{ email: 'demo@reachflow.test', role: 'owner' }],
    })
    expect(await admin(operator, `workspaces/${MISSING}`)).toEqual({
      status: 404,
      body: { error: 'Workspace not found' },
    })
  })

  it('reads every GET route of product.md §7 with a 200', async () => {
    for (const [method, path] of ROUTES.filter(([m, p]) => m === 'GET' && !p.includes(MISSING))) {
      const result = await admin(operator, path, method)
      expect(result.status, `${method} ${path}: ${JSON.stringify(result.body)}`).toBe(200)
    }
  })

  it('gets the overview, queue and retry figures in the documented shapes', async () => {
    const stats = await admin<Record<string, Record<string, number>>>(operator, 'stats')
    expect(stats.body.users?.total).toBeGreaterThanOrEqual(2)
    expect(stats.body.campaigns?.paused).toBeGreaterThanOrEqual(1)
    const queueStats = await admin(operator, 'queue-stats')
    expect(Object.keys(queueStats.body).sort()).toEqual([
      'activeJobs',
      'failedJobs',
      'jobsPerHour',
      'totalJobs',
    ])
    const retryStats = await admin(operator, 'retry-stats')
    expect(Object.keys(retryStats.body).sort()).toEqual([
      'failedJobs',
      'maxRetriesJobs',
      'retryingJobs',
      'successRate',
    ])
    const queues = await admin<Record<string, unknown>[]>(operator, 'queues')
    expect(queues.body.map((q) => q.name)).toEqual(
      expect.arrayContaining(['account.test', 'campaign.tick', 'inbox.sync', 'scrape.run', 'warmup.step']),
    )
    for (const queue of queues.body)
      expect(Object.keys(queue).sort()).toEqual([
        'active',
        'completed',
        'failed',
        'name',
        'pending',
        'rate',
        'retrying',
        'status',
      ])
    const info = await admin<{ cpu: { usage: number }; memory: { percentage: number }; loadAvg: number[] }>(
      operator,
      'system-info',
    )
    expect(info.body.loadAvg).toHaveLength(3)
    // A percentage. With no runner reporting, it is 0: as on hosted Supabase, the database's own
    // /proc figures are not readable by the non-superuser postgres (docs/database.md).
    expect(info.body.memory.percentage).toBeGreaterThanOrEqual(0)
    expect(info.body.memory.percentage).toBeLessThanOrEqual(100)
  })

  it('filters logs by level and service', async () => {
    const { rows } = await db().query<{ id: string }>(
      `insert into public.system_logs (level, service, message) values
         ('warn', 'instagram', 'vitest: slow down'), ('info', 'instagram', 'vitest: sent') returning id`,
    )
    try {
      const warnings = await admin<{ level: string; service: string; message: string }[]>(
        operator,
        'logs?level=warn&service=instagram&limit=100',
      )
      expect(warnings.status).toBe(200)
      expect(warnings.body.every((l) => l.level === 'warn' && l.service === 'instagram')).toBe(true)
      expect(warnings.body.map((l) => l.message)).toContain('vitest: slow down')
      expect(warnings.body.map((l) => l.message)).not.toContain('vitest: sent')
    } finally {
      await db().query('delete from public.system_logs where id = any($1::bigint[])', [rows.map((r) => r.id)])
    }
  })

  it('pauses and resumes a queue: paused_queues holds it exactly while paused', async () => {
    const paused = await admin(operator, 'queues/warmup.step/pause', 'POST')
    expect(paused).toMatchObject({ status: 200, body: { name: 'warmup.step', status: 'paused' } })
    const { rows } = await db().query(
      `select p.name, u.email from public.paused_queues p join auth.users u on u.id = p.paused_by where p.name = 'warmup.step'`,
    )
    expect(rows).toEqual([{ name: 'warmup.step', email: 'admin@reachflow.test' }])
    const resumed = await admin(operator, 'queues/warmup.step/resume', 'POST')
    expect(resumed).toMatchObject({ status: 200, body: { name: 'warmup.step', status: 'active' } })
    expect((await db().query(`select 1 from public.paused_queues where name = 'warmup.step'`)).rowCount).toBe(
      0,
    )
  })
})

afterAll(async () => {
  await db().query(`delete from public.paused_queues where name = 'warmup.step'`)
})
