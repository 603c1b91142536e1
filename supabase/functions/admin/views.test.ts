// The product.md §3 admin shapes, key for key, from the rows the RPCs return.
import assert from 'node:assert/strict'
import { jobType, num, systemInfo, toFailedJob, toLog, toProcess, toQueue } from './views.ts'

Deno.test('a figure that arrives as a numeric string reads as its number; anything else as the fallback', () => {
  assert.equal(num('12.5'), 12.5)
  assert.equal(num(3), 3)
  assert.equal(num(null), 0)
  assert.equal(num('n/a', -1), -1)
})

Deno.test('a process has exactly name, pid, status, cpu, memory and uptime, as numbers', () => {
  const process = toProcess({
    name: 'runner-1',
    pid: 41,
    status: 'running',
    cpu: 12.345,
    memory: 180.25,
    uptime: 3600.4,
  })
  assert.deepEqual(process, {
    name: 'runner-1',
    pid: 41,
    status: 'running',
    cpu: 12.3,
    memory: 180.3,
    uptime: 3600,
  })
})

Deno.test('system info is the busiest host: highest CPU and memory, the load of the most loaded host', () => {
  const info = systemInfo([
    {
      host: 'a',
      role: 'runner',
      cpu_percent: 20,
      memory_percent: 81.25,
      load_average: [0.5, 0.4, 0.3],
      runners: 1,
    },
    {
      host: 'db',
      role: 'database',
      cpu_percent: 55,
      memory_percent: 30,
      load_average: [2.25, 1.5, 1],
      runners: 0,
    },
  ])
  assert.deepEqual(info, { cpu: { usage: 55 }, memory: { percentage: 81.3 }, loadAvg: [2.3, 1.5, 1] })
})

Deno.test('system info without any host reports zeros, not NaN', () => {
  assert.deepEqual(systemInfo([]), { cpu: { usage: 0 }, memory: { percentage: 0 }, loadAvg: [0, 0, 0] })
})

Deno.test('a queue is active or paused, with its counts and completions per minute', () => {
  const queue = toQueue({
    name: 'scrape.run',
    paused: true,
    pending: 4,
    active: 1,
    completed: 10,
    failed: 2,
    retrying: 0,
    rate_per_minute: 0.17,
  })
  assert.deepEqual(queue, {
    name: 'scrape.run',
    status: 'paused',
    pending: 4,
    active: 1,
    completed: 10,
    failed: 2,
    retrying: 0,
    rate: 0.17,
  })
})

Deno.test('a failed job names its kind of work, its attempts against the most, and its error', () => {
  const row = {
    id: 'f0a3c5d2-0000-4000-8000-00000000abcd',
    queue: 'campaign.tick',
    failed_at: '2026-01-01T00:00:00Z',
    attempts: 1,
    max_attempts: 4,
    error: ' Account locked (326) ',
    data: {},
  }
  const job = toFailedJob(row)
  assert.deepEqual(job, {
    id: 'f0a3c5d2-0000-4000-8000-00000000abcd',
    jobType: 'Send DM',
    queue: 'campaign.tick',
    failedAt: '2026-01-01T00:00:00Z',
    attempts: 1,
    maxAttempts: 4,
    error: 'Account locked (326)',
  })
  assert.equal(
    toFailedJob({ ...row, queue: 'x', failed_at: null, max_attempts: 1, error: null }).error,
    'No error message was recorded',
  )
  assert.equal(jobType('some.other.queue'), 'some.other.queue')
})

Deno.test('a log line has timestamp, level, service, message and metadata (null when absent)', () => {
  assert.deepEqual(
    toLog({ created_at: 't', level: 'warn', service: 'twitter', message: 'm', metadata: null }),
    {
      timestamp: 't',
      level: 'warn',
      service: 'twitter',
      message: 'm',
      metadata: null,
    },
  )
})
