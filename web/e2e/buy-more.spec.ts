// Buying more accounts (issue: "No way to buy more"): a paying Growth customer with 5/5 accounts
// follows the limit message to the change-plan control, sees Stripe's proration for the rest of the
// month, confirms, and connects the 6th account right after; the charge is exactly what was shown.
// Going down to fewer accounts than are connected is explained (which to remove) and refused by the
// server as well.
import { expect, type Page, test } from '@playwright/test'
import { sql } from './db'
import { runnerForTheseTests } from './runner-process'
import { apiUrl, signUpThroughApi, skipOnboarding, uniqueEmail, xSandboxAccount } from './support'

const stripeBase = process.env.STRIPE_API_BASE ?? 'http://127.0.0.1:55340'
const DAY = 86_400

runnerForTheseTests()

async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? ''
      if (/^sb-.*-auth-token$/.test(key)) return JSON.parse(localStorage.getItem(key) ?? '{}')?.access_token
    }
    return undefined
  })
  if (typeof token !== 'string') throw new Error('No signed-in session in this page')
  return token
}

/** The product API as the signed-in customer calls it. */
async function api(page: Page, path: string, body: unknown) {
  const response = await fetch(`${apiUrl}/functions/v1/api${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${await accessToken(page)}`,
      apikey: process.env.SUPABASE_ANON_KEY ?? '',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function sandbox(path: string, body: unknown = {}) {
  const response = await fetch(`${stripeBase}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as Record<string, unknown>
}

const cents = (shown: string) => Math.round(Number(shown.replace(/[$,]/g, '')) * 100)

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

test('5 → 10 accounts: the limit links to the change, Stripe’s proration is shown and charged, the 6th account connects', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const userId = await signUpThroughApi(page, uniqueEmail('buy-more'), 'e2e-password-123')
  await skipOnboarding(userId)

  // A paying Growth customer with 5 accounts, ten days into a month after the trial.
  const checkout = await api(page, '/api/create-checkout-session', {
    planType: 'growth',
    billingPeriod: 'monthly',
    accountCount: 5,
  })
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200)
  const paid = (await sandbox(`checkout_sessions/${checkout.body.sessionId}/pay`)) as {
    session: { customer: string; subscription: string }
  }
  await sandbox('clock/advance', { seconds: 3 * DAY + 60, customer: paid.session.customer })
  await sandbox('clock/advance', { seconds: 10 * DAY, customer: paid.session.customer })
  for (let i = 0; i < 5; i++) {
    await sql(
      `insert into public.social_accounts (user_id, platform_id, username, status)
       select $1, p.id, $2, 'active' from public.platforms p where p.name = 'twitter'`,
      [userId, `buymore_${userId.slice(0, 6)}_${i}`],
    )
  }

  // The 6th: the limit message links to the change-plan control.
  await page.goto('/dashboard?tab=social-accounts')
  await page
    .getByRole('button', { name: /Add Account/ })
    .first()
    .click()
  const wizard = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await expect(wizard.getByText('Account limit reached. You have 5/5 accounts.')).toBeVisible()
  await shoot(page, 'account-limit-link')
  await wizard.getByRole('link', { name: 'Add more accounts' }).click()
  await expect(page).toHaveURL(/\/billing\?change=plan$/)

  const change = page.getByRole('dialog', { name: 'Change plan' })
  await expect(change).toBeVisible()
  await change.getByLabel('Number of accounts').fill('10')
  await expect(change.getByTestId('change-plan-price')).toContainText(
    '$29 per account per month, $290 per month',
  )
  await change.getByRole('button', { name: 'Review price' }).click()
  const preview = change.getByTestId('proration-preview')
  await expect(preview).toContainText(/Unused time on 5 × Reachflow Growth after/)
  await expect(preview).toContainText(/Remaining time on 10 × Reachflow Growth after/)
  const dueShown = cents((await change.getByTestId('amount-due-today').textContent()) ?? '')
  expect(dueShown).toBeGreaterThan(0)
  const linesShown = await preview.getByRole('listitem').allTextContents()
  await shoot(page, 'billing-change-plan')
  await change.getByRole('button', { name: 'Confirm change' }).click()
  await expect(page.getByText('Your plan now covers 10 accounts.')).toBeVisible({ timeout: 30_000 })
  await expect(change).toBeHidden()
  const accountsRow = page.getByRole('tabpanel').getByText('Accounts', { exact: true }).locator('xpath=..')
  await expect(accountsRow).toContainText('10')
  await shoot(page, 'billing-subscription-changed')

  // What Stripe (the sandbox) charged is exactly what the preview showed, line by line.
  const invoices = (await (
    await fetch(`${stripeBase}/v1/invoices?subscription=${paid.session.subscription}`, {
      headers: { Authorization: `Bearer ${process.env.STRIPE_SECRET_KEY}` },
    })
  ).json()) as {
    data: Array<{
      billing_reason: string
      amount_paid: number
      lines: { data: Array<{ description: string }> }
    }>
  }
  const proration = invoices.data.find((invoice) => invoice.billing_reason === 'subscription_update')
  expect(proration?.amount_paid).toBe(dueShown)
  expect(linesShown.map((line) => line.replace(/-?\$[\d,.]+$/, ''))).toEqual(
    proration?.lines.data.map((line) => line.description),
  )

  // The 6th account connects right after.
  await page.goto('/dashboard?tab=social-accounts')
  await page
    .getByRole('button', { name: /Add Account/ })
    .first()
    .click()
  await expect(wizard.getByText('Ready to Add Account')).toBeVisible()
  await expect(wizard.getByText('5 of 10 accounts used on your plan.')).toBeVisible()
  const x = await xSandboxAccount()
  await wizard.getByRole('button', { name: /Twitter/ }).click()
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByLabel('Username').fill(x.username)
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  await wizard.getByLabel('X Chat passcode').fill(x.passcode ?? '')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: 'Add Account' }).click()
  await expect(page.getByText('Account connected successfully!')).toBeVisible({ timeout: 120_000 })
  await expect(page.getByRole('tab', { name: /Social Accounts/ })).toContainText('6')

  // Down to 5 with 6 connected: explained before anything is accepted, and refused by the server.
  await page.goto('/billing')
  await expect(page.getByRole('tabpanel')).toContainText('10 accounts')
  await shoot(page, 'billing-overview-change-plan')
  await page.getByRole('tabpanel').getByRole('link', { name: 'Change plan' }).click()
  await expect(change).toBeVisible()
  await change.getByLabel('Number of accounts').fill('5')
  await change.getByRole('button', { name: 'Review price' }).click()
  const blocked = change.getByRole('alert')
  await expect(blocked).toContainText('Remove accounts first')
  await expect(blocked).toContainText(
    'You have 6 accounts connected. Remove 1 account before changing to 5 accounts.',
  )
  await expect(blocked.getByRole('listitem')).toHaveCount(6)
  await expect(blocked).toContainText(`@${x.username}`)
  await expect(change.getByRole('button', { name: 'Confirm change' })).toHaveCount(0)
  await expect(change.getByRole('button', { name: 'Review price' })).toBeDisabled()
  await shoot(page, 'billing-change-plan-blocked')
  const refused = await api(page, '/billing/change-plan', {
    accounts: 5,
    prorationDate: Math.floor(Date.now() / 1000),
  })
  expect(refused).toMatchObject({
    status: 422,
    body: { error: 'You have 6 accounts connected. Remove 1 account before changing to 5 accounts.' },
  })
  const [row] = await sql<{ accounts_purchased: number }>(
    'select accounts_purchased from public.subscriptions where user_id = $1',
    [userId],
  )
  expect(row?.accounts_purchased).toBe(10)
})
