// The admin tab's contracts with the runner, end to end: pausing a queue stops the runner taking
// its jobs (within one poll) and resuming lets it go on; a job that fails against the X sandbox's
// locked account is retried from the Retries tab; Restart on Server Processes brings the runner
// back under a new PID. They need a running runner (branch `runner`); without one they are skipped.
import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { createClient } from '@supabase/supabase-js'
import { adminPage, closeDb, db, liveRunners, openTab } from './admin-support'
import { apiUrl, uniqueEmail } from './support'

test.describe.configure({ mode: 'serial' })

test.beforeEach(async () => {
  test.skip(
    (await liveRunners()).length === 0,
    'no runner is reporting heartbeats (the runner lands on branch `runner`)',
  )
})

test.afterAll(async () => {
  await db().query(`delete from public.paused_queues where name = 'inbox.sync'`)
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
  const row = page.getByRole('row').filter({ hasText: 'inbox.sync' })
  await row.getByRole('button', { name: 'Pause inbox.sync' }).click()
  await expect(row.getByRole('button', { name: 'Resume inbox.sync' })).toBeVisible()

  const accountId = randomUUID()
  const { rows } = await db().query<{ id: string }>('select internal.enqueue_job($1, $2, $3)::text as id', [
    'inbox.sync',
    { accountId },
    `inbox:${accountId}`,
  ])
  const jobId = rows[0]?.id ?? ''
  // pg-boss polls every 2 s by default: several polls pass and the job is still waiting.
  await page.waitForTimeout(10_000)
  expect(await jobState(jobId)).toBe('created')
  expect((await liveRunners()).length).toBeGreaterThan(0)

  await row.getByRole('button', { name: 'Resume inbox.sync' }).click()
  await expect(row.getByRole('button', { name: 'Pause inbox.sync' })).toBeVisible()
  await expect.poll(() => jobState(jobId), { timeout: 60_000 }).not.toBe('created')
  await context.close()
})

/** A customer who connects the X sandbox's locked account: the runner's test of it fails (326). */
async function connectLockedXAccount(): Promise<string> {
  const xBase = process.env.X_BASE_URL
  if (!xBase) throw new Error('X_BASE_URL is not set: run the end-to-end tests through `npm test`.')
  const locked = (await (await fetch(`${xBase}/__sandbox/accounts/rf_locked_demo`)).json()) as {
    cookies: unknown
  }
  const customer = createClient(apiUrl, process.env.SUPABASE_ANON_KEY ?? '', {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { error: signUpError } = await customer.auth.signUp({
    email: uniqueEmail('locked-x'),
    password: 'e2e-password-123',
  })
  expect(signUpError).toBeNull()
  const { data, error } = await customer.functions.invoke('api/social-accounts', {
    body: {
      platform: 'twitter',
      username: 'rf_locked_demo',
      authData: { cookies: locked.cookies },
      proxyUrl: null,
    },
  })
  expect(error).toBeNull()
  return (data as { id: string }).id
}

async function failedJobOf(accountId: string): Promise<string | null> {
  const { rows } = await db().query<{ id: string }>(
    `select id::text from pgboss.job where data ->> 'accountId' = $1 and state = 'failed'
      order by completed_on desc limit 1`,
    [accountId],
  )
  return rows[0]?.id ?? null
}

test('a job that fails on a locked X account is retried from the Retries tab', async ({ browser }) => {
  test.setTimeout(300_000)
  const accountId = await connectLockedXAccount()
  await expect.poll(() => failedJobOf(accountId), { timeout: 240_000, intervals: [2_000] }).not.toBeNull()
  const jobId = (await failedJobOf(accountId)) ?? ''
  const short = jobId.slice(-8)

  const { context, page } = await adminPage(browser)
  await openTab(page, 'retries', 'Retries')
  const row = page.getByRole('row').filter({ hasText: short })
  await expect(row).toContainText('Test account')
  await row.getByRole('button', { name: `Retry job ${short}` }).click()
  await expect(page.getByText(`Job ${short} is queued again`)).toBeVisible()
  // The runner takes it again and, the account still locked, it fails once more.
  await expect.poll(() => jobState(jobId), { timeout: 120_000, intervals: [2_000] }).toBe('failed')
  await context.close()
})

test('Restart on Server Processes brings the runner back under a new PID', async ({ browser }) => {
  test.setTimeout(180_000)
  const before = await liveRunners()
  const target = before[0]
  if (!target) throw new Error('no runner')
  const { context, page } = await adminPage(browser)
  await openTab(page, 'processes', 'Server Processes')
  const row = page.getByRole('row').filter({ hasText: target.runner_id })
  await expect(row.getByTestId('process-pid')).toHaveText(String(target.pid))
  await row.getByRole('button', { name: `Restart ${target.runner_id}` }).click()
  await expect(page.getByText(`Restart requested for ${target.runner_id}`)).toBeVisible()

  // The supervisor starts it again: a running process with a PID that was not there before.
  const oldPids = new Set(before.map((r) => r.pid))
  const freshRunner = async () => (await liveRunners()).find((r) => !oldPids.has(r.pid)) ?? null
  await expect.poll(freshRunner, { timeout: 150_000, intervals: [2_000] }).not.toBeNull()
  const fresh = await freshRunner()
  const freshRow = page.getByRole('row').filter({ hasText: fresh?.runner_id ?? '' })
  await expect(freshRow.getByTestId('process-pid')).toHaveText(String(fresh?.pid), { timeout: 20_000 })
  await context.close()
})
