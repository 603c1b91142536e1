// The whole customer flow on the real stack: add an X account, scrape leads from the X
// sandbox through the runner, turn them into a DM campaign, launch it, and watch the sent messages
// and a reply arrive in the detail view, the stat cards and Today's Overview.
import { expect, type Page, test } from '@playwright/test'
import { accountIdOf, completeOnboarding, runnerForTheseTests, runSchedulerNow } from './runner-process'
import { dialog, scheduleAlwaysOpen, signUpThroughApi, uniqueEmail, xSandbox } from './support'

const TARGET = 5

/** Until `check` passes, running the scheduler's minute and reloading the tab between tries. */
async function eventually(page: Page, check: () => Promise<void>, accountId?: string, timeout = 180_000) {
  await expect(async () => {
    try {
      await check()
    } catch (error) {
      await runSchedulerNow(accountId)
      await page.reload()
      throw error
    }
  }).toPass({ timeout, intervals: [3_000, 5_000, 8_000] })
}

test.describe('outreach flow on the real stack', () => {
  test.setTimeout(600_000)
  runnerForTheseTests()

  test('add X account → scrape → DM campaign → launch → sends and a reply on the dashboard', async ({
    page,
  }) => {
    const username = `rf_e2e_${Date.now().toString(36)}`
    // Our X account in the sandbox; nobody answers on their own, the test sends the one reply.
    const xAccount = await xSandbox<{ cookies: unknown[] }>('accounts', {
      method: 'POST',
      body: { username, passcode: '1234', behaviour: { replyShare: 0 } },
    })
    const { profiles } = await xSandbox<{ profiles: { username: string }[] }>(
      'profiles?minFollowers=5000&canDm=true&limit=1',
    )
    const seed = profiles[0]
    if (!seed) throw new Error('no sandbox profile to scrape')

    const email = uniqueEmail('outreach')
    await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)

    // 1. Add Social Media Account.
    await page.goto('/dashboard?tab=social-accounts')
    await page.getByRole('button', { name: 'Add Account' }).first().click()
    await expect(dialog(page).getByText('Ready to Add Account')).toBeVisible()
    await dialog(page)
      .getByRole('button', { name: /Twitter/ })
      .click()
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Username').fill(`@${username}`)
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Cookies (JSON)').fill(JSON.stringify(xAccount.cookies))
    await dialog(page).getByRole('button', { name: 'Validate cookies' }).click()
    // over HTTP X can only be seen not to reject the cookies; the runner's test below connects them
    await expect(dialog(page).getByRole('status')).toContainText('X did not reject these cookies.')
    await dialog(page)
      .getByLabel(/X Chat passcode/)
      .fill('1234')
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByRole('button', { name: 'Add Account' }).click()
    // The wizard shows the runner's test of the new account until it is active.
    await expect(dialog(page).getByText(`@${username} is connected and ready for outreach.`)).toBeVisible({
      timeout: 180_000,
    })
    await dialog(page).getByRole('button', { name: 'Done' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const card = page.getByTestId('account-card').filter({ hasText: username })
    await expect(card).toBeVisible()
    const accountId = await accountIdOf(username)
    await eventually(page, () => expect(card.getByText('Active', { exact: true })).toBeVisible())

    // 2. Create a scraping campaign and start it.
    await page.goto('/dashboard?tab=lead-scraping')
    await page.getByRole('button', { name: 'New Campaign' }).last().click()
    await dialog(page).getByLabel('Campaign name').fill('E2E followers')
    await dialog(page)
      .getByLabel('Account')
      .selectOption({ label: `@${username} · Twitter` })
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Username').fill(`@${seed.username}`)
    await dialog(page).getByLabel('Target count').fill(String(TARGET))
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await expect(dialog(page).getByText(/created in pending status/)).toBeVisible()
    await dialog(page).getByRole('button', { name: 'Create Campaign' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const scrapeCard = page.getByTestId('scraping-card').filter({ hasText: 'E2E followers' })
    await scrapeCard.getByRole('button', { name: 'Start', exact: true }).click()
    await expect(scrapeCard.getByText('Running').first()).toBeVisible()

    // 3. Leads arrive from the X sandbox through the runner; the campaign completes.
    await eventually(
      page,
      () => expect(scrapeCard.getByText('Completed', { exact: true })).toBeVisible(),
      accountId,
    )
    await page.goto('/dashboard?tab=leads')
    await expect(page.getByRole('row')).not.toHaveCount(1)
    await expect(page.getByText(/Showing 1–\d+ of \d+ leads?/)).toBeVisible()

    // 4. A DM campaign from it, started at once, with a window that is open now.
    await page.goto('/dashboard')
    await page.getByRole('button', { name: 'New Campaign' }).first().click()
    await dialog(page)
      .getByLabel('Send from account')
      .selectOption({ label: `@${username} · Twitter` })
    await dialog(page).getByLabel('Campaign name').fill('E2E outreach')
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page)
      .getByRole('button', { name: /E2E followers/ })
      .click()
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Initial message 1').fill('Hi {name}, quick question about what you build?')
    await expect(dialog(page).getByText(/Preview for @/)).toBeVisible()
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await scheduleAlwaysOpen(page)
    await dialog(page)
      .getByLabel(/Start sending right away/)
      .check()
    await expect(dialog(page).getByText('Campaign will start immediately')).toBeVisible()
    await dialog(page).getByRole('button', { name: 'Create & Start' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const campaignCard = page.getByTestId('campaign-card').filter({ hasText: 'E2E outreach' })
    await expect(campaignCard.getByText('Active')).toBeVisible()

    // 5. The runner sends; the messages show in the detail view and the stat cards.
    await eventually(
      page,
      async () => {
        const { deliveries } = await xSandbox<{ deliveries: unknown[] }>(`deliveries?account=${username}`)
        expect(deliveries.length).toBeGreaterThan(0)
        await expect(page.getByTestId('stat-Messages Sent')).not.toHaveText('0')
      },
      accountId,
    )
    const { deliveries: delivered } = await xSandbox<{
      deliveries: { recipientUsername: string; text: string }[]
    }>(`deliveries?account=${username}`)
    expect(delivered[0]?.text).toMatch(/^Hi .+, quick question about what you build\?$/)
    const recipient = delivered[0]?.recipientUsername as string

    await campaignCard.click()
    await dialog(page).getByRole('tab', { name: 'Messages' }).click()
    await expect(dialog(page).getByTestId('campaign-messages')).toContainText(`@${recipient}`)
    await page.keyboard.press('Escape')

    // 6. The lead answers on X; the inbox sync records it; the reply shows.
    await xSandbox('messages', {
      method: 'POST',
      body: { account: username, from: recipient, text: 'Sure, happy to chat!' },
    })
    await eventually(
      page,
      async () => {
        await expect(page.getByTestId('today-replies').first()).toHaveText('1')
      },
      accountId,
    )
    await page.getByTestId('campaign-card').filter({ hasText: 'E2E outreach' }).click()
    await expect(dialog(page).getByTestId('detail-Responses')).toContainText('1')
    await expect(dialog(page).getByTestId('detail-Messages Sent')).not.toContainText(/^0/)
    await expect(dialog(page).getByTestId('detail-Reply Rate')).not.toHaveText('0%')
  })
})
