// Platform health in-process against the test stack: a site change as the runner records it shows
// on the alerts and the incident list, its outline is filed in the private bucket and read back
// through the admin API, an operator resumes the paused action by hand; canary accounts are chosen
// among active accounts, settings are validated, Run now queues a run; the badge speaks of finished
// runs only. Customers get 403.
import assert from 'node:assert/strict'
import { newCustomer, serviceDb, sql } from '../_shared/test-stack.ts'
import { OUTLINE_BUCKET } from './incident-outlines.ts'
import { newAccount, newCanaryAccount, removeCanaryState } from './platform-test-helpers.ts'
import { call, handler, newAdmin } from './test-helpers.ts'

Deno.test('customers get 403 on every Platform health route', async () => {
  const handle = handler()
  const customer = await newCustomer('not-an-operator')
  for (const path of [
    '/platform-health',
    '/platform-alerts',
    '/incidents',
    '/platform-packs/twitter',
    '/canary/twitter',
  ]) {
    const answer = await call(handle, path, { token: customer.token })
    assert.deepEqual(
      answer,
      { status: 403, body: { error: 'Access denied - admin privileges required' } },
      path,
    )
  }
})

Deno.test('a site change: alert, incident with its outline from storage, resumed by hand', async () => {
  const handle = handler()
  const admin = await newAdmin()
  await removeCanaryState('twitter')
  try {
    // two customers' accounts met the same page: the evidence that paused it
    const seen = (account: string) =>
      sql<{ id: string }>(
        `select internal.record_site_change('twitter', 'inbox', 'inbox: conversation panel', '/i/chat/123-456',
           '{"lines": ["div[data-testid=xchatEmbedRoute]", "  #shadow-root", "    div[data-testid=dm-inbox-v2]"], "truncated": false}',
           'job', 'x-2026.11.26', $1, null) as id`,
        [account],
      )
    const accounts = [await newAccount('twitter'), await newAccount('twitter')]
    await seen(accounts[0] ?? '')
    const [recorded] = await seen(accounts[1] ?? '')
    const incidentId = recorded?.id ?? ''

    const alerts = await call<{ pauses: Record<string, unknown>[]; incidents: Record<string, unknown>[] }>(
      handle,
      '/platform-alerts',
      { token: admin.token },
    )
    assert.equal(alerts.status, 200)
    assert.deepEqual(
      alerts.body.pauses.map((p) => [p.platform, p.action, p.actionLabel, p.incidentId]),
      [['twitter', 'inbox', 'Reading replies', incidentId]],
    )
    const listed = alerts.body.incidents.find((i) => i.id === incidentId)
    assert.equal(listed?.path, '/i/chat/#-#')
    assert.equal(listed?.hasOutline, true, 'reading incidents filed the outline in storage')
    const evidence = listed?.evidence as {
      reason: string
      sightings: { source: string; accountId: string }[]
    }
    assert.ok(listed?.pausedAt, 'the incident says when the evidence paused it')
    assert.equal(evidence.reason, 'accounts')
    assert.deepEqual(
      evidence.sightings.map((e) => [e.source, e.accountId]),
      accounts.map((id) => ['job', id]),
      'the evidence names both accounts, in the order they met the page',
    )
    assert.deepEqual(
      await sql('select 1 from public.platform_incident_outlines where incident_id = $1', [incidentId]),
      [],
    )
    const { data: object } = await serviceDb()
      .storage.from(OUTLINE_BUCKET)
      .download(`${incidentId}/outline.json`)
    assert.ok(object, 'the outline is an object in the private bucket')
    const customer = await newCustomer('outline-reader')
    const { data: denied } = await customer.db.storage
      .from(OUTLINE_BUCKET)
      .download(`${incidentId}/outline.json`)
    assert.equal(denied, null, 'a customer cannot download it')

    const detail = await call<{
      outline: { lines: string[]; path: string }
      step: string
      sightings: number
    }>(handle, `/incidents/${incidentId}`, { token: admin.token })
    assert.equal(detail.status, 200)
    assert.equal(detail.body.step, 'inbox: conversation panel')
    assert.deepEqual(detail.body.outline.lines, [
      'div[data-testid=xchatEmbedRoute]',
      '  #shadow-root',
      '    div[data-testid=dm-inbox-v2]',
    ])
    const missing = await call(handle, '/incidents/00000000-0000-4000-8000-000000000000', {
      token: admin.token,
    })
    assert.deepEqual(missing, { status: 404, body: { error: 'Incident not found' } })

    const health = await call<{ platforms: { platform: string; status: string; pauses: unknown[] }[] }>(
      handle,
      '/platform-health',
      { token: admin.token },
    )
    assert.equal(health.body.platforms.find((p) => p.platform === 'twitter')?.status, 'paused')

    const badAction = await call(handle, '/platform-health/twitter/resume', {
      token: admin.token,
      body: { action: 'everything' },
    })
    assert.equal(badAction.status, 400)
    assert.equal(badAction.body.error, 'action must be one of: send, inbox, scrape, session')
    const resumed = await call(handle, '/platform-health/twitter/resume', {
      token: admin.token,
      body: { action: 'inbox' },
    })
    assert.deepEqual(resumed, { status: 200, body: { resolved: 1, resumed: ['inbox'] } })
    const again = await call(handle, '/platform-health/twitter/resume', {
      token: admin.token,
      body: { action: 'inbox' },
    })
    assert.deepEqual(again, { status: 409, body: { error: 'Reading replies on X is not paused.' } })
    const [incident] = await sql<{ status: string; resolution: string }>(
      'select status, resolution from public.platform_incidents where id = $1',
      [incidentId],
    )
    assert.deepEqual(incident, { status: 'resolved', resolution: 'operator' })
    assert.ok(
      (
        await sql(`select 1 from public.system_logs where message like $1`, [
          `Resumed reading replies on X by hand (by ${admin.email})`,
        ])
      ).length === 1,
    )
  } finally {
    await removeCanaryState('twitter')
  }
})

Deno.test('canary accounts, settings and Run now', async () => {
  const handle = handler()
  const admin = await newAdmin()
  await removeCanaryState('twitter')
  try {
    const none = await call(handle, '/platform-health/twitter/canary', { token: admin.token, method: 'POST' })
    assert.deepEqual(none, { status: 409, body: { error: 'Choose an active canary account for X first.' } })

    const paused = await newAccount('twitter', 'paused')
    const refused = await call(handle, '/canary/accounts', {
      token: admin.token,
      body: { accountId: paused },
    })
    assert.deepEqual(refused, {
      status: 409,
      body: { error: 'Only an active account can be a canary account' },
    })
    const badThread = await call(handle, '/canary/accounts', {
      token: admin.token,
      body: { accountId: paused, threadId: 'no spaces please' },
    })
    assert.equal(badThread.status, 400)
    assert.equal(badThread.body.error, 'threadId must be a conversation id (letters, digits, _ : -)')

    const active = await newAccount('twitter')
    const chosen = await call(handle, '/canary/accounts', {
      token: admin.token,
      body: { accountId: active, threadId: '111-222' },
    })
    assert.deepEqual(chosen, { status: 200, body: { accountId: active, threadId: '111-222' } })
    const canary = await call<{ accounts: { accountId: string; threadId: string }[] }>(
      handle,
      '/canary/twitter',
      {
        token: admin.token,
      },
    )
    assert.deepEqual(
      canary.body.accounts.map((a) => [a.accountId, a.threadId]),
      [[active, '111-222']],
    )
    const candidates = await call<{ accountId: string; chosen: boolean }[]>(
      handle,
      '/canary/twitter/candidates?limit=100',
      {
        token: admin.token,
      },
    )
    assert.equal(candidates.body.find((c) => c.accountId === active)?.chosen, true)
    assert.equal(
      candidates.body.find((c) => c.accountId === paused),
      undefined,
      'paused accounts are not offered',
    )

    const badSettings = await call(handle, '/canary/twitter/settings', {
      token: admin.token,
      method: 'PUT',
      body: { profileUsername: 'has space', searchQuery: 'saas', everyMinutes: 5 },
    })
    assert.equal(badSettings.status, 400)
    assert.equal(badSettings.body.error, 'profileUsername must be a username (letters, digits, _ and .)')
    const tooOften = await call(handle, '/canary/twitter/settings', {
      token: admin.token,
      method: 'PUT',
      body: { profileUsername: null, searchQuery: 'saas', everyMinutes: 0 },
    })
    assert.equal(tooOften.body.error, 'everyMinutes must be at least 1')
    const saved = await call(handle, '/canary/twitter/settings', {
      token: admin.token,
      method: 'PUT',
      body: { profileUsername: '@XDevelopers', searchQuery: 'saas founders', everyMinutes: 5 },
    })
    assert.deepEqual(saved, {
      status: 200,
      body: { profileUsername: 'XDevelopers', searchQuery: 'saas founders', everyMinutes: 5 },
    })

    const run = await call<{ runId: string }>(handle, '/platform-health/twitter/canary', {
      token: admin.token,
      method: 'POST',
    })
    assert.equal(run.status, 202)
    const [queued] = await sql<{ trigger: string; account_id: string }>(
      'select trigger, account_id from public.platform_canary_runs where id = $1',
      [run.body.runId],
    )
    assert.deepEqual(queued, { trigger: 'manual', account_id: active })
    assert.equal(
      (
        await sql(`select 1 from pgboss.job where name = 'platform.canary' and data ->> 'runId' = $1`, [
          run.body.runId,
        ])
      ).length,
      1,
    )

    const removed = await call(handle, `/canary/accounts/${active}`, { token: admin.token, method: 'DELETE' })
    assert.deepEqual(removed, { status: 200, body: { accountId: active, removed: true } })
    const twice = await call(handle, `/canary/accounts/${active}`, { token: admin.token, method: 'DELETE' })
    assert.deepEqual(twice, { status: 404, body: { error: 'This account is not a canary account' } })
  } finally {
    await sql(`update public.platform_canary_settings set profile_username = null, search_query = 'marketing', every_minutes = 5
                where platform = 'twitter'`)
    await removeCanaryState('twitter')
  }
})

const step = (name: string, status: string) => ({ step: name, label: name, status, ms: 1 })

Deno.test('the badge speaks of finished runs only: queued is not checked yet, a skipped step is no full pass', async () => {
  const handle = handler()
  const admin = await newAdmin()
  await removeCanaryState('twitter')
  try {
    await newCanaryAccount('twitter')
    const twitter = async () => {
      const health = await call<{
        platforms: { platform: string; status: string; lastRun: { id: string } | null }[]
      }>(handle, '/platform-health', { token: admin.token })
      const found = health.body.platforms.find((p) => p.platform === 'twitter')
      assert.ok(found)
      return found
    }
    const runNow = async () =>
      (
        await call<{ runId: string }>(handle, '/platform-health/twitter/canary', {
          token: admin.token,
          method: 'POST',
        })
      ).body.runId
    // each run's time set here: the order of the runs never rests on two inserts' clock readings
    const finish = (id: string, status: string, steps: unknown[], minutesAgo: number) =>
      sql(
        `update public.platform_canary_runs
            set status = $2, steps = $3::jsonb, created_at = now() - make_interval(mins => $4), finished_at = now()
          where id = $1`,
        [id, status, JSON.stringify(steps), minutesAgo],
      )

    const first = await runNow()
    assert.deepEqual(
      { status: (await twitter()).status, lastRun: (await twitter()).lastRun?.id },
      { status: 'unknown', lastRun: first },
      'the first run only queued: not checked yet, never failing',
    )
    await finish(
      first,
      'passed',
      [step('session', 'passed'), step('inbox', 'passed'), step('thread', 'skipped')],
      2,
    )
    assert.equal(
      (await twitter()).status,
      'partial',
      'a pass that skipped a step checked less than everything',
    )

    const second = await runNow()
    await sql(`update public.platform_canary_runs set created_at = now() where id = $1`, [second])
    const waiting = await twitter()
    assert.deepEqual(
      { status: waiting.status, lastRun: waiting.lastRun?.id },
      { status: 'partial', lastRun: second },
    )
    await finish(second, 'failed', [step('session', 'passed'), step('inbox', 'failed')], 1)
    assert.equal((await twitter()).status, 'failing')
    await finish(
      second,
      'passed',
      [step('session', 'passed'), step('inbox', 'passed'), step('thread', 'passed')],
      1,
    )
    assert.equal((await twitter()).status, 'healthy')
  } finally {
    await removeCanaryState('twitter')
  }
})
