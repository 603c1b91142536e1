// The admin tab as the seeded operator (admin@reachflow.test) through the real stack: the demo data
// on every tab, the detail drawers, log filters, Retry and Delete on the seeded failed jobs, queue
// Pause / Resume, and a customer being sent away from /admin.
import { expect, test } from '@playwright/test'
import { adminPage, closeDb, db, openTab } from './admin-support'
import { signUpThroughApi, uniqueEmail } from './support'

test.describe.configure({ mode: 'serial' })

test.afterAll(async () => {
  await closeDb()
})

test('a customer on /admin is sent to /dashboard with the product text', async ({ page }) => {
  await signUpThroughApi(page, uniqueEmail('not-admin'), 'e2e-password-123')
  await page.goto('/dashboard')
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('Access denied - admin privileges required')).toBeVisible()
})

test('an operator lands on /admin after signing in and reaches it from the dashboard header', async ({
  browser,
}) => {
  // adminPage signs in through /login the first time and expects /admin (admin-support.ts).
  const { context, page } = await adminPage(browser)
  await page.goto('/dashboard')
  await page.getByRole('link', { name: 'Admin' }).click()
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible()
  // A signed-in operator sent to /login goes straight back to /admin.
  await page.goto('/login')
  await expect(page).toHaveURL(/\/admin$/)
  await context.close()
})

test('the overview shows the platform figures and recent activity', async ({ browser }) => {
  const { context, page } = await adminPage(browser)
  await openTab(page, 'overview', 'Overview')
  const users = page.getByTestId('stat-users')
  await expect(users).toContainText('Total Users')
  await expect(users).toContainText(/\d+ active/)
  await expect(page.getByTestId('stat-accounts')).toContainText(/\d+ flagged/)
  await expect(page.getByTestId('stat-system')).toContainText(/Online|Offline/)
  await expect(page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem')).toHaveCount(5)
  await context.close()
})

test('users, campaigns and accounts list the demo customers, with their drawers', async ({ browser }) => {
  const { context, page } = await adminPage(browser)
  await openTab(page, 'users', 'Users')
  const demoRow = page.getByRole('row').filter({ hasText: 'demo@reachflow.test' })
  await expect(demoRow).toContainText('Trialing')
  await demoRow.getByRole('button', { name: 'View details of demo@reachflow.test' }).click()
  const user = page.getByRole('dialog', { name: 'demo@reachflow.test' })
  await expect(user.getByText('Growth · 2 accounts · monthly')).toBeVisible()
  await expect(user.getByText('@demo_growth')).toBeVisible()
  await user.getByRole('button', { name: 'Close' }).click()

  await page.getByRole('tab', { name: 'Campaigns' }).click()
  await page.getByRole('searchbox', { name: 'Search campaigns...' }).fill('SaaS founders')
  await page.getByRole('button', { name: 'Monitor SaaS founders outreach' }).click()
  const monitor = page.getByRole('dialog', { name: 'SaaS founders outreach' })
  await expect(monitor.getByText('Recent messages')).toBeVisible()
  await expect(
    monitor.getByRole('list', { name: 'Recent messages' }).getByRole('listitem').first(),
  ).toBeVisible()
  await monitor.getByRole('button', { name: 'Close' }).click()

  await page.getByRole('tab', { name: 'Accounts' }).click()
  const flagged = page.getByRole('row').filter({ hasText: '@northwind_hq' })
  await expect(flagged).toContainText('Flagged')
  await expect(flagged).toContainText('31%')
  await flagged.getByRole('button', { name: 'Manage @northwind_hq' }).click()
  const manage = page.getByRole('dialog', { name: '@northwind_hq' })
  await expect(manage.getByText('Flagged: X locked the account (326)')).toBeVisible()
  await expect(manage.getByRole('button', { name: 'Resume sending' })).toBeVisible()
  await context.close()
})

test('Manage resumes a flagged account, pauses it until resumed, and resumes it', async ({ browser }) => {
  // An account of its own: a customer's X account the runner flagged.
  const username = `e2e_flagged_${Date.now() % 1_000_000}`
  // Two statements: the new login's personal workspace is made by a trigger after its insert.
  const { rows: owners } = await db().query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, created_at, updated_at)
     values (gen_random_uuid(), 'authenticated', 'authenticated', $1 || '@e2e.test', '', now(),
             '{"provider": "email", "providers": ["email"]}', now(), now())
     returning id::text`,
    [username],
  )
  const { rows } = await db().query<{ id: string }>(
    `insert into public.social_accounts (user_id, workspace_id, platform_id, username, status, flag_reason, warmup_phase)
     select $2::uuid, $2::uuid, p.id, $1, 'flagged', 'Rate limited (88)', 5 from public.platforms p where p.name = 'twitter'
     returning id::text`,
    [username, owners[0]?.id],
  )
  const accountId = rows[0]?.id
  const { context, page } = await adminPage(browser)
  await openTab(page, 'accounts', 'Accounts')
  await page.getByRole('searchbox', { name: 'Search accounts...' }).fill(username)
  await page.getByRole('button', { name: `Manage @${username}` }).click()
  const manage = page.getByRole('dialog', { name: `@${username}` })
  await expect(manage.getByText('Flagged: Rate limited (88)')).toBeVisible()

  await manage.getByRole('button', { name: 'Resume sending' }).click()
  await expect(page.getByText(`Sending resumed for @${username}`)).toBeVisible()
  await manage.getByText('Until resumed').click()
  await manage.getByRole('button', { name: 'Pause sending' }).click()
  await expect(page.getByText(`Sending paused for @${username}`)).toBeVisible()
  await expect(manage.getByRole('button', { name: 'Resume sending' })).toBeVisible()
  const paused = await db().query(
    'select status, paused_until, flag_reason from public.social_accounts where id = $1',
    [accountId],
  )
  expect(paused.rows).toEqual([{ status: 'paused', paused_until: null, flag_reason: null }])

  await manage.getByRole('button', { name: 'Resume sending' }).click()
  await expect(manage.getByRole('button', { name: 'Pause sending' })).toBeVisible()
  const resumed = await db().query('select status from public.social_accounts where id = $1', [accountId])
  expect(resumed.rows).toEqual([{ status: 'active' }])
  await db().query(
    'delete from auth.users where id = (select user_id from public.social_accounts where id = $1)',
    [accountId],
  )
  await context.close()
})

test('logs filter by level and service', async ({ browser }) => {
  const tag = `e2e-${Date.now()}`
  await db().query(
    `insert into public.system_logs (level, service, message, metadata) values
       ('error', 'twitter', $1 || ' send failed (226)', '{"code": 226}'),
       ('warn', 'twitter', $1 || ' slow down', null),
       ('error', 'instagram', $1 || ' challenge required', null)`,
    [tag],
  )
  const { context, page } = await adminPage(browser)
  await openTab(page, 'logs', 'Logs')
  await expect(page.getByTestId('log-line').filter({ hasText: tag })).toHaveCount(3)
  await page.getByLabel('Level').selectOption('error')
  await page.getByLabel('Service').selectOption('twitter')
  const lines = page.getByTestId('log-line')
  await expect(lines.filter({ hasText: tag })).toHaveCount(1)
  await expect(lines.filter({ hasText: `${tag} send failed (226)` })).toBeVisible()
  for (const line of await lines.all()) {
    await expect(line).toHaveAttribute('data-level', 'error')
    await expect(line).toHaveAttribute('data-service', 'twitter')
  }
  await lines.filter({ hasText: tag }).getByText('metadata').click()
  await expect(lines.filter({ hasText: tag }).getByText('"code": 226')).toBeVisible()
  await page.getByLabel('Service').selectOption('instagram')
  await expect(lines.filter({ hasText: `${tag} challenge required` })).toBeVisible()
  await expect(lines.filter({ hasText: `${tag} send failed` })).toHaveCount(0)
  await context.close()
})

/** A failed job as pg-boss leaves one (its own, so the test does not depend on other suites). */
async function failedJob(
  queue: string,
  retryCount: number,
  retryLimit: number,
  message: string,
): Promise<string> {
  const { rows } = await db().query<{ id: string }>(
    `insert into pgboss.job (name, data, state, retry_count, retry_limit, started_on, completed_on, output)
     values ($1, '{"e2e": true}', 'failed', $2, $3, now(), now(), jsonb_build_object('message', $4::text))
     returning id::text`,
    [queue, retryCount, retryLimit, message],
  )
  return rows[0]?.id ?? ''
}

test('Retry re-queues a failed job, is disabled at its most attempts, and Delete removes one', async ({
  browser,
}) => {
  // warmup.step allows 3 runs, plus 3 retries by hand: 6 attempts at most.
  const retryable = await failedJob('warmup.step', 2, 2, 'Warm-up page did not load')
  const spent = await failedJob('warmup.step', 5, 5, 'Could not authenticate you (32)')
  const doomed = await failedJob('warmup.step', 2, 2, 'Account locked (326)')
  const short = (id: string) => id.slice(-8)
  const { context, page } = await adminPage(browser)
  await openTab(page, 'retries', 'Retries')

  const spentRow = page.getByRole('row').filter({ hasText: short(spent) })
  await expect(spentRow.getByTestId('job-attempts')).toHaveText('6/6')
  await expect(spentRow.getByRole('button', { name: `Retry job ${short(spent)}` })).toBeDisabled()

  const row = page.getByRole('row').filter({ hasText: short(retryable) })
  await expect(row.getByTestId('job-attempts')).toHaveText('3/6')
  await expect(row).toContainText('Warm-up page did not load')
  await row.getByRole('button', { name: `Retry job ${short(retryable)}` }).click()
  await expect(page.getByText(`Job ${short(retryable)} is queued again`)).toBeVisible()
  await expect(row).toHaveCount(0)
  const retried = await db().query('select state::text, retry_limit from pgboss.job where id = $1', [
    retryable,
  ])
  // As pg-boss retry(): back to 'retry' with one more attempt (a runner may already have taken it).
  expect(['retry', 'active', 'completed', 'failed']).toContain(retried.rows[0]?.state)
  expect(retried.rows[0]?.retry_limit).toBe(3)

  await page.getByRole('button', { name: `Delete job ${short(doomed)}` }).click()
  const confirm = page.getByRole('dialog', { name: `Delete job ${short(doomed)}?` })
  await confirm.getByRole('button', { name: 'Delete job' }).click()
  await expect(page.getByText(`Job ${short(doomed)} deleted successfully`)).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: short(doomed) })).toHaveCount(0)
  expect((await db().query('select 1 from pgboss.job where id = $1', [doomed])).rowCount).toBe(0)
  await db().query('delete from pgboss.job where id = any($1::uuid[])', [[retryable, spent]])
  await context.close()
})

test('Pause and Resume a queue from the Queues tab', async ({ browser }) => {
  const { context, page } = await adminPage(browser)
  await openTab(page, 'queues', 'Queues')
  const row = page.getByRole('row').filter({ hasText: 'warmup.step' })
  await row.getByRole('button', { name: 'Pause warmup.step' }).click()
  await expect(row).toContainText('Paused')
  await expect(row.getByRole('button', { name: 'Resume warmup.step' })).toBeVisible()
  expect((await db().query(`select 1 from public.paused_queues where name = 'warmup.step'`)).rowCount).toBe(1)
  await row.getByRole('button', { name: 'Details of warmup.step' }).click()
  const details = page.getByRole('dialog', { name: 'warmup.step' })
  await expect(details.getByText('by admin@reachflow.test')).toBeVisible()
  await details.getByRole('button', { name: 'Close' }).click()
  await row.getByRole('button', { name: 'Resume warmup.step' }).click()
  await expect(row.getByRole('button', { name: 'Pause warmup.step' })).toBeVisible()
  expect((await db().query(`select 1 from public.paused_queues where name = 'warmup.step'`)).rowCount).toBe(0)
  await context.close()
})
