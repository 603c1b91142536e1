// The admin tab's contracts with the runner, end to end with a real runner (the one `npm start`
// runs, started here because the test instance has none): pausing a queue stops the runner taking
// its jobs and resuming lets it go on; a job that fails in the runner (the X sandbox answering 500
// on its pages) is retried from the Retries tab once the cause is gone; Restart on Server
// Processes brings the runner back under a new PID.
import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'
import {
  adminPage,
  closeDb,
  db,
  liveRunners,
  openTab,
  type RunnerHandle,
  startSupervisedRunner,
} from './admin-support'
import { apiUrl, signUpSession, uniqueEmail } from './support'

test.describe.configure({ mode: 'serial' })

// While this file's runner is up, the queues these tests do not use stay paused, so the runner
// leaves the demo customer's campaigns and accounts as the other tests expect them.
const UNTOUCHED = ['campaign.tick', 'scrape.run', 'inbox.sync', 'warmup.step', 'platform.canary']
let runner: RunnerHandle | undefined

test.beforeAll(async () => {
  test.setTimeout(120_000)
  await db().query(
    'insert into public.paused_queues (name) select unnest($1::text[]) on conflict do nothing',
    [UNTOUCHED],
  )
  // Earlier suites leave account tests of their made-up accounts queued; each takes the runner
  // seconds of browser work, so this file's jobs would wait behind them. They are not ours: cancel.
  await db().query(
    `update pgboss.job set state = 'cancelled', completed_on = now()
      where name = 'account.test' and state in ('created', 'retry')`,
  )
  const before = new Set((await liveRunners()).map((r) => r.pid))
  runner = startSupervisedRunner()
  await expect
    .poll(async () => (await liveRunners()).some((r) => !before.has(r.pid)), {
      timeout: 90_000,
      intervals: [1_000],
    })
    .toBe(true)
})

test.afterAll(async () => {
  await runner?.stop()
  await db().query('delete from public.paused_queues where name = any($1::text[])', [
    [...UNTOUCHED, 'account.test'],
  ])
  await closeDb()
})

async function jobState(id: string): Promise<string | undefined> {
  const { rows } = await db().query<{ state: string }>('select state::text from pgboss.job where id = $1', [
    id,
  ])
  return rows[0]?.state
}

test('a paused queue is not worked until it is resumed', async ({ browser }) => {
  test.setTimeout(120_000)
  const { context, page } = await adminPage(browser)
  await openTab(page, 'queues', 'Queues')
  const row = page.getByRole('row').filter({ hasText: 'account.test' })
  await row.getByRole('button', { name: 'Pause account.test' }).click()
  await expect(row.getByRole('button', { name: 'Resume account.test' })).toBeVisible()
  // The contract: the runner stops fetching a paused queue within one poll (2 s).
  await page.waitForTimeout(4_000)

  const accountId = randomUUID()
  const { rows } = await db().query<{ id: string }>('select internal.enqueue_job($1, $2, $3)::text as id', [
    'account.test',
    { accountId },
    `account:${accountId}`,
  ])
  const jobId = rows[0]?.id ?? ''
  // Several polls pass and the job is still waiting.
  await page.waitForTimeout(10_000)
  expect(await jobState(jobId)).toBe('created')
  expect((await liveRunners()).length).toBeGreaterThan(0)
  await expect(row.getByRole('cell').nth(2)).not.toHaveText('0')

  await row.getByRole('button', { name: 'Resume account.test' }).click()
  await expect(row.getByRole('button', { name: 'Pause account.test' })).toBeVisible()
  // Taken and finished (the account does not exist, which the runner reports and completes).
  await expect.poll(() => jobState(jobId), { timeout: 60_000, intervals: [1_000] }).toBe('completed')
  await context.close()
})

const anonHeaders = () => ({ apikey: process.env.SUPABASE_ANON_KEY ?? '' })

/** A new customer's access token, signed up as the web app does (Auth's /signup). */
const xSandbox = (path: string, init?: RequestInit) => {
  const base = process.env.X_BASE_URL
  if (!base) throw new Error('X_BASE_URL is not set: run the end-to-end tests through `npm test`.')
  return fetch(`${base}/__sandbox/${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init?.headers },
  })
}

test('a job that failed in the runner is retried from the Retries tab and then succeeds', async ({
  browser,
}) => {
  test.setTimeout(360_000)
  const demo = (await (await xSandbox('accounts/reachflow_demo')).json()) as { cookies: unknown }
  // x.com's pages fail for this account: the runner's sign-in throws and the test job fails.
  const fault = await xSandbox('faults', {
    method: 'POST',
    body: JSON.stringify({ account: 'reachflow_demo', target: 'page', mode: 'http_500', count: 1000 }),
  })
  expect(fault.ok).toBe(true)
  try {
    const token = (await signUpSession(uniqueEmail('x-fault'), 'e2e-password-123')).access_token
    const created = await fetch(`${apiUrl}/functions/v1/api/social-accounts`, {
      method: 'POST',
      headers: { ...anonHeaders(), Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        platform: 'twitter',
        username: 'reachflow_demo',
        authData: { cookies: demo.cookies, chatPasscode: '1234' },
        proxyUrl: null,
      }),
    })
    expect(created.status).toBe(201)
    const accountId = ((await created.json()) as { id: string }).id
    const testJob = async () => {
      const { rows } = await db().query<{ id: string; state: string }>(
        `select id::text, state::text from pgboss.job where name = 'account.test' and data ->> 'accountId' = $1`,
        [accountId],
      )
      return rows[0]
    }
    // account.test retries once after 60 s, then pg-boss fails it for good. The delay is pg-boss's
    // and not under test: once the first attempt has failed, its retry is made due at once.
    await expect
      .poll(async () => (await testJob())?.state, { timeout: 120_000, intervals: [1_000] })
      .toBe('retry')
    await db().query(`update pgboss.job set start_after = now() where id = $1 and state = 'retry'`, [
      (await testJob())?.id,
    ])
    await expect
      .poll(async () => (await testJob())?.state, { timeout: 120_000, intervals: [1_000] })
      .toBe('failed')
    const jobId = (await testJob())?.id ?? ''
    const short = jobId.slice(-8)

    await xSandbox('faults?account=reachflow_demo', { method: 'DELETE' })
    const { context, page } = await adminPage(browser)
    await openTab(page, 'retries', 'Retries')
    const row = page.getByRole('row').filter({ hasText: short })
    await expect(row).toContainText('Test account')
    await expect(row.getByTestId('job-attempts')).toHaveText('2/5')
    await row.getByRole('button', { name: `Retry job ${short}` }).click()
    await expect(page.getByText(`Job ${short} is queued again`)).toBeVisible()
    await expect(row).toHaveCount(0)
    // The runner takes it again and, with x.com answering, the account passes its test.
    await expect.poll(() => jobState(jobId), { timeout: 120_000, intervals: [2_000] }).toBe('completed')
    const { rows } = await db().query('select status from public.social_accounts where id = $1', [accountId])
    expect(rows).toEqual([{ status: 'active' }])
    await context.close()
  } finally {
    await xSandbox('faults?account=reachflow_demo', { method: 'DELETE' })
  }
})

test('Restart on Server Processes brings the runner back under a new PID', async ({ browser }) => {
  test.setTimeout(180_000)
  const before = await liveRunners()
  const target = before[before.length - 1]
  if (!target) throw new Error('no runner')
  const { context, page } = await adminPage(browser)
  await openTab(page, 'processes', 'Server Processes')
  const row = page.getByRole('row').filter({ hasText: target.runner_id })
  await expect(row.getByTestId('process-pid')).toHaveText(String(target.pid))
  await row.getByRole('button', { name: `Restart ${target.runner_id}` }).click()
  // Destructive: it asks first, and Cancel leaves the runner alone.
  const confirm = page.getByRole('dialog', { name: `Restart ${target.runner_id}?` })
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByText(`Restart requested for ${target.runner_id}`)).toHaveCount(0)
  await row.getByRole('button', { name: `Restart ${target.runner_id}` }).click()
  await confirm.getByRole('button', { name: 'Restart process' }).click()
  await expect(page.getByText(`Restart requested for ${target.runner_id}`)).toBeVisible()

  // The runner exits; its supervisor starts it again under a PID that was not there before.
  const oldPids = new Set(before.map((r) => r.pid))
  const freshRunner = async () => (await liveRunners()).find((r) => !oldPids.has(r.pid)) ?? null
  await expect.poll(freshRunner, { timeout: 150_000, intervals: [2_000] }).not.toBeNull()
  const fresh = await freshRunner()
  const freshRow = page.getByRole('row').filter({ hasText: fresh?.runner_id ?? '' })
  await expect(freshRow.getByTestId('process-pid')).toHaveText(String(fresh?.pid), { timeout: 20_000 })
  await expect(freshRow).toContainText('Running')
  await expect(row).toContainText('Stopped', { timeout: 20_000 })
  const { rows } = await db().query('select status from public.runner_commands where runner_id = $1', [
    target.runner_id,
  ])
  expect(rows).toEqual([{ status: 'done' }])
  await context.close()
})
