// An X account connected through the X API, as a customer does it: the wizard compares the two
// ways, the customer registers the callback URI the wizard shows in their X developer app, pastes
// its keys, signs in on X (their x.com session) and authorizes the app on X's consent page, comes
// back connected; a running campaign then sends its DM through X API v2 (no browser), exactly once,
// and the lead's reply, read from the DM events endpoints, stops the follow-up due a day later.
// What X charges the customer's app is said where they decide (connect, the campaign's review) and
// what the requests the runner made cost this month is on the account card.
import { expect, type Page, test } from '@playwright/test'
import { formatUsd, type XApiUsageKind, xApiCostMills } from '@reachflow/domain'
import { testInt } from '../../stack/src/test-seed.ts'
import { sql } from './db'
import {
  accountIdOf,
  type Lead,
  runnerForTheseTests,
  runningCampaign,
  runSchedulerNow,
} from './runner-process'
import {
  signedInUserId,
  signUpThroughApi,
  skipOnboarding,
  uniqueEmail,
  xSandbox,
  xSandboxAccount,
} from './support'

const xBase = process.env.X_BASE_URL ?? 'http://127.0.0.1:54341'
/** Set to docs/screenshots (absolute) to refresh the screenshots of these screens. */
const shots = process.env.X_API_SCREENSHOTS_DIR

runnerForTheseTests()

async function shot(page: Page, name: string) {
  if (!shots) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    await page.screenshot({ path: `${shots}/x-official-${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Sets the database's and the X sandbox's clocks the same number of ms ahead of real time. */
async function setClocks(offsetMs: number) {
  await sql(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [offsetMs])
  await xSandbox('clock', { method: 'POST', body: { offsetMs } })
}

/** The billable X API units recorded for the account this month, by kind. */
async function usageOf(accountId: string): Promise<Partial<Record<XApiUsageKind, number>>> {
  const rows = await sql<{ kind: XApiUsageKind; units: number }>(
    `select kind, count(*)::int as units from public.x_api_usage
      where account_id = $1 and day >= date_trunc('month', timezone('UTC', internal.now()))::date group by kind`,
    [accountId],
  )
  return Object.fromEntries(rows.map((r) => [r.kind, r.units]))
}

/** Walks the New Campaign wizard to its review with the account and a daily limit (nothing is created). */
async function reviewCampaignAt(page: Page, username: string, dailyLimit: number) {
  const userId = await signedInUserId(page)
  // leads come from a finished scrape, which only a browser account runs: one with a plan for two
  await sql(
    `insert into public.subscriptions (user_id, status, plan_type, accounts_purchased) values ($1, 'active', 'growth', 2)`,
    [userId],
  )
  const [scraper] = await sql<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
     select $1, p.id, $2, 'error', 5 from public.platforms p where p.name = 'twitter' returning id`,
    [userId, `scraper_${Date.now().toString(36)}`],
  )
  const [source] = await sql<{ id: string }>(
    `insert into public.scraping_campaigns (user_id, account_id, name, sources, target_count)
     values ($1, $2, 'Founders list', '[{"type": "followers", "value": "x"}]', 2) returning id`,
    [userId, scraper?.id],
  )
  await sql(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, source_type, source_value)
     select $1, $2, 'founder' || g || '_' || $3, '{}', 'followers', 'x' from generate_series(1, 2) g`,
    [source?.id, userId, username],
  )
  await sql(`update public.scraping_campaigns set status = 'completed' where id = $1`, [source?.id])
  await page.getByRole('button', { name: 'New Campaign' }).first().click()
  const wizard = page.getByRole('dialog', { name: 'Create New Campaign' })
  await wizard.getByLabel('Send from account').selectOption({ label: `@${username} · Twitter` })
  await wizard.getByLabel('Campaign name').fill('X API costs')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: /Founders list/ }).click()
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByLabel('Initial message 1').fill('Hi {name}, a quick question?')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByLabel('Daily message limit').fill(String(dailyLimit))
  await wizard.getByRole('button', { name: 'Next' }).click()
  await expect(wizard.getByTestId('dm-review-mode')).toBeVisible()
}

test('a customer connects X through their developer app; a campaign DM goes out through the X API once and a reply stops its follow-up', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000)
  const email = uniqueEmail('xapi')
  await skipOnboarding(await signUpThroughApi(page, email, 'e2e-password-123'))
  await page.goto('/dashboard?tab=social-accounts')

  // the customer is signed in on x.com in this browser (the sandbox's cookie session)
  const x = await xSandboxAccount({ passcode: null, behaviour: { replyShare: 0 } })
  const host = new URL(xBase).hostname
  await context.addCookies(
    (x.cookies as { name: string; value: string }[])
      .filter((c) => c.name === 'auth_token' || c.name === 'ct0')
      .map((c) => ({ name: c.name, value: c.value, domain: host, path: '/' })),
  )

  await page
    .getByRole('button', { name: /Add Account/ })
    .first()
    .click()
  const wizard = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await wizard.getByRole('button', { name: /Twitter/ }).click()
  await expect(wizard.getByRole('radio', { name: /Browser sign-in/ })).toBeChecked()
  await wizard.getByRole('radio', { name: /X API \(your developer app\)/ }).check()
  await shot(page, 'choice')
  await wizard.getByRole('button', { name: 'Next' }).click()

  const connect = page.getByRole('dialog', { name: 'Connect X through the X API' })
  await expect(connect.getByTestId('x-callback-uri')).toHaveText(/\/connect\/x\/callback$/)
  const callback = (await connect.getByTestId('x-callback-uri').textContent())?.trim() ?? ''
  // on developer.x.com: an app with that callback URI, and its OAuth 2.0 keys
  const app = await xSandbox<{ clientId: string; clientSecret: string }>('x-api/apps', {
    method: 'POST',
    body: { name: 'Acme Outreach', callbackUrls: [callback] },
  })
  await connect.getByLabel('Client ID').fill(app.clientId)
  await connect.getByLabel('Client Secret').fill(`${app.clientSecret.slice(0, -3)}abc`)
  await connect.getByRole('button', { name: 'Continue to X' }).click()
  await expect(connect.getByRole('alert')).toContainText('X did not accept this Client ID and Client Secret')
  await connect.getByLabel('Client Secret').fill(app.clientSecret)
  // X's pay-per-use cost, before the customer commits, at the account's default 50 DMs a day
  const cost = connect.getByTestId('x-api-cost')
  await expect(cost).toContainText(
    'About $0.75 a day at 50 DMs, plus up to $3.50 a day for reading the inbox.',
  )
  await expect(cost).toContainText('$0.015 a DM sent, $0.010 a DM event read')
  await shot(page, 'keys')
  await connect.getByRole('button', { name: 'Continue to X' }).click()

  // X's consent page
  await expect(
    page.getByRole('heading', { name: 'Acme Outreach wants to access your X account.' }),
  ).toBeVisible()
  await expect(page.getByText(`@${x.username}`)).toBeVisible()
  await page.getByRole('button', { name: 'Authorize app' }).click()

  await expect(page.getByRole('heading', { name: 'X account connected' })).toBeVisible({ timeout: 30_000 })
  // which Reachflow workspace the X account joined
  await expect(page.getByText(email)).toBeVisible()
  await expect(page.getByText(`@${x.username} is connected through the X API`)).toBeVisible()
  await shot(page, 'connected')
  await page.getByRole('link', { name: 'Go to Social Accounts' }).click()
  const card = page.getByTestId('account-card').filter({ hasText: x.username })
  await expect(card).toContainText('X API')
  await expect(card).toContainText('Active')
  const accountId = await accountIdOf(x.username)
  // connecting read the account's own profile once ($0.001)
  await expect(card).toContainText(/X API spent this month\s*\$0\.01/)
  await expect(page.getByText('X API spent this month')).toHaveCount(1)

  // the campaign's review says what X will charge at its daily limit
  await reviewCampaignAt(page, x.username, 100)
  await expect(
    page.getByRole('dialog', { name: 'Create New Campaign' }).getByTestId('x-api-cost'),
  ).toContainText('About $1.50 a day at 100 DMs, plus up to $4.00 a day for reading the inbox.')
  await shot(page, 'review-cost')
  await page.goto('/dashboard?tab=social-accounts')

  // a running campaign to two leads: the runner sends through the API, exactly once each
  const leads = await xSandbox<{ profiles: Lead[] }>(
    `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=2&offset=${testInt('x-official people', 4000)}`,
  ).then((r) => r.profiles)
  const [answering, silent] = leads
  if (!answering || !silent) throw new Error('no leads')
  const campaignId = await runningCampaign(accountId, leads, { name: 'X API campaign', followUpDays: 1 })
  const deliveries = () =>
    xSandbox<{ deliveries: { recipientUsername: string; text: string }[] }>(
      `deliveries?account=${x.username}`,
    ).then((r) => r.deliveries)
  const sentTo = (username: string) =>
    deliveries().then((all) => all.filter((d) => d.recipientUsername === username).map((d) => d.text))
  await expect
    .poll(
      async () => {
        await runSchedulerNow()
        return (await deliveries()).map((d) => d.recipientUsername).sort()
      },
      { timeout: 180_000, intervals: [2000] },
    )
    .toEqual([answering.username, silent.username].sort())
  // more scheduler minutes send nothing more
  for (let i = 0; i < 3; i++) {
    await runSchedulerNow()
    await page.waitForTimeout(1500)
  }
  expect(await deliveries()).toHaveLength(2)
  // the card's month: what the runner's requests cost, priced from the one table; two DMs created
  const units = await usageOf(accountId)
  expect(units.dm_create).toBe(2)
  await page.reload()
  await expect(card).toContainText(`X API spent this month${formatUsd(xApiCostMills(units))}`)
  expect(xApiCostMills(units)).toBeGreaterThanOrEqual(31)
  await shot(page, 'card-spend')

  // one lead answers on x.com; the account's inbox sync reads it from the DM events endpoints
  await xSandbox('messages', {
    method: 'POST',
    body: { account: x.username, from: answering.username, text: 'Happy to talk, what is it about?' },
  })
  const leadRow = (username: string) =>
    sql<{ reply_text: string | null; next_send_at: string | null }>(
      'select reply_text, next_send_at from public.campaign_leads where campaign_id = $1 and username = $2',
      [campaignId, username],
    ).then((rows) => rows[0])
  await expect
    .poll(
      async () => {
        await runSchedulerNow(accountId)
        return (await leadRow(answering.username))?.reply_text
      },
      { timeout: 120_000, intervals: [3000] },
    )
    .toBe('Happy to talk, what is it about?')
  expect((await leadRow(answering.username))?.next_send_at).toBeNull()
  expect((await leadRow(silent.username))?.next_send_at).not.toBeNull()
  try {
    // a day and an hour later both follow-ups would be due: only the silent lead gets one
    await setClocks(25 * 3_600_000)
    await expect
      .poll(
        async () => {
          await runSchedulerNow()
          return sentTo(silent.username)
        },
        { timeout: 180_000, intervals: [3000] },
      )
      .toEqual([expect.stringContaining('a quick question'), expect.stringContaining('Just bumping this')])
    expect(await sentTo(answering.username)).toEqual([expect.stringContaining('a quick question')])
  } finally {
    await setClocks(0)
  }
})
