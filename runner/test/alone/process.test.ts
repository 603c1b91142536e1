// The runner as a process, with pg-boss: it works queued jobs, reports heartbeats and answers its
// health check, stops fetching a paused queue within one poll and resumes, halts on a stop command
// and exits 75 on a restart command, shuts down gracefully on SIGTERM mid-tick, and releases the
// jobs of a runner that was killed as soon as it is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testInt } from '../../../stack/src/test-seed.ts'
import {
  adminDb,
  closeAdminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  leadsOf,
} from '../helpers/fixtures.ts'
import { enqueue, jobState, quietOtherWork, RunnerProcess, waitFor } from '../helpers/process.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from '../helpers/sandbox.ts'
import { newXAccount } from '../helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const runners: RunnerProcess[] = []
let offset = 0

function start(env: Record<string, string> = {}): RunnerProcess {
  const runner = RunnerProcess.start(env)
  runners.push(runner)
  return runner
}

async function campaignWith(leadCount: number) {
  const userId = await createCustomer()
  const sandbox = await newXAccount(x)
  const accountId = await createXAccount(userId, sandbox)
  const leads = await openProfiles(x, leadCount, offset)
  offset += leadCount
  const campaignId = await createCampaign(userId, accountId, leads)
  return {
    userId,
    sandbox,
    accountId,
    campaignId,
    tick: () => enqueue('campaign.tick', { campaignId, accountId }, `campaign:${campaignId}`),
  }
}

const heartbeat = async (runnerId: string) =>
  (
    await adminDb().query<{
      status: string
      pid: number
      host: string
      memory_mb: string
      current_jobs: unknown[]
      admission: Record<string, unknown> | null
    }>('select * from public.runner_heartbeats where runner_id = $1', [runnerId])
  ).rows[0]

let restoreOtherWork: (() => Promise<void>) | undefined
beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
  offset = 10_600 + testInt('process people', 1000)
})
afterAll(async () => {
  for (const runner of runners) await runner.stop()
  await adminDb().query('delete from public.paused_queues')
  await restoreOtherWork?.()
  await closeAdminDb()
})

describe('a runner process', () => {
  it('works queued jobs, beats, answers its health check, and honours a paused queue within a poll', async () => {
    const healthPort = Number(new URL(x.base).port) + 3
    const runner = start({ RUNNER_HEALTH_PORT: String(healthPort) })
    const runnerId = await runner.runnerId()
    const beat = await heartbeat(runnerId)
    expect(beat).toMatchObject({ status: 'running', pid: runner.pid })
    expect(Number(beat?.memory_mb)).toBeGreaterThan(20)
    const health = await (await fetch(`http://127.0.0.1:${healthPort}/health`)).json()
    expect(health).toMatchObject({ status: 'running', runnerId })
    // admission control's limits, in flight and deferred counts, in the heartbeat and the health check
    const limits = { jobs: expect.any(Number), opens: expect.any(Number), deferred: expect.any(Number) }
    expect(beat?.admission).toMatchObject(limits)
    expect(Number(beat?.admission?.opens)).toBeGreaterThanOrEqual(1)
    expect(health.admission).toMatchObject(limits)

    const first = await campaignWith(1)
    const job = await first.tick()
    await waitFor('the tick to complete', async () => (await jobState(job))?.state === 'completed', 90_000)
    expect((await jobState(job))?.output).toMatchObject({ sent: 1 })
    expect(await x.deliveries(first.sandbox.username)).toHaveLength(1)

    await adminDb().query(`insert into public.paused_queues (name) values ('campaign.tick')`)
    await new Promise((resolve) => setTimeout(resolve, 1_500)) // three polls
    const paused = await campaignWith(1)
    const waiting = await paused.tick()
    await new Promise((resolve) => setTimeout(resolve, 4_000))
    expect((await jobState(waiting))?.state).toBe('created')
    expect(await x.deliveries(paused.sandbox.username)).toEqual([])

    await adminDb().query(`delete from public.paused_queues where name = 'campaign.tick'`)
    await waitFor(
      'the paused tick to complete',
      async () => (await jobState(waiting))?.state === 'completed',
      90_000,
    )
    expect(await x.deliveries(paused.sandbox.username)).toHaveLength(1)
    await runner.stop()
  })

  it('halts on a stop command, and exits 75 (to be started again) on a restart command', async () => {
    const runner = start()
    const runnerId = await runner.runnerId()
    const command = async (name: string) =>
      (
        await adminDb().query<{ id: string }>(
          'insert into public.runner_commands (runner_id, command) values ($1, $2) returning id',
          [runnerId, name],
        )
      ).rows[0]?.id as string
    const commandStatus = async (id: string) =>
      (
        await adminDb().query<{ status: string }>('select status from public.runner_commands where id = $1', [
          id,
        ])
      ).rows[0]?.status

    const stop = await command('stop')
    await waitFor('the stop command to be done', async () => (await commandStatus(stop)) === 'done', 30_000)
    expect((await heartbeat(runnerId))?.status).toBe('stopped')
    const idle = await campaignWith(1)
    const job = await idle.tick()
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    expect((await jobState(job))?.state).toBe('created')
    expect(runner.running).toBe(true)

    const restart = await command('restart')
    const exit = await Promise.race([runner.exited, new Promise((resolve) => setTimeout(resolve, 60_000))])
    expect(exit).toEqual({ code: 75, signal: null })
    expect(await commandStatus(restart)).toBe('done')
    expect((await heartbeat(runnerId))?.status).toBe('stopped')
    await adminDb().query('delete from pgboss.job where id = $1', [job])
  })

  it('on SIGTERM ends its tick after the DM in hand, completes the job, and exits 0', async () => {
    // a gap of some seconds after each DM: SIGTERM lands while the tick waits for the next one
    const runner = start({ RUNNER_PACING_FACTOR: '0.3' })
    await runner.runnerId()
    const { sandbox, campaignId, tick } = await campaignWith(3)
    const job = await tick()
    await waitFor('the first DM', async () => (await x.deliveries(sandbox.username)).length === 1, 90_000)
    runner.kill('SIGTERM')
    const exit = await Promise.race([runner.exited, new Promise((resolve) => setTimeout(resolve, 60_000))])
    expect(exit).toEqual({ code: 0, signal: null })
    expect((await jobState(job))?.state).toBe('completed')
    expect(await x.deliveries(sandbox.username)).toHaveLength(1)
    expect((await leadsOf(campaignId)).map((l) => l.state).sort()).toEqual(['pending', 'pending', 'sent'])
    // the gap it was waiting out still holds for the next tick
    const next = await adminDb().query<{ next_action_at: Date | null }>(
      'select next_action_at from public.campaigns where id = $1',
      [campaignId],
    )
    expect(next.rows[0]?.next_action_at?.getTime() ?? 0).toBeGreaterThan(Date.now())
  })

  it('releases the jobs of a runner killed mid-tick as soon as it is gone', async () => {
    const victim = start({ RUNNER_PACING_FACTOR: '0.5' })
    const victimId = await victim.runnerId()
    const { sandbox, accountId, tick } = await campaignWith(3)
    const job = await tick()
    await waitFor('the first DM', async () => (await x.deliveries(sandbox.username)).length === 1, 90_000)
    victim.kill('SIGKILL')
    await victim.exited
    expect((await jobState(job))?.state).toBe('active')

    const successor = start()
    await successor.runnerId()
    await waitFor(
      'the dead runner’s job to be released',
      async () => (await jobState(job))?.state === 'failed',
      20_000,
    )
    expect((await heartbeat(victimId))?.status).toBe('stopped')
    // the account is free again: the successor's tick sends the rest, each lead once
    await adminDb().query('update public.campaigns set next_action_at = null where account_id = $1', [
      accountId,
    ])
    await tick()
    await waitFor('every lead sent', async () => (await x.deliveries(sandbox.username)).length === 3, 120_000)
    const delivered = await x.deliveries(sandbox.username)
    expect(new Set(delivered.map((d) => d.recipientUsername)).size).toBe(3)
    await successor.stop()
  })
})
