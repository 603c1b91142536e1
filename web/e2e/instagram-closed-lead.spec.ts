// An Instagram campaign of 10 leads of whom exactly one takes no messages, end to end on the real
// stack with the real runner and the Instagram sandbox's 2026 thread page: the nine others get the
// DM exactly once (the sandbox's delivery log), the one is shown skipped with its reason in the
// campaign's leads, and nothing is paused or flagged. Which lead refuses is chosen explicitly (the
// sandbox's canDm flag, nine open leads asked for as open), never drawn at random.
import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import {
  accountIdOf,
  completeOnboarding,
  type Lead,
  runnerForTheseTests,
  runningCampaign,
  runSchedulerNow,
} from './runner-process'
import { dialog, signUpThroughApi, uniqueEmail } from './support'

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

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

async function connectInstagram(
  page: Page,
  username: string,
  account: { password: string; totpSecret: string },
) {
  await page.goto('/dashboard?tab=social-accounts')
  await page.getByRole('button', { name: 'Add Account' }).first().click()
  await dialog(page)
    .getByRole('button', { name: /Instagram/ })
    .click()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Username').fill(`@${username}`)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Instagram password').fill(account.password)
  await dialog(page).getByLabel('2FA secret key').fill(account.totpSecret)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByRole('button', { name: 'Add Account' }).click()
  await expect(dialog(page).getByText(`@${username} is connected and ready for outreach.`)).toBeVisible({
    timeout: 180_000,
  })
  await dialog(page).getByRole('button', { name: 'Done' }).click()
}

test.describe('an Instagram lead who takes no messages', () => {
  test.setTimeout(600_000)
  runnerForTheseTests()

  test('10 leads, one refusing: nine DMs once, that one skipped with its reason, nothing paused or flagged', async ({
    page,
  }, info) => {
    const username = `rfclosed.${Date.now().toString(36)}`
    const account = await igSandbox<{ password: string; totpSecret: string }>('accounts', {
      method: 'POST',
      body: { username, behaviour: { replyShare: 0 } },
    })
    // a window of the population no other spec asks for; printed so a failure can be replayed
    const offset = 12_000 + (Date.now() % 2_000)
    console.log(`instagram-closed-lead: open leads from offset ${offset}`)
    const open = (
      await igSandbox<{ profiles: Lead[] }>(
        `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=9&offset=${offset}`,
      )
    ).profiles
    const [closed] = (
      await igSandbox<{ profiles: Lead[] }>(
        `profiles?canDm=false&protected=false&limit=1&offset=${offset % 500}`,
      )
    ).profiles
    expect(open).toHaveLength(9)
    if (!closed) throw new Error('no Instagram profile that takes no messages')
    const leads = [...open.slice(0, 4), closed, ...open.slice(4)]

    const email = uniqueEmail('igclosed')
    await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)
    await connectInstagram(page, username, account)
    const accountId = await accountIdOf(username)
    const campaignName = `Closed inbox ${username}`
    const campaignId = await runningCampaign(accountId, leads, { name: campaignName })

    const deliveries = async () =>
      (
        await igSandbox<{ deliveries: { recipientUsername: string; text: string }[] }>(
          `deliveries?account=${username}`,
        )
      ).deliveries
    const states = async () =>
      query<{ username: string; state: string; skip_reason: string | null }>(
        'select username, state, skip_reason from public.campaign_leads where campaign_id = $1',
        [campaignId],
      )
    await expect(async () => {
      try {
        expect((await states()).filter((l) => l.state === 'sent' || l.state === 'skipped')).toHaveLength(10)
      } catch (error) {
        await runSchedulerNow(accountId)
        throw error
      }
    }).toPass({ timeout: 300_000, intervals: [3_000, 5_000, 8_000] })
    // more scheduler minutes send nothing twice
    await runSchedulerNow(accountId)
    await runSchedulerNow(accountId)
    const sent = await deliveries()
    expect(sent.map((d) => d.recipientUsername).sort()).toEqual(open.map((l) => l.username).sort())
    expect((await states()).find((l) => l.username === closed.username)).toMatchObject({
      state: 'skipped',
      skip_reason: 'cannot_message',
    })

    // nothing counts against the account or pauses anything
    expect(
      await query('select status, flag_reason from public.social_accounts where id = $1', [accountId]),
    ).toEqual([{ status: 'active', flag_reason: null }])
    expect(
      await query(`select 1 from public.platform_action_pauses where platform = 'instagram'`, []),
    ).toEqual([])
    expect(
      await query(
        `select type from public.notifications n join public.social_accounts a on a.user_id = n.user_id
          where a.id = $1 and n.type = 'account_flagged'`,
        [accountId],
      ),
    ).toEqual([])

    await page.goto('/dashboard')
    const card = page.getByTestId('campaign-card').filter({ hasText: campaignName })
    await expect(card).not.toContainText(/paused/i)
    await card.click()
    const details = page.getByRole('dialog', { name: campaignName })
    await details.getByRole('tab', { name: 'Leads' }).click()
    const row = details.getByRole('row').filter({ hasText: `@${closed.username}` })
    await expect(row).toContainText('Skipped')
    // the notice Instagram showed, not the reason's name
    await expect(row.getByTestId('skip-reason')).toHaveText(
      /can't receive your message|can't be received|isn't accepting message requests/,
    )
    await expect(details.getByRole('row').filter({ hasText: 'Sent' })).toHaveCount(9)
    await row.scrollIntoViewIfNeeded()
    await page.screenshot({ path: info.outputPath('instagram-closed-lead-1280.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    await row.scrollIntoViewIfNeeded()
    await page.screenshot({ path: info.outputPath('instagram-closed-lead-390.png') })
  })
})
