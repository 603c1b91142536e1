// Admission control's policy fed with readings (no clock, no machine): limits fall under event-loop
// lag or a long run queue, hold between the marks, come back one at a time after calm readings,
// and never reach 0. The gate applies a lowered limit to new holders only.
import { describe, expect, it } from 'vitest'
import { Admission } from '../src/ops/admission.ts'
import { AdmissionPolicy, DEFAULT_ADMISSION, type LoadReading } from '../src/ops/admission-policy.ts'
import { Gate, GateWaitTimeoutError, SEND_PRIORITY } from '../src/ops/gate.ts'

const calm: LoadReading = { lagMs: 5, runQueuePerCore: 0.5 }
const lagging: LoadReading = { lagMs: 800, runQueuePerCore: 0.5 }
const queued: LoadReading = { lagMs: 5, runQueuePerCore: 5 }
const between: LoadReading = { lagMs: 100, runQueuePerCore: 1.5 }

const policy = () => new AdmissionPolicy({ ...DEFAULT_ADMISSION, maxJobs: 16, maxOpens: 4 })

describe('admission policy', () => {
  it('starts at the configured maxima and keeps them while calm', () => {
    const p = policy()
    for (let i = 0; i < 10; i++)
      expect(p.observe(calm)).toMatchObject({ jobs: 16, opens: 4, pressure: 'calm' })
  })

  it('halves both limits on each reading under lag, down to 1 and never 0', () => {
    const p = policy()
    expect(p.observe(lagging)).toEqual({ jobs: 8, opens: 2, pressure: 'high' })
    expect(p.observe(lagging)).toEqual({ jobs: 4, opens: 1, pressure: 'high' })
    for (let i = 0; i < 20; i++) p.observe(lagging)
    expect(p.limits).toEqual({ jobs: 1, opens: 1, pressure: 'high' })
  })

  it('treats a run queue over its mark as pressure too (another process starving the cores)', () => {
    const p = policy()
    expect(p.observe(queued)).toMatchObject({ jobs: 8, opens: 2, pressure: 'high' })
  })

  it('holds between the marks (hysteresis) and recovers by a step per three calm readings', () => {
    const p = policy()
    for (let i = 0; i < 5; i++) p.observe(lagging)
    expect(p.limits).toMatchObject({ jobs: 1, opens: 1 })
    for (let i = 0; i < 6; i++) expect(p.observe(between)).toEqual({ jobs: 1, opens: 1, pressure: 'steady' })
    // a steady reading resets the calm streak: two calm, one steady, two calm changes nothing
    p.observe(calm)
    p.observe(calm)
    p.observe(between)
    p.observe(calm)
    p.observe(calm)
    expect(p.limits).toMatchObject({ jobs: 1, opens: 1 })
    // jobs by an eighth of their maximum, sign-ins by one
    expect(p.observe(calm)).toMatchObject({ jobs: 3, opens: 2, pressure: 'calm' })
    const readings = [] as number[]
    for (let i = 0; i < 60; i++) readings.push(p.observe(calm).jobs)
    expect(p.limits).toMatchObject({ jobs: 16, opens: 4 })
    // one step at a time, never above the maximum
    expect(readings.every((n, i) => i === 0 || n - (readings[i - 1] as number) <= 2)).toBe(true)
    expect(Math.max(...readings)).toBe(16)
  })

  it('refuses maxima under 1', () => {
    expect(() => new AdmissionPolicy({ ...DEFAULT_ADMISSION, maxJobs: 0, maxOpens: 1 })).toThrow(/start at 1/)
  })
})

describe('admission controller', () => {
  it('has reads that need a sign-in wait while the machine is under pressure or a send waits for a slot', async () => {
    let reading = calm
    const admission = new Admission({ maxJobs: 1, maxOpens: 1, intervalMs: 0, readLoad: () => reading })
    admission.sample()
    expect(admission.coldReadsWait()).toBe(false)
    reading = queued
    admission.sample()
    expect(admission.coldReadsWait()).toBe(true)
    reading = between // neither calm nor under pressure: reads go on
    admission.sample()
    expect(admission.coldReadsWait()).toBe(false)

    const held = await admission.opens.acquire(1_000)
    const read = admission.opens.acquire(60_000, undefined, 0)
    expect(admission.coldReadsWait()).toBe(false) // only a read waits
    const send = admission.opens.acquire(60_000, undefined, SEND_PRIORITY)
    expect(admission.coldReadsWait()).toBe(true)
    held()
    ;(await send)()
    ;(await read)()
    expect(admission.coldReadsWait()).toBe(false)
    admission.stop()
  })

  it('applies fed readings to its gates and reports them', () => {
    const readings = [lagging, lagging, lagging, calm, calm, calm]
    const changes: number[] = []
    const admission = new Admission({
      maxJobs: 6,
      maxOpens: 3,
      intervalMs: 0,
      readLoad: () => readings.shift() ?? calm,
      onChange: (limits) => changes.push(limits.jobs),
    })
    admission.sample()
    expect([admission.jobs.limit, admission.opens.limit]).toEqual([3, 1])
    admission.sample()
    admission.sample()
    expect([admission.jobs.limit, admission.opens.limit]).toEqual([1, 1])
    admission.sample()
    admission.sample()
    admission.sample()
    expect([admission.jobs.limit, admission.opens.limit]).toEqual([2, 2])
    expect(changes).toEqual([3, 1, 2])
    admission.deferred()
    expect(admission.stats).toMatchObject({ jobs: 2, opens: 2, deferred: 1, lagMs: 5, pressure: 'calm' })
    admission.stop()
  })

  it('reads the real machine without failing (a number for each)', () => {
    const admission = new Admission({ maxJobs: 2, maxOpens: 1, intervalMs: 0 })
    admission.sample()
    expect(Number.isFinite(admission.stats.lagMs)).toBe(true)
    expect(admission.stats.runQueuePerCore).toBeGreaterThanOrEqual(0)
    admission.stop()
  })
})

describe('gate', () => {
  it('lets holders keep their slot when the limit falls, and admits waiters as it rises', async () => {
    const gate = new Gate(2)
    const a = await gate.acquire(1_000)
    const b = await gate.acquire(1_000)
    gate.setLimit(1)
    let admitted = false
    const c = gate.acquire(60_000).then((release) => {
      admitted = true
      return release
    })
    a()
    await Promise.resolve()
    expect(admitted).toBe(false) // one still holds, and the limit is 1
    expect(gate.waiting).toBe(1)
    b()
    ;(await c)()
    expect(admitted).toBe(true)
    expect(gate.active).toBe(0)
    gate.setLimit(0)
    expect(gate.limit).toBe(1)
  })

  it('serves a higher priority first, then first come, first served', async () => {
    const gate = new Gate(1)
    const held = await gate.acquire(1_000)
    const order: string[] = []
    const wait = (name: string, priority: number) =>
      gate.acquire(60_000, undefined, priority).then((release) => {
        order.push(name)
        release()
      })
    const all = [wait('read 1', 0), wait('read 2', 0), wait('send 1', 1), wait('send 2', 1)]
    expect(gate.waitingAbove(0)).toBe(2)
    expect(gate.waitingAbove(1)).toBe(0)
    held()
    await Promise.all(all)
    expect(order).toEqual(['send 1', 'send 2', 'read 1', 'read 2'])
  })

  it('gives up on a waiter after its wait, and on abort', async () => {
    const gate = new Gate(1)
    const held = await gate.acquire(1_000)
    await expect(gate.acquire(10)).rejects.toBeInstanceOf(GateWaitTimeoutError)
    const stop = new AbortController()
    const waiting = gate.acquire(60_000, stop.signal)
    stop.abort(new Error('shutting down'))
    await expect(waiting).rejects.toThrow('shutting down')
    expect(gate.waiting).toBe(0)
    held()
    held() // a second release gives back nothing more
    expect(gate.active).toBe(0)
  })
})
