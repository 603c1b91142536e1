// Per-variant results on the real stack: a DM campaign with two opening messages,
// created in the wizard, is sent by the real runner through the X sandbox; some leads answer on X;
// the campaign's details show sent, replies and reply rate per variant and how sure the numbers are.
// The account and a finished lead source are set up directly (the outreach flow covers those screens).
import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import { testInt } from '../../stack/src/test-seed.ts'
import { completeOnboarding, runnerForTheseTests, runSchedulerNow } from './runner-process'
import { apiUrl, dialog, scheduleAlwaysOpen, signUpThroughApi, uniqueEmail, xSandbox } from './support'

const VARIANT_A = 'Hi {name}, quick question about what you build?'
const VARIANT_B = 'Hey {name}! Open to a short chat this week?'
const LEADS = 6

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** The signed-in customer's access token, as supabase-js keeps it. */
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

test.describe('per-variant results', () => {
  test.setTimeout(600_000)
  runnerForTheseTests()

  test('two opening messages → sends and replies → sent, replies and reply rate per variant', async ({
    page,
  }) => {
    const username = `rf_var_${Date.now().toString(36)}`
    const xAccount = await xSandbox<{ cookies: unknown[] }>('accounts', {
      method: 'POST',
      body: { username, passcode: '1234', behaviour: { replyShare: 0 } },
    })
    const offset = testInt('variant-results people', 3_000)
    const { profiles } = await xSandbox<{ profiles: { username: string; name: string }[] }>(
      `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=${LEADS}&offset=${offset}`,
    )
    expect(profiles).toHaveLength(LEADS)

    const email = uniqueEmail('variants')
    await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)
    const created = await fetch(`${apiUrl}/functions/v1/api/social-accounts`, {
      method: 'POST',
      headers: {
        apikey: process.env.SUPABASE_ANON_KEY ?? '',
        Authorization: `Bearer ${await accessToken(page)}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        platform: 'twitter',
        username,
        authData: { cookies: xAccount.cookies, chatPasscode: '1234' },
        proxyUrl: null,
      }),
    })
    expect(created.status).toBe(201)
    const accountId = ((await created.json()) as { id: string }).id
    // the runner's connect test makes the account active
    await expect
      .poll(
        async () =>
          (
            await sql<{ status: string }>('select status from public.social_accounts where id = $1', [
              accountId,
            ])
          )[0]?.status,
        { timeout: 180_000, intervals: [2_000] },
      )
      .toBe('active')
    // A finished lead source with real sandbox people (the scraping run itself is the outreach flow's).
    const [source] = await sql<{ id: string }>(
      `insert into public.scraping_campaigns (user_id, account_id, name, sources, target_count, status, leads_collected)
       select user_id, id, 'Variant test leads', '[{"type": "keyword", "value": "saas"}]', $2, 'completed', $2
         from public.social_accounts where id = $1 returning id`,
      [accountId, LEADS],
    )
    await sql(
      `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered)
       select $1, c.user_id, p.username, jsonb_build_object('display_name', p.name), false
         from public.scraping_campaigns c, jsonb_to_recordset($2::jsonb) as p (username text, name text)
        where c.id = $1`,
      [source?.id, JSON.stringify(profiles)],
    )

    // The wizard: two opening messages and the winner rule.
    await page.goto('/dashboard')
    await page.getByRole('button', { name: 'New Campaign' }).first().click()
    await dialog(page)
      .getByLabel('Send from account')
      .selectOption({ label: `@${username} · Twitter` })
    await dialog(page).getByLabel('Campaign name').fill('Variant test')
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page)
      .getByRole('button', { name: /Variant test leads/ })
      .click()
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Initial message 1').fill(VARIANT_A)
    await dialog(page).getByLabel('Initial message 2').fill(VARIANT_B)
    // A follow-up three days later keeps the campaign running after the six DMs: the scheduler
    // completes a campaign with nothing left to send (in its own minute of ten), which locks the rule.
    await dialog(page)
      .getByLabel(/Send follow-ups/)
      .check()
    await dialog(page).getByLabel('Follow-up 1', { exact: true }).fill('Just bumping this, {name}.')
    await dialog(page)
      .getByLabel(/Use the winner after N sends per variant/)
      .check()
    await dialog(page).getByLabel('Sends per variant before choosing').fill('30')
    await dialog(page).getByLabel('Sends per variant before choosing').scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('wizard-winner-rule-desktop.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    await dialog(page).getByLabel('Sends per variant before choosing').scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('wizard-winner-rule-390.png') })
    await page.setViewportSize({ width: 1280, height: 800 })
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await scheduleAlwaysOpen(page)
    await expect(dialog(page).getByText('Only the winner after 30 sends per variant')).toBeVisible()
    await dialog(page)
      .getByLabel(/Start sending right away/)
      .check()
    await dialog(page).getByRole('button', { name: 'Create & Start' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)

    // The runner sends all six, three of each (the variants are kept balanced).
    type Delivery = { recipientUsername: string; text: string }
    let delivered: Delivery[] = []
    await expect(async () => {
      await runSchedulerNow()
      delivered = (await xSandbox<{ deliveries: Delivery[] }>(`deliveries?account=${username}`)).deliveries
      expect(delivered).toHaveLength(LEADS)
    }).toPass({ timeout: 240_000, intervals: [3_000, 5_000] })
    const gotA = delivered.filter((d) => d.text.startsWith('Hi ')).map((d) => d.recipientUsername)
    const gotB = delivered.filter((d) => d.text.startsWith('Hey ')).map((d) => d.recipientUsername)
    expect([gotA.length, gotB.length]).toEqual([3, 3])

    // Two who got A answer, one who got B.
    for (const from of [gotA[0], gotA[1], gotB[0]])
      await xSandbox('messages', {
        method: 'POST',
        body: { account: username, from, text: 'Sure, tell me more!' },
      })
    await expect(async () => {
      await runSchedulerNow(accountId)
      const [replied] = await sql<{ n: number }>(
        `select count(*)::int as n from public.campaign_leads l join public.campaigns c on c.id = l.campaign_id
          where c.account_id = $1 and l.replied_at is not null`,
        [accountId],
      )
      expect(replied?.n).toBe(3)
    }).toPass({ timeout: 180_000, intervals: [3_000, 5_000] })

    // Campaign details → Analytics: the results per message.
    await page.reload()
    await page.getByTestId('campaign-card').filter({ hasText: 'Variant test' }).click()
    // each message says which variant it was
    await dialog(page).getByRole('tab', { name: 'Messages' }).click()
    const messages = dialog(page).getByTestId('campaign-messages').getByRole('listitem')
    await expect(messages.filter({ hasText: `@${gotA[0]}` })).toContainText('Initial message · Variant A')
    await expect(messages.filter({ hasText: `@${gotB[0]}` })).toContainText('Initial message · Variant B')
    await dialog(page).getByRole('tab', { name: 'Analytics' }).click()
    const results = dialog(page).getByTestId('campaign-variants')
    const variant = (label: string) => results.locator(`[data-testid="variant-row"][data-variant="${label}"]`)
    await expect(variant('Variant A')).toContainText('quick question about what you build?')
    await expect(variant('Variant A').getByTestId('variant-sent')).toHaveText('3')
    await expect(variant('Variant A').getByTestId('variant-replies')).toHaveText('2')
    await expect(variant('Variant A').getByTestId('variant-rate')).toHaveText('66.7%')
    await expect(variant('Variant B')).toContainText('Open to a short chat this week?')
    await expect(variant('Variant B').getByTestId('variant-sent')).toHaveText('3')
    await expect(variant('Variant B').getByTestId('variant-replies')).toHaveText('1')
    await expect(variant('Variant B').getByTestId('variant-rate')).toHaveText('33.3%')
    // 3 sends each say little: the hint says how many more it takes (30 per variant at least)
    await expect(results.getByTestId('variant-hint')).toHaveText(
      'Too early to tell — need ~27 more sends per variant',
    )
    await expect(results.getByLabel(/Use the winner after N sends per variant/)).toBeChecked()
    await expect(results.getByLabel('Sends per variant', { exact: true })).toHaveValue('30')

    // for looking at (docs/screenshots keeps the reviewed copies)
    await page.screenshot({ path: test.info().outputPath('variant-results-desktop.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    await results.scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('variant-results-390.png') })
    await page.setViewportSize({ width: 1280, height: 800 })

    // The rule is editable on the campaign: off, saved, and the details follow.
    await results.getByLabel(/Use the winner after N sends per variant/).uncheck()
    await results.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('All messages keep rotating')).toBeVisible()
    await expect
      .poll(
        async () =>
          (
            await sql<{ n: number | null }>(
              `select winner_after_sends as n from public.campaigns where account_id = $1`,
              [accountId],
            )
          )[0]?.n,
      )
      .toBeNull()
  })
})
