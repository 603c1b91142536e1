// X and Instagram as they are in 2026, end to end on the real stack: an X account connected by
// cookies and passcode (the cookie check says only that X did not reject them; the runner's browser
// test connects it), a campaign whose DMs each reach the X sandbox exactly once through X Chat's
// shadow root, the lead's reply read from the page X Chat decrypted (its payloads are encrypted on
// the network), and the customer's answer from the inbox delivered once. Then an Instagram account
// signed in through the nameless login fields and a TOTP code, and its campaign DM delivered once.
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import {
  accountIdOf,
  completeOnboarding,
  type Lead,
  runnerForTheseTests,
  runningCampaign,
  runSchedulerNow,
} from './runner-process'
import { dialog, signUpThroughApi, uniqueEmail, xSandbox } from './support'

const igBase = process.env.INSTAGRAM_BASE_URL ?? 'http://127.0.0.1:55342'

async function igSandbox<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(`${igBase}/__sandbox/${path}`, {
    method: init?.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  })
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** Until `check` passes, running the scheduler's minute (and the account's inbox sync) between tries. */
async function eventually(page: Page, check: () => Promise<void>, accountId: string, reload = false) {
  await expect(async () => {
    try {
      await check()
    } catch (error) {
      await runSchedulerNow(accountId)
      if (reload) await page.reload()
      throw error
    }
  }).toPass({ timeout: 240_000, intervals: [3_000, 5_000, 8_000] })
}

async function openWizard(page: Page, platform: 'Twitter' | 'Instagram', username: string) {
  await page.goto('/dashboard?tab=social-accounts')
  await page.getByRole('button', { name: 'Add Account' }).first().click()
  await expect(dialog(page).getByText('Ready to Add Account')).toBeVisible()
  await dialog(page)
    .getByRole('button', { name: new RegExp(platform) })
    .click()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Username').fill(`@${username}`)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
}

test.describe('X and Instagram as they are in 2026', () => {
  test.setTimeout(600_000)
  runnerForTheseTests()

  test('X: cookies and passcode → campaign → each DM once → the reply from the shadow-root thread → an answer once', async ({
    page,
  }, info) => {
    const username = `rf26_${Date.now().toString(36)}`
    const xAccount = await xSandbox<{ cookies: unknown[] }>('accounts', {
      method: 'POST',
      body: { username, passcode: '2026', behaviour: { replyShare: 0 } },
    })
    const offset = 11_000 + testInt('platforms-2026 people', 2000)
    const { profiles: leads } = await xSandbox<{ profiles: Lead[] }>(
      `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=3&offset=${offset}`,
    )
    expect(leads).toHaveLength(3)
    const email = uniqueEmail('x2026')
    await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)

    // The cookie check says what an HTTP request can know, and no more.
    await openWizard(page, 'Twitter', username)
    await dialog(page).getByLabel('Cookies (JSON)').fill(JSON.stringify(xAccount.cookies))
    await dialog(page).getByRole('button', { name: 'Validate cookies' }).click()
    const said = dialog(page).getByRole('status')
    await expect(said).toContainText('X did not reject these cookies.')
    await expect(said).not.toContainText(/valid|signed in as/i)
    await page.screenshot({ path: info.outputPath('cookie-check-1280.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: info.outputPath('cookie-check-390.png'), fullPage: true })
    await page.setViewportSize({ width: 1280, height: 800 })
    await dialog(page)
      .getByLabel(/X Chat passcode/)
      .fill('2026')
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByRole('button', { name: 'Add Account' }).click()
    // nothing says connected before the runner's browser test passed
    await expect(dialog(page).getByText(new RegExp(`Signing in to X as @${username}`))).toBeVisible()
    await expect(page.getByText('Account connected successfully!')).toHaveCount(0)
    await expect(dialog(page).getByText(`@${username} is connected and ready for outreach.`)).toBeVisible({
      timeout: 180_000,
    })
    await dialog(page).getByRole('button', { name: 'Done' }).click()
    const accountId = await accountIdOf(username)

    // Each DM reaches the lead exactly once, also after more scheduler minutes.
    await runningCampaign(accountId, leads)
    const deliveries = async () =>
      (
        await xSandbox<{ deliveries: { recipientUsername: string; text: string }[] }>(
          `deliveries?account=${username}`,
        )
      ).deliveries
    await eventually(page, async () => expect(await deliveries()).toHaveLength(3), accountId)
    await runSchedulerNow(accountId)
    await runSchedulerNow(accountId)
    const sent = await deliveries()
    expect(sent.map((d) => d.recipientUsername).sort()).toEqual(leads.map((l) => l.username).sort())
    for (const d of sent) expect(d.text).toMatch(/^Hi .+, a quick question about what you make\?$/)

    // The lead answers on X; the runner reads it from the thread X Chat decrypted into its shadow root.
    const [lead] = leads
    if (!lead) throw new Error('no lead')
    await xSandbox('messages', {
      method: 'POST',
      body: { account: username, from: lead.username, text: 'We make ceramic mugs by hand. And you?' },
    })
    await page.goto('/dashboard?tab=inbox')
    const thread = page.getByTestId('inbox-thread').filter({ hasText: `@${lead.username}` })
    await eventually(page, () => expect(thread).toBeVisible(), accountId, true)
    await thread.click()
    const conversation = page.getByRole('region', { name: `Conversation with @${lead.username}` })
    await expect(conversation.getByTestId('inbox-message').last()).toContainText(
      'We make ceramic mugs by hand. And you?',
    )

    // The answer from the inbox goes out once, typed into X Chat's React-controlled composer.
    const answer = 'A small studio for outreach tools. Coffee chat next week?'
    await conversation.getByLabel(`Your answer to @${lead.username}`).fill(answer)
    await conversation.getByLabel(`Your answer to @${lead.username}`).press('Control+Enter')
    const answered = conversation.getByTestId('inbox-message').filter({ hasText: answer })
    await expect(answered).toHaveAttribute('data-status', 'sent', { timeout: 180_000 })
    await runSchedulerNow(accountId)
    const toLead = (await deliveries()).filter((d) => d.recipientUsername === lead.username)
    expect(toLead.map((d) => d.text)).toEqual([
      sent.find((d) => d.recipientUsername === lead.username)?.text,
      answer,
    ])
  })

  test('Instagram: the nameless login fields and a TOTP code → connected → the campaign DM once', async ({
    page,
  }) => {
    const username = `rf26.ig.${Date.now().toString(36)}`
    const account = await igSandbox<{ password: string; totpSecret: string }>('accounts', {
      method: 'POST',
      body: { username },
    })
    expect(account.totpSecret).toMatch(/^[A-Z2-7]+$/)
    const { profiles } = await igSandbox<{ profiles: Lead[] }>(
      `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=1&offset=${8_000 + testInt('platforms-2026 lead', 2000)}`,
    )
    const lead = profiles[0]
    if (!lead) throw new Error('no Instagram profile to message')
    const email = uniqueEmail('ig2026')
    await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)

    await openWizard(page, 'Instagram', username)
    await dialog(page).getByLabel('Instagram password').fill(account.password)
    await dialog(page).getByLabel('2FA secret key').fill(account.totpSecret)
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByRole('button', { name: 'Add Account' }).click()
    await expect(dialog(page).getByText(new RegExp(`Signing in to Instagram as @${username}`))).toBeVisible()
    await expect(dialog(page).getByText(`@${username} is connected and ready for outreach.`)).toBeVisible({
      timeout: 180_000,
    })
    await dialog(page).getByRole('button', { name: 'Done' }).click()
    const accountId = await accountIdOf(username)

    await runningCampaign(accountId, [lead])
    const deliveries = async () =>
      (
        await igSandbox<{ deliveries: { recipientUsername: string; text: string }[] }>(
          `deliveries?account=${username}`,
        )
      ).deliveries
    await eventually(page, async () => expect(await deliveries()).toHaveLength(1), accountId)
    await runSchedulerNow(accountId)
    const [dm] = await deliveries()
    expect(await deliveries()).toHaveLength(1)
    expect(dm?.recipientUsername).toBe(lead.username)
    expect(dm?.text).toMatch(/^Hi .+, a quick question about what you make\?$/)
  })
})
