// PostgreSQL restarts (`pg_ctl restart -m fast`) while the real runner sends a campaign against the
// X sandbox and a customer reads through the gateway. Nothing is restarted by hand: the gateway
// must answer again within seconds (same process, no supervisor restart), the runner (same
// process) must beat again and pg-boss hand it jobs again, and the campaign must finish with no
// duplicate and no lead lost. An alone-suite: the restart would fail every suite running beside it.
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminDb, closeAdminDb } from '../../../runner/test/helpers/fixtures.ts'
import { quietOtherWork, RunnerProcess, waitFor } from '../../../runner/test/helpers/process.ts'
import { stackConfig } from '../../../stack/src/config.ts'
import { readStatus } from '../../../stack/src/supervisor.ts'
import { PG_BIN } from '../../../stack/src/system.ts'
import { customer } from '../../functions/helpers.ts'
import { call } from '../probes.ts'
import {
  accountStatuses,
  deliveredCount,
  driveScheduler,
  leadsIn,
  OPEN_STATES,
  startCampaigns,
  verdict,
} from './campaign-run.ts'

const ACCOUNTS = 2
const LEADS_PER_ACCOUNT = 20
/** How long after Postgres is back each part may take to work again. */
const BACK_WITHIN_MS = 30_000

let runner: RunnerProcess | undefined
let stopScheduler: (() => void) | undefined
let restoreOtherWork: (() => Promise<void>) | undefined

beforeAll(async () => {
  // the restart drops this pool's idle connections too: a dropped idle client must not fail the run
  adminDb().on('error', () => undefined)
  restoreOtherWork = await quietOtherWork()
})
afterAll(async () => {
  stopScheduler?.()
  await runner?.stop()
  await restoreOtherWork?.()
  await closeAdminDb()
})

/** Restarts the test instance's Postgres as the postgres user; resolves when it accepts connections. */
function restartPostgres(): Promise<number | null> {
  const dataDir = stackConfig().dataDir
  const pgCtl = [
    `${PG_BIN}/pg_ctl`,
    '-D',
    dataDir,
    '-m',
    'fast',
    '-w',
    'restart',
    '-l',
    `${dataDir}/server.log`,
  ]
  const asRoot = process.getuid?.() === 0
  const child = spawn(
    asRoot ? 'runuser' : (pgCtl[0] as string),
    asRoot ? ['-u', 'postgres', '--', ...pgCtl] : pgCtl.slice(1),
    {
      stdio: 'ignore',
    },
  )
  return new Promise((resolve) => child.on('close', resolve))
}

/** A wait that fails with the runner's recent output attached, so a CI failure says what it did. */
const explained = <T>(wait: Promise<T>): Promise<T> =>
  wait.catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\n--- runner output ---\n${runner?.tail() ?? '(no runner)'}`)
  })

const dbNow = () =>
  waitFor('the database to answer', async () => {
    const rows = await adminDb()
      .query<{ now: Date }>('select now()')
      .then((r) => r.rows)
      .catch(() => [])
    return rows[0]?.now
  })

describe('database restart during a campaign', () => {
  it('gateway and runner reconnect by themselves; the campaign finishes, nothing lost or sent twice', async () => {
    const reader = await customer('dbrestart')
    const token = reader.session.access_token
    const run = await startCampaigns(ACCOUNTS, LEADS_PER_ACCOUNT, 3_000)
    stopScheduler = driveScheduler()
    runner = RunnerProcess.start({
      RUNNER_SEND_CONCURRENCY: String(ACCOUNTS),
      RUNNER_UNCERTAIN_CHECK_AFTER_MS: '2000',
      RUNNER_SESSION_IDLE_MS: '600000',
    })
    const runnerId = await runner.runnerId()
    const runnerPid = runner.pid
    const gatewayBefore = readStatus(stackConfig())?.services.gateway
    expect(gatewayBefore?.pid).toBeGreaterThan(0)

    // mid-run: the runner has sent a few and is sending more
    await waitFor('the runner to send', async () => (await deliveredCount(run)) >= 3, 180_000, 500)
    const deliveredBefore = await deliveredCount(run)

    const restarted = Date.now()
    expect(await restartPostgres()).toBe(0)
    const upAt = Date.now()
    const upDbTime = await dbNow()

    // the gateway: a customer's read and a function call answer again
    const gatewayBack = await waitFor(
      'the gateway to answer again',
      async () => {
        const [rest, fn] = await Promise.all([
          call('/rest/v1/rpc/dashboard_summary', { method: 'POST', token, body: {} }),
          call('/functions/v1/api/user/credits', { token }),
        ])
        return rest.status === 200 && fn.status === 200 && Date.now()
      },
      BACK_WITHIN_MS,
      200,
    )
    // the runner: its heartbeat row is written again, and pg-boss hands it campaign ticks again
    const beatBack = await explained(
      waitFor(
        'the runner to beat again',
        async () => {
          const { rows } = await adminDb().query(
            'select 1 from public.runner_heartbeats where runner_id = $1 and last_seen_at > $2',
            [runnerId, upDbTime],
          )
          return rows.length > 0 && Date.now()
        },
        BACK_WITHIN_MS,
        250,
      ),
    )
    const jobsBack = await explained(
      waitFor(
        'pg-boss to hand out work again',
        async () => {
          const { rows } = await adminDb().query(
            `select 1 from pgboss.job where name = 'campaign.tick' and state = 'completed' and completed_on > $1 limit 1`,
            [upDbTime],
          )
          return rows.length > 0 && Date.now()
        },
        BACK_WITHIN_MS * 2,
        250,
      ),
    )

    await explained(
      waitFor('the campaign to finish', async () => (await leadsIn(run, OPEN_STATES)) === 0, 300_000, 1_000),
    )
    stopScheduler()
    expect(runner.running, `the runner exited:\n${runner.tail()}`).toBe(true)
    expect(runner.pid).toBe(runnerPid)
    // the restart reached the runner: its lease connection dropped (and was taken again to send on)
    expect(runner.output.join('')).toMatch(/The lease connection dropped/)
    await runner.stop()

    const result = await verdict(run)
    expect(result.duplicates).toEqual([])
    expect(result.lost).toEqual([])
    expect(result.delivered, 'the runner sent after the restart').toBeGreaterThan(deliveredBefore)
    expect(result.states.sent ?? 0).toBeGreaterThanOrEqual(run.leadCount - (result.states.skipped ?? 0))
    expect((await accountStatuses(run)).map((a) => a.status)).toEqual(['active', 'active'])
    // same gateway process: it reconnected, nothing restarted it
    const gatewayAfter = readStatus(stackConfig())?.services.gateway
    expect(gatewayAfter).toEqual(gatewayBefore)
    console.log(
      `[reliability] db restart during a campaign: Postgres down and up in ${((upAt - restarted) / 1000).toFixed(1)} s ` +
        `after ${deliveredBefore} deliveries; gateway answering ${((gatewayBack - upAt) / 1000).toFixed(1)} s, ` +
        `runner heartbeat ${((beatBack - upAt) / 1000).toFixed(1)} s, pg-boss work ${((jobsBack - upAt) / 1000).toFixed(1)} s ` +
        `after Postgres was back; ${result.delivered} delivered, 0 duplicates, leads ${JSON.stringify(result.states)}`,
    )
  }, 600_000)
})
