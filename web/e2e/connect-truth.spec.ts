// Accounts that tell the truth, as a brand-new customer: connecting an account says "connected" only after the runner's
// real test; a wrong Instagram password or a missing X Chat passcode is shown in the wizard with
// the real cause and the fix; "Change details and retry" keeps what was typed; the Social Accounts
// count follows without a reload.
import { expect, type Page, test } from '@playwright/test'
import { runnerForTheseTests } from './runner-process'
import {
  apiUrl,
  insertAsService,
  signUpThroughApi,
  skipOnboarding,
  uniqueEmail,
  xSandboxAccount,
} from './support'

const igBase = process.env.INSTAGRAM_BASE_URL ?? 'http://127.0.0.1:55342'

runnerForTheseTests()

async function newCustomer(page: Page, tag: string) {
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail(tag), 'e2e-password-123'))
  await page.goto('/dashboard?tab=social-accounts')
}

async function openWizard(page: Page, platform: 'Twitter' | 'Instagram', username: string, proxy?: string) {
  await page
    .getByRole('button', { name: /Add Account/ })
    .first()
    .click()
  const wizard = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await expect(wizard.getByText('Ready to Add Account')).toBeVisible()
  await wizard.getByRole('button', { name: new RegExp(platform) }).click()
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByLabel('Username').fill(username)
  if (proxy) await wizard.getByLabel(/Proxy/).fill(proxy)
  await wizard.getByRole('button', { name: 'Next' }).click()
  return wizard
}

test('an X account without its X Chat passcode is not "connected": the real cause, the fix, then a retry that works', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await newCustomer(page, 'passcode')
  const accountsTab = page.getByRole('tab', { name: /Social Accounts/ })
  await expect(accountsTab).not.toContainText('1')
  const x = await xSandboxAccount()
  expect(x.passcode).toMatch(/^\d{4}$/)
  const wizard = await openWizard(page, 'Twitter', x.username)
  await expect(wizard.getByText(/X asks for this 4-digit passcode/)).toBeVisible()
  await wizard.getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: 'Add Account' }).click()

  const check = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await expect(check.getByText(new RegExp(`Signing in to X as @${x.username}`))).toBeVisible()
  await expect(page.getByText('Account connected successfully!')).toHaveCount(0)
  // the count follows at once, without a reload
  await expect(accountsTab).toContainText('1')
  const failure = check.getByRole('alert')
  await expect(failure).toContainText(`@${x.username} could not be connected`, { timeout: 120_000 })
  await expect(failure).toContainText(/passcode/i)
  await expect(failure).toContainText('Choose “Change details and retry”, enter your X Chat passcode')
  await expect(page.getByText('Account connected successfully!')).toHaveCount(0)

  // retry: the failed account is removed and the filled form comes back
  await check.getByRole('button', { name: 'Change details and retry' }).click()
  await expect(wizard.getByLabel('Cookies (JSON)')).toHaveValue(JSON.stringify(x.cookies))
  await wizard.getByLabel('X Chat passcode').fill(x.passcode ?? '')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: 'Add Account' }).click()
  await expect(page.getByText('Account connected successfully!')).toBeVisible({ timeout: 120_000 })
  await expect(check.getByText(`@${x.username} is connected and ready for outreach.`)).toBeVisible()
  await check.getByRole('button', { name: 'Done' }).click()
  const card = page.getByTestId('account-card').filter({ hasText: x.username })
  await expect(card).toContainText('Active')
  await expect(accountsTab).toContainText('1')
  // Last Sync is the real first inbox sync, queued when the test passed (not "Never" for 15 min)
  await expect(async () => {
    await page.reload()
    await expect(card).not.toContainText('Never', { timeout: 2_000 })
  }).toPass({ timeout: 90_000, intervals: [2_000, 3_000, 5_000] })
})

test('a proxy that cannot be reached is named, and the account is not Active', async ({ page }) => {
  test.setTimeout(300_000)
  await newCustomer(page, 'proxy')
  const x = await xSandboxAccount()
  const wizard = await openWizard(page, 'Twitter', x.username, 'alice:s3cret@203.0.113.1:3128')
  await wizard.getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  await wizard.getByLabel('X Chat passcode').fill(x.passcode ?? '')
  await wizard.getByRole('button', { name: 'Next' }).click()
  // the review shows the proxy without its login
  await expect(wizard.getByText('203.0.113.1:3128')).toBeVisible()
  await expect(wizard.getByText(/s3cret/)).toHaveCount(0)
  await wizard.getByRole('button', { name: 'Add Account' }).click()
  const check = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await expect(check.getByText(/through 203\.0\.113\.1:3128/)).toBeVisible()
  const failure = check.getByRole('alert')
  await expect(failure).toContainText(
    /Proxy 203\.0\.113\.1:3128 (could not be reached|did not answer|could not reach|refused)/,
    {
      timeout: 120_000,
    },
  )
  await expect(failure).toContainText('Choose “Change details and retry”, fix the proxy')
  await expect(page.getByText('Account connected successfully!')).toHaveCount(0)
  await check.getByRole('button', { name: 'Fix it later' }).click()
  const card = page.getByTestId('account-card').filter({ hasText: x.username })
  await expect(card).not.toContainText('Active')
  await expect(card).toContainText('203.0.113.1:3128')
})

test('a wrong Instagram password shows the failure in the wizard, never a success first', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await newCustomer(page, 'igpass')
  const username = `rf_ig_${Date.now().toString(36)}`
  const created = await fetch(`${igBase}/__sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'the-right-password', twoFactor: false }),
  })
  expect(created.ok).toBe(true)
  const wizard = await openWizard(page, 'Instagram', username)
  await wizard.getByLabel('Instagram password').fill('not-the-password')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: 'Add Account' }).click()
  const check = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await expect(check.getByText(new RegExp(`Signing in to Instagram as @${username}`))).toBeVisible()
  await expect(page.getByText('Account connected successfully!')).toHaveCount(0)
  const failure = check.getByRole('alert')
  await expect(failure).toContainText(`@${username} could not be connected`, { timeout: 120_000 })
  await expect(failure).toContainText('Choose “Change details and retry”, check the password and 2FA key')
  await expect(page.getByText('Account connected successfully!')).toHaveCount(0)
})

test('Edit account fixes a failed account without deleting it: passcode entered, re-tested, Active', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await newCustomer(page, 'edit')
  const x = await xSandboxAccount()
  const wizard = await openWizard(page, 'Twitter', x.username)
  await wizard.getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: 'Add Account' }).click()
  const check = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await expect(check.getByRole('alert')).toContainText(
    'Choose “Change details and retry”, enter your X Chat passcode',
    { timeout: 120_000 },
  )
  await check.getByRole('button', { name: 'Fix it later' }).click()

  // The card tells the truth: not connected, and why.
  const card = page.getByTestId('account-card').filter({ hasText: x.username })
  await expect(card).not.toContainText('Active')
  await expect(card).toContainText(/passcode/i)
  await card.getByRole('button', { name: `Edit @${x.username}` }).click()
  const edit = page.getByRole('dialog', { name: `Edit @${x.username}` })
  await edit.getByLabel('X Chat passcode').fill(x.passcode ?? '')
  await edit.getByRole('button', { name: 'Save and test' }).click()
  await expect(edit.getByText(new RegExp(`Signing in to X as @${x.username}`))).toBeVisible()
  await expect(edit.getByText(`@${x.username} is connected and ready for outreach.`)).toBeVisible({
    timeout: 120_000,
  })
  await edit.getByRole('button', { name: 'Done' }).click()
  await expect(card).toContainText('Active')
  await expect(page.getByTestId('account-card')).toHaveCount(1)

  // Deleting the account pauses its scraping campaign with what to do, and offers no Resume.
  const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? ''
  const lookup = await fetch(
    `${apiUrl}/rest/v1/social_accounts?select=id,user_id&username=eq.${encodeURIComponent(x.username)}`,
    { headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` } },
  )
  const [row] = (await lookup.json()) as { id: string; user_id: string }[]
  if (!row) throw new Error('account not found')
  await insertAsService('scraping_campaigns', [
    {
      user_id: row.user_id,
      account_id: row.id,
      name: 'Founders on X',
      sources: [{ type: 'followers', value: 'levelsio' }],
      target_count: 50,
      status: 'running',
    },
  ])
  await card.getByRole('button', { name: `Delete @${x.username}` }).click()
  await page
    .getByRole('dialog', { name: 'Delete account?' })
    .getByRole('button', { name: 'Delete Account' })
    .click()
  await expect(page.getByTestId('account-card')).toHaveCount(0)
  await page.getByRole('tab', { name: /Lead Scraping/ }).click()
  const scraping = page.getByTestId('scraping-card').filter({ hasText: 'Founders on X' })
  await expect(scraping).toContainText('Paused')
  await expect(scraping).toContainText(
    'Its account was deleted. Create a new scraping campaign with another account.',
  )
  await expect(scraping.getByRole('button', { name: /Resume|Start/ })).toHaveCount(0)
})
