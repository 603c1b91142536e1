// The admin tab's actions in-process against the test stack: pausing and resuming a queue, retrying
// a failed job (and being refused once it had its most attempts), deleting it, Restart and Kill of
// a runner process, pausing an account's sending, filtering and clearing logs. Each leaves an
// audit line in the system log.
import assert from 'node:assert/strict'
import { newCustomer, serviceDb, sql } from '../_shared/test-stack.ts'
import { call, handler, newAdmin } from './test-helpers.ts'

async function failedJob(
  queue: string,
  retryCount: number,
  retryLimit: number,
  message: string,
): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `insert into pgboss.job (name, data, state, retry_count, retry_limit, started_on, completed_on, output)
     values ($1, '{"test": true}', 'failed', $2, $3, now(), now(), jsonb_build_object('message', $4::text))
     returning id::text`,
    [queue, retryCount, retryLimit, message],
  )
  return row?.id ?? ''
}

const auditLines = async (needle: string) =>
  (
    await sql<{ message: string }>(
      `select message from public.system_logs where service = 'api' and message like $1`,
      [`%${needle}%`],
    )
  ).map((r) => r.message)

Deno.test('pause and resume a queue: paused_queues, the queue status, an audit line; unknown queues are 404', async () => {
  const handle = handler()
  const admin = await newAdmin()
  try {
    const paused = await call(handle, '/queues/inbox.sync/pause', { token: admin.token, method: 'POST' })
    assert.equal(paused.status, 200)
    assert.equal(paused.body.status, 'paused')
    assert.equal(paused.body.name, 'inbox.sync')
    const rows = await sql('select paused_by::text from public.paused_queues where name = $1', ['inbox.sync'])
    assert.deepEqual(rows, [{ paused_by: admin.id }])
    const listed = await call<{ name: string; status: string }[]>(handle, '/queues', { token: admin.token })
    assert.equal(listed.body.find((q) => q.name === 'inbox.sync')?.status, 'paused')
    assert.ok((await auditLines(`Queue inbox.sync paused (by ${admin.email})`)).length >= 1)

    const resumed = await call(handle, '/queues/inbox.sync/resume', { token: admin.token, method: 'POST' })
    assert.equal(resumed.status, 200)
    assert.equal(resumed.body.status, 'active')
    assert.deepEqual(await sql('select 1 from public.paused_queues where name = $1', ['inbox.sync']), [])

    const unknown = await call(handle, '/queues/no.such.queue/pause', { token: admin.token, method: 'POST' })
    assert.deepEqual(unknown, { status: 404, body: { error: 'Queue not found' } })
  } finally {
    await sql('delete from public.paused_queues where name = $1', ['inbox.sync'])
  }
})

Deno.test('retry: a failed job goes back to retry; once it had its most attempts it is refused with 422', async () => {
  const handle = handler()
  const admin = await newAdmin()
  // warmup.step allows 2 automatic retries: 3 runs, plus 3 by hand = 6 at most.
  const fresh = await failedJob('warmup.step', 2, 2, 'Warm-up page did not load')
  const spent = await failedJob('warmup.step', 5, 5, 'Account locked (326)')
  try {
    const list = await call<Record<string, unknown>[]>(handle, '/retries', { token: admin.token })
    assert.deepEqual(
      list.body.find((j) => j.id === fresh),
      {
        id: fresh,
        jobType: 'Warm-up step',
        queue: 'warmup.step',
        failedAt: list.body.find((j) => j.id === fresh)?.failedAt,
        attempts: 3,
        maxAttempts: 6,
        error: 'Warm-up page did not load',
      },
    )
    const stats = await call<Record<string, number>>(handle, '/retry-stats', { token: admin.token })
    assert.deepEqual(Object.keys(stats.body).sort(), [
      'failedJobs',
      'maxRetriesJobs',
      'retryingJobs',
      'successRate',
    ])
    assert.ok((stats.body.failedJobs ?? 0) >= 2 && (stats.body.maxRetriesJobs ?? 0) >= 1)

    const retried = await call(handle, `/retries/${fresh}/retry`, { token: admin.token, method: 'POST' })
    assert.deepEqual(retried, { status: 200, body: { id: fresh, queue: 'warmup.step', state: 'retry' } })
    assert.deepEqual(await sql('select state::text, retry_limit from pgboss.job where id = $1', [fresh]), [
      { state: 'retry', retry_limit: 3 },
    ])
    const again = await call(handle, `/retries/${fresh}/retry`, { token: admin.token, method: 'POST' })
    assert.deepEqual(again, { status: 409, body: { error: 'Only failed jobs can be retried' } })

    const refused = await call(handle, `/retries/${spent}/retry`, { token: admin.token, method: 'POST' })
    assert.equal(refused.status, 422)
    assert.deepEqual(refused.body, {
      error: 'This job has had 6 of 6 attempts and cannot be retried again. Fix the cause, then delete it.',
      attempts: 6,
      maxAttempts: 6,
    })
    assert.deepEqual(await sql('select state::text from pgboss.job where id = $1', [spent]), [
      { state: 'failed' },
    ])

    const missing = await call(handle, '/retries/00000000-0000-4000-8000-000000000000/retry', {
      token: admin.token,
      method: 'POST',
    })
    assert.deepEqual(missing, { status: 404, body: { error: 'Job not found' } })
  } finally {
    await sql('delete from pgboss.job where id = any($1::uuid[])', [[fresh, spent]])
  }
})

Deno.test('delete: a failed job is removed; a job that is not failed is not', async () => {
  const handle = handler()
  const admin = await newAdmin()
  const failed = await failedJob('account.test', 1, 1, 'Could not sign in')
  const [waiting] = await sql<{ id: string }>(
    `insert into pgboss.job (name, data) values ('account.test', '{"test": true}') returning id::text`,
  )
  try {
    const removed = await call(handle, `/retries/${failed}`, { token: admin.token, method: 'DELETE' })
    assert.deepEqual(removed, { status: 200, body: { id: failed, deleted: true } })
    assert.deepEqual(await sql('select 1 from pgboss.job where id = $1', [failed]), [])
    const kept = await call(handle, `/retries/${waiting?.id}`, { token: admin.token, method: 'DELETE' })
    assert.deepEqual(kept, { status: 409, body: { error: 'Only failed jobs can be deleted here' } })
    const gone = await call(handle, `/retries/${failed}`, { token: admin.token, method: 'DELETE' })
    assert.equal(gone.status, 404)
  } finally {
    await sql('delete from pgboss.job where id = any($1::uuid[])', [[failed, waiting?.id]])
  }
})

Deno.test('processes: heartbeats as processes; Restart and Kill become runner commands', async () => {
  const handle = handler()
  const admin = await newAdmin()
  const runner = `deno-test-${crypto.randomUUID().slice(0, 8)}`
  await sql(
    `insert into public.runner_heartbeats (runner_id, host, pid, cpu_percent, memory_mb, memory_percent, load_average, uptime_seconds)
     values ($1, 'deno-test-host', 5150, 7.25, 210.5, 33.3, '{0.5,0.25,0.1}', 90)`,
    [runner],
  )
  try {
    const processes = await call<Record<string, unknown>[]>(handle, '/processes', { token: admin.token })
    assert.deepEqual(
      processes.body.find((p) => p.name === runner),
      { name: runner, pid: 5150, status: 'running', cpu: 7.3, memory: 210.5, uptime: 90 },
    )
    const hosts = await call<Record<string, unknown>[]>(handle, '/hosts', { token: admin.token })
    assert.deepEqual(
      hosts.body.find((h) => h.host === 'deno-test-host'),
      {
        host: 'deno-test-host',
        role: 'runner',
        cpu: 7.25,
        memoryPercentage: 33.3,
        loadAvg: [0.5, 0.25, 0.1],
        processes: 1,
      },
    )
    const info = await call<{ cpu: { usage: number }; memory: { percentage: number }; loadAvg: number[] }>(
      handle,
      '/system-info',
      { token: admin.token },
    )
    assert.deepEqual(Object.keys(info.body).sort(), ['cpu', 'loadAvg', 'memory'])
    assert.ok(info.body.memory.percentage >= 33.3, 'the busiest host counts')
    assert.equal(info.body.loadAvg.length, 3)

    const restart = await call(handle, `/processes/${runner}/restart`, { token: admin.token, method: 'POST' })
    assert.equal(restart.status, 202)
    assert.equal(restart.body.command, 'restart')
    const kill = await call(handle, `/processes/${encodeURIComponent(runner)}/kill`, {
      token: admin.token,
      method: 'POST',
    })
    assert.equal(kill.status, 202)
    assert.equal(kill.body.command, 'stop')
    const commands = await sql(
      'select command, status, requested_by::text from public.runner_commands where runner_id = $1 order by created_at',
      [runner],
    )
    assert.deepEqual(commands, [
      { command: 'restart', status: 'pending', requested_by: admin.id },
      { command: 'stop', status: 'pending', requested_by: admin.id },
    ])
    assert.ok((await auditLines(`Restart requested for runner ${runner}`)).length === 1)
    const unknown = await call(handle, '/processes/no-such-runner/restart', {
      token: admin.token,
      method: 'POST',
    })
    assert.deepEqual(unknown, { status: 404, body: { error: 'Process not found' } })
  } finally {
    await sql('delete from public.runner_commands where runner_id = $1', [runner])
    await sql('delete from public.runner_heartbeats where runner_id = $1', [runner])
  }
})

Deno.test('accounts: Manage pauses sending (for a while or until resumed) and resumes it', async () => {
  const handle = handler()
  const admin = await newAdmin()
  const owner = await newCustomer('account-owner')
  const { data: platform, error: missing } = await serviceDb()
    .from('platforms')
    .select('id')
    .eq('name', 'twitter')
    .single()
  if (!platform) throw missing
  const { data: account, error } = await serviceDb()
    .from('social_accounts')
    .insert({
      user_id: owner.id,
      platform_id: platform.id,
      username: 'managed_x',
      status: 'active',
      warmup_phase: 3,
    })
    .select('id')
    .single()
  assert.equal(error, null)
  const id = account?.id as string

  const detail = await call(handle, `/social-accounts/${id}`, { token: admin.token })
  assert.equal(detail.body.userEmail, owner.email)
  assert.equal(detail.body.warmupPhase, 3)

  const timed = await call(handle, `/social-accounts/${id}/pause`, {
    token: admin.token,
    method: 'POST',
    body: { minutes: 90 },
  })
  assert.equal(timed.status, 200)
  assert.equal(timed.body.status, 'paused')
  const until = Date.parse(String(timed.body.pausedUntil))
  assert.ok(Math.abs(until - (Date.now() + 90 * 60_000)) < 60_000, 'paused for 90 minutes')

  const resumed = await call(handle, `/social-accounts/${id}/resume`, { token: admin.token, method: 'POST' })
  assert.equal(resumed.body.status, 'active')
  assert.equal(resumed.body.pausedUntil, null)
  const twice = await call(handle, `/social-accounts/${id}/resume`, { token: admin.token, method: 'POST' })
  assert.deepEqual(twice, { status: 409, body: { error: 'Only a paused or flagged account can be resumed' } })

  const open = await call(handle, `/social-accounts/${id}/pause`, { token: admin.token, method: 'POST' })
  assert.equal(open.body.status, 'paused')
  assert.equal(open.body.pausedUntil, null)

  const bad = await call(handle, `/social-accounts/${id}/pause`, {
    token: admin.token,
    method: 'POST',
    body: { minutes: 0 },
  })
  assert.deepEqual(bad.status, 400)
  assert.equal(bad.body.error, 'minutes must be at least 1')
  assert.ok((await auditLines('Resumed sending for @managed_x')).length >= 1)
})

Deno.test('logs: level and service filters, limit, newest first; Clear Logs leaves only its own audit line', async () => {
  const handle = handler()
  const admin = await newAdmin()
  await sql(
    `insert into public.system_logs (level, service, message, metadata, created_at) values
       ('error', 'twitter', 'deno-test: send failed', '{"code": 226}', now() - interval '1 second'),
       ('info', 'twitter', 'deno-test: sent', null, now() - interval '2 seconds'),
       ('error', 'instagram', 'deno-test: challenge', null, now() - interval '3 seconds')`,
  )
  const errors = await call<Record<string, unknown>[]>(
    handle,
    '/logs?level=error&service=twitter&limit=100',
    {
      token: admin.token,
    },
  )
  assert.equal(errors.status, 200)
  const mine = errors.body.filter((l) => String(l.message).startsWith('deno-test'))
  assert.deepEqual(
    mine.map((l) => [l.level, l.service, l.message, l.metadata]),
    [['error', 'twitter', 'deno-test: send failed', { code: 226 }]],
  )
  assert.deepEqual(Object.keys(errors.body[0] ?? {}).sort(), [
    'level',
    'message',
    'metadata',
    'service',
    'timestamp',
  ])
  const all = await call<unknown[]>(handle, '/logs?level=all&service=all&limit=2', { token: admin.token })
  assert.equal(all.body.length, 2)
  const badLevel = await call(handle, '/logs?level=fatal', { token: admin.token })
  assert.equal(badLevel.status, 400)
  assert.equal(badLevel.body.error, 'level must be one of: all, error, warn, info, debug')

  const cleared = await call<{ cleared: number }>(handle, '/logs/clear', {
    token: admin.token,
    method: 'POST',
  })
  assert.equal(cleared.status, 200)
  assert.ok(cleared.body.cleared >= 3)
  const after = await call<{ message: string }[]>(handle, '/logs', { token: admin.token })
  assert.ok(
    after.body.every((l) => !l.message.startsWith('deno-test')),
    'the old lines are gone',
  )
  assert.ok(
    after.body.some((l) => l.message.startsWith('Cleared ') && l.message.endsWith(`(by ${admin.email})`)),
  )
})
