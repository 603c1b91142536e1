// Account cards and alerts that say true things: an official Instagram account's card shows the
// message that arrived through Meta's webhook, the week's count and that the webhook is live, not a
// browser account's Messages/Day, Requests Pending or Last Sync; an X account whose test failed in
// "Complete Your Setup" raises "Account needs attention", and "Change details and retry" (which
// deletes the attempt) resolves that alert. Screenshots at 1280 and 390 px go to
// CARDS_SCREENSHOTS_DIR when it is set.
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import { sql } from './db'
import { connectOfficial, metaControl, sandboxAccount } from './meta-sandbox'
import { runnerForTheseTests } from './runner-process'
import { signUpThroughApi, skipOnboarding, uniqueEmail, xSandboxAccount } from './support'

const shots = process.env.CARDS_SCREENSHOTS_DIR

runnerForTheseTests()

async function shoot(page: Page, name: string) {
  if (!shots) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

test('an official Instagram card shows the message received through the webhook, the week’s count and the live webhook', async ({
  page,
}) => {
  test.setTimeout(240_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('ig-card'), 'e2e-password-123'))
  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()
  await connectOfficial(page, account)
  const card = page.getByTestId('account-card').filter({ hasText: account.username })
  await expect(card).toContainText(/Last message received\s*None yet/)
  await expect(card).toContainText(/Webhook\s*No event yet/)

  const person = `ana_${testInt('account-cards person', 36 ** 6).toString(36)}`
  const dm = await metaControl<{ delivery_id: string | null }>('/messages', {
    account: account.username,
    from: person,
    text: 'Hi! Is the linen shirt back in stock?',
  })
  expect(dm.delivery_id).toBeTruthy()

  await expect(async () => {
    await page.reload()
    await expect(card).toContainText(/Received this week\s*1/, { timeout: 2_000 })
  }).toPass({ timeout: 90_000, intervals: [2_000, 3_000, 5_000] })
  await expect(card).toContainText(/Last message received\s*(Just now|\d+ minutes? ago)/)
  await expect(card).toContainText(/Webhook\s*Live/)
  await expect(card).toContainText(/Connected\s*Yes/)
  // a browser account's fields mean nothing for it
  for (const field of ['Messages/Day', 'Requests Pending', 'Last Sync'])
    await expect(card).not.toContainText(field)
  await shoot(page, 'instagram-official-card')
})

test('"Change details and retry" in Complete Your Setup resolves the failed attempt’s alert', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const email = uniqueEmail('setup-retry')
  const userId = await signUpThroughApi(page, email, 'e2e-password-123')
  await sql('update public.user_profiles set onboarding_completed = true where id = $1', [userId])
  await page.goto('/dashboard')
  const modal = page.getByRole('dialog', { name: 'Complete Your Setup' })
  await expect(modal.getByText('Ready to Add Account')).toBeVisible()
  const x = await xSandboxAccount()
  await modal.getByRole('button', { name: /Twitter/ }).click()
  await modal.getByLabel('Username').fill(x.username)
  await modal.getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  // no X Chat passcode: the runner's test fails and raises the alert
  await modal.getByRole('button', { name: 'Connect Account' }).click()
  await expect(modal.getByRole('alert')).toContainText(`@${x.username} could not be connected`, {
    timeout: 120_000,
  })
  const alerts = () =>
    sql<{ read: boolean; resolution: string | null }>(
      `select read, metadata ->> 'resolution' as resolution from public.notifications
        where user_id = $1 and type = 'account_flagged'`,
      [userId],
    )
  await expect.poll(alerts, { timeout: 30_000 }).toEqual([{ read: false, resolution: null }])

  await modal.getByRole('button', { name: 'Change details and retry' }).click()
  await expect(modal.getByLabel('Cookies (JSON)')).toBeVisible()
  await expect.poll(alerts, { timeout: 30_000 }).toEqual([{ read: true, resolution: 'deleted' }])
  // the bell no longer counts it, and the panel says why it is resolved
  await page.reload()
  await modal.getByRole('button', { name: 'Close' }).click()
  await expect(modal).toBeHidden()
  const bell = page.getByRole('button', { name: 'Notifications', exact: true })
  await expect(bell).toBeVisible()
  await bell.click()
  await expect(page.getByText('Resolved: the account was removed')).toBeVisible()
  await shoot(page, 'alert-resolved-after-retry')
})
