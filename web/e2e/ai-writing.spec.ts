// AI writing on the real stack against the AI sandbox: drafting in the DM wizard
// and its failure modes (timeout, 429, malformed) leaving the customer's messages alone; then the
// whole loop with the runner: a scraping campaign filtered by AI (one lead the AI could not score is
// kept), a DM campaign drafted with AI and personalised per lead, whose DMs in the X sandbox are the
// texts dm_logs stores: one personalised, the others the template after a timeout, a 429 and a
// malformed answer, each shown in the campaign's messages with the reason.
import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import { adminPage } from './admin-support'
import { completeOnboarding, E2eRunner, runSchedulerNow } from './runner-process'
import { apiUrl, dialog, scheduleAlwaysOpen, signUpThroughApi, uniqueEmail, xSandboxAccount } from './support'

const xBase = process.env.X_BASE_URL ?? 'http://127.0.0.1:54341'
const aiBase = process.env.AI_SANDBOX_URL ?? 'http://127.0.0.1:54345'
const shots = process.env.AI_SCREENSHOTS_DIR

async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
) {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

async function fault(mode: string, match: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${aiBase}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, match, ...extra }),
  })
  expect(response.status).toBe(201)
}

async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? ''
      if (/^sb-.*-auth-token$/.test(key)) return JSON.parse(localStorage.getItem(key) ?? '{}')?.access_token
    }
    return undefined
  })
  if (typeof token !== 'string') throw new Error('not signed in')
  return token
}

/** A new customer with a plan and an active X account connected through the api (cookies sealed there). */
async function customerWithXAccount(page: Page, tag: string) {
  const email = uniqueEmail(tag)
  const userId = await signUpThroughApi(page, email, 'e2e-password-123')
  await completeOnboarding(email)
  await sql(
    `insert into public.subscriptions (user_id, status, plan_type, accounts_purchased, stripe_subscription_id)
     values ($1, 'active', 'growth', 3, $2)`,
    [userId, `sub_e2e_${userId.slice(0, 12)}`],
  )
  const x = await xSandboxAccount()
  const response = await fetch(`${apiUrl}/functions/v1/api/social-accounts`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      apikey: process.env.SUPABASE_ANON_KEY ?? '',
      authorization: `Bearer ${await accessToken(page)}`,
    },
    body: JSON.stringify({
      platform: 'twitter',
      username: x.username,
      authData: { cookies: x.cookies, chatPasscode: x.passcode },
    }),
  })
  expect(response.status, await response.text()).toBe(201)
  const [account] = await sql<{ id: string }>(
    `update public.social_accounts set status = 'active', warmup_phase = 5 where username = $1 returning id`,
    [x.username],
  )
  return { userId, email, xUsername: x.username, accountId: account?.id as string }
}

/** Opens the DM wizard at its messages step with `source` as the lead source. */
async function openMessagesStep(page: Page, xUsername: string, source: string, name: string) {
  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'New Campaign' }).first().click()
  await dialog(page)
    .getByLabel('Send from account')
    .selectOption({ label: `@${xUsername} · Twitter` })
  await dialog(page).getByLabel('Campaign name').fill(name)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page)
    .getByRole('button', { name: new RegExp(source) })
    .click()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
}

async function askForDrafts(page: Page, goal: string) {
  await page.getByRole('button', { name: 'Write with AI' }).click()
  const ai = page.getByRole('dialog', { name: 'Write with AI' })
  await ai.getByLabel('Campaign goal').fill(goal)
  await ai.getByLabel('Your offer').fill('Done-for-you SEO audits for early-stage SaaS')
  await ai.getByLabel('Follow-ups').selectOption('1')
  await ai.getByRole('button', { name: 'Write drafts' }).click()
  return ai
}

test.describe('AI writing against the AI sandbox', () => {
  test.setTimeout(600_000)

  test('Write with AI drafts the messages; a timeout, a 429 and a malformed answer leave them and say why', async ({
    page,
    browser,
  }) => {
    const { userId, email, xUsername, accountId } = await customerWithXAccount(page, 'ai-draft')
    // a finished scraping campaign to message (the DM wizard offers completed ones only)
    const [scrape] = await sql<{ id: string }>(
      `insert into public.scraping_campaigns (user_id, name, account_id, sources)
       values ($1, 'Seeded founders', $2, '[{"type": "keyword", "value": "saas"}]') returning id`,
      [userId, accountId],
    )
    await sql(
      `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data)
       values ($1, $2, 'seeded_ann', '{"display_name": "Ann Lee"}')`,
      [scrape?.id, userId],
    )
    await sql(`update public.scraping_campaigns set status = 'completed' where id = $1`, [scrape?.id])

    await openMessagesStep(page, xUsername, 'Seeded founders', 'AI drafted outreach')
    await page.getByLabel('Initial message 1').fill('My own opener, {name}')
    const goal = `Book intro calls ${Date.now()}`
    for (const [mode, extra, text] of [
      ['hang', {}, 'The AI service did not answer in time.'],
      ['429', { times: 2, retryAfter: 0 }, 'The AI service is rate limiting requests.'],
      ['non_json', {}, 'The AI service sent an answer that could not be used. (not JSON)'],
    ] as const) {
      await fault(mode, goal, extra)
      const ai = await askForDrafts(page, goal)
      await expect(ai.getByRole('alert')).toHaveText(
        `Could not write drafts: ${text} Your messages are unchanged.`,
        { timeout: 60_000 },
      )
      if (mode === 'hang' && shots) {
        await page.screenshot({ path: `${shots}/ai-draft-failed-desktop.png` })
      }
      await ai.getByRole('button', { name: 'Cancel' }).click()
      await expect(page.getByLabel('Initial message 1')).toHaveValue('My own opener, {name}')
    }

    const ai = await askForDrafts(page, goal)
    await expect(ai).toHaveCount(0)
    await expect(page.getByRole('status').filter({ hasText: 'AI drafts added below' })).toBeVisible()
    await expect(page.getByLabel('Initial message 1')).toHaveValue(
      /^Hi \{name\}, I help people like you with done-for-you SEO audits for early-stage SaaS\./,
    )
    await expect(page.getByLabel('Initial message 3')).toHaveValue(/\{name\}/)
    await expect(page.locator('#dm-follow-up-0')).toHaveValue(/just bumping this/)
    await expect(dialog(page).getByText('Sandbox AI').first()).toBeVisible()
    if (shots) {
      await page.screenshot({ path: `${shots}/ai-messages-step-desktop.png`, fullPage: true })
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: `${shots}/ai-messages-step-mobile.png`, fullPage: true })
      await page.getByRole('button', { name: 'Write with AI' }).click()
      await page.screenshot({ path: `${shots}/ai-draft-dialog-mobile.png` })
      await page
        .getByRole('dialog', { name: 'Write with AI' })
        .getByRole('button', { name: 'Cancel' })
        .click()
      await page.setViewportSize({ width: 1280, height: 800 })
    }
    // drafting is counted in today's budget
    const [usage] = await sql<{ requests: number; failures: number }>(
      `select requests, failures from public.ai_usage where user_id = $1`,
      [userId],
    )
    expect(usage).toEqual({ requests: 4, failures: 3 })

    // operators see the workspace's use today in the admin overview, named with its owner's e-mail
    const { context, page: admin } = await adminPage(browser)
    try {
      await admin.goto('/admin')
      const card = admin.getByTestId('admin-ai-usage')
      const row = card.getByRole('row').filter({ hasText: email })
      const ownedBy = new RegExp(`${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
      await expect(row.getByRole('cell')).toHaveText([ownedBy, '4 / 300', /^\d[\d,]*$/, '0', '3'])
      if (shots) {
        await card.screenshot({ path: `${shots}/ai-admin-usage-desktop.png` })
        await admin.setViewportSize({ width: 390, height: 844 })
        await card.scrollIntoViewIfNeeded()
        await card.screenshot({ path: `${shots}/ai-admin-usage-mobile.png` })
      }
    } finally {
      await context.close()
    }
  })

  test('AI-filtered scraping, then personalised DMs sent through the X sandbox with fallbacks on timeout, 429 and malformed', async ({
    page,
  }) => {
    process.env.AI_TIMEOUT_MS = '3000'
    const runner = E2eRunner.start()
    try {
      const { userId, xUsername, accountId } = await customerWithXAccount(page, 'ai-loop')
      const seedResponse = await fetch(`${xBase}/__sandbox/profiles?minFollowers=5000&canDm=true&limit=1`)
      const seed = ((await seedResponse.json()) as { profiles: { username: string }[] }).profiles[0]
      if (!seed) throw new Error('no sandbox profile to scrape')

      // 1. A scraping campaign with an ideal customer; the first lead the AI is asked about gets a
      // malformed answer and must be kept, unscored.
      const ideal = `Founder building in public ${Date.now().toString(36)}`
      await fault('non_json', ideal)
      await page.goto('/dashboard?tab=lead-scraping')
      await page.getByRole('button', { name: 'New Campaign' }).last().click()
      await dialog(page).getByLabel('Campaign name').fill('AI founders')
      await dialog(page)
        .getByLabel('Account')
        .selectOption({ label: `@${xUsername} · Twitter` })
      await dialog(page).getByRole('button', { name: 'Next' }).click()
      await dialog(page).getByLabel('Username').fill(`@${seed.username}`)
      await dialog(page).getByLabel('Target count').fill('4')
      await dialog(page).getByRole('button', { name: 'Next' }).click()
      await dialog(page).getByLabel('Ideal customer').fill(ideal)
      await dialog(page).getByLabel('Minimum AI score').fill('50')
      if (shots) {
        await page.screenshot({ path: `${shots}/ai-scraping-filter-desktop.png` })
        await page.setViewportSize({ width: 390, height: 844 })
        await dialog(page).getByLabel('Ideal customer').scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${shots}/ai-scraping-filter-mobile.png` })
        await page.setViewportSize({ width: 1280, height: 800 })
      }
      await dialog(page).getByRole('button', { name: 'Next' }).click()
      await expect(dialog(page).getByText(/Score ≥ 50 for/)).toBeVisible()
      await dialog(page).getByRole('button', { name: 'Create Campaign' }).click()
      await expect(page.getByRole('dialog')).toHaveCount(0)
      const card = page.getByTestId('scraping-card').filter({ hasText: 'AI founders' })
      await card.getByRole('button', { name: 'Start', exact: true }).click()
      await expect(async () => {
        try {
          await expect(card.getByText('Completed', { exact: true })).toBeVisible({ timeout: 2_000 })
        } catch (error) {
          await runSchedulerNow(accountId)
          await page.reload()
          throw error
        }
      }).toPass({ timeout: 300_000, intervals: [3_000, 5_000] })

      const [counts] = await sql<{ ai_kept: number; ai_skipped: number; ai_unscored: number; leads: number }>(
        `select ai_kept, ai_skipped, ai_unscored, leads_collected as leads from public.scraping_campaigns
          where user_id = $1`,
        [userId],
      )
      expect(counts?.ai_unscored).toBe(1)
      expect(counts?.ai_skipped).toBeGreaterThan(0)
      expect((counts?.ai_kept ?? 0) + (counts?.ai_unscored ?? 0)).toBe(counts?.leads)
      await expect(card.getByTestId('ai-filter-counts')).toHaveText(
        `AI filter ≥ 50: ${counts?.ai_kept} kept · ${counts?.ai_skipped} skipped · 1 unscored`,
      )
      const reasons = await sql<{ filter_reason: string }>(
        `select filter_reason from public.scraping_campaign_leads l join public.scraping_campaigns c
            on c.id = l.scraping_campaign_id where c.user_id = $1 and l.profile_data -> 'ai' ->> 'status' = 'below_threshold'`,
        [userId],
      )
      for (const r of reasons) expect(r.filter_reason).toMatch(/^AI score \d+ is below 50: /)
      if (shots) {
        await card.screenshot({ path: `${shots}/ai-scraping-card-desktop.png` })
        await page.setViewportSize({ width: 390, height: 844 })
        await card.scrollIntoViewIfNeeded()
        await card.screenshot({ path: `${shots}/ai-scraping-card-mobile.png` })
        await page.setViewportSize({ width: 1280, height: 800 })
        await card.click()
        await dialog(page).getByRole('tab', { name: /Leads/ }).click()
        await page.screenshot({ path: `${shots}/ai-scraped-leads-desktop.png` })
        await page.keyboard.press('Escape')
      }

      // 2. Who gets which AI failure at send time: one lead personalised, the others fall back.
      const leads = await sql<{ username: string; bio: string; name: string }>(
        `select l.username, l.profile_data ->> 'bio' as bio, l.profile_data ->> 'display_name' as name
           from public.scraping_campaign_leads l join public.scraping_campaigns c on c.id = l.scraping_campaign_id
          where c.user_id = $1 and not l.is_filtered order by l.collected_at, l.username`,
        [userId],
      )
      expect(leads).toHaveLength(4)
      const [fits, hangs, limited, broken] = leads as [
        (typeof leads)[0],
        (typeof leads)[0],
        (typeof leads)[0],
        (typeof leads)[0],
      ]
      await fault('hang', `"username\\":\\"${hangs.username}\\"`)
      await fault('429', `"username\\":\\"${limited.username}\\"`, { times: 2, retryAfter: 0 })
      await fault('non_json', `"username\\":\\"${broken.username}\\"`)

      // 3. The DM campaign, drafted with AI, personalised per lead, started at once.
      await openMessagesStep(page, xUsername, 'AI founders', 'AI outreach')
      await askForDrafts(page, 'Book a 15-minute intro call')
      await expect(page.getByRole('status').filter({ hasText: 'AI drafts added below' })).toBeVisible()
      // the customer edits before saving: one opening only, their own words at the end
      for (const index of [3, 2]) await page.getByRole('button', { name: `Remove message ${index}` }).click()
      await page
        .getByLabel('Initial message 1')
        .fill('Hi {name}, want a free SEO audit of your landing page?')
      await page.getByLabel(/Personalise each message with AI/).check()
      // the preview shows what the first lead of the source will be sent, AI text included
      const preview = dialog(page).getByTestId('ai-preview')
      await preview.getByRole('button', { name: 'Preview for a real lead' }).click()
      await expect(preview).toContainText(`What @${fits.username} would be sent`)
      const personalised = (name: string, bio: string) =>
        bio
          ? `Hi ${name.split(' ')[0]}, your bio ("${bio.length <= 60 ? bio : `${bio.slice(0, 59).trimEnd()}…`}") caught my eye. Want a free SEO audit of your landing page?`
          : `Hi ${name.split(' ')[0]}, your profile caught my eye. Want a free SEO audit of your landing page?`
      await expect(preview.getByText(personalised(fits.name, fits.bio), { exact: true })).toBeVisible()
      await expect(preview).toContainText('Personalised by AI from this lead’s profile, as it is sent.')
      if (shots) {
        await preview.scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${shots}/ai-wizard-real-lead-preview-desktop.png` })
        await page.setViewportSize({ width: 390, height: 844 })
        await preview.scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${shots}/ai-wizard-real-lead-preview-mobile.png` })
        await page.setViewportSize({ width: 1280, height: 800 })
      }
      await dialog(page).getByRole('button', { name: 'Next' }).click()
      await scheduleAlwaysOpen(page)
      await expect(dialog(page).getByText('On (falls back to your message)')).toBeVisible()
      await dialog(page)
        .getByLabel(/Start sending right away/)
        .check()
      await dialog(page).getByRole('button', { name: 'Create & Start' }).click()
      await expect(page.getByRole('dialog')).toHaveCount(0)

      // 4. The runner sends all four; each DM in the X sandbox is the text dm_logs stores.
      type Delivery = { recipientUsername: string; text: string }
      let delivered: Delivery[] = []
      await expect(async () => {
        const response = await fetch(`${xBase}/__sandbox/deliveries?account=${xUsername}`)
        delivered = ((await response.json()) as { deliveries: Delivery[] }).deliveries
        if (delivered.length < 4) {
          await runSchedulerNow(accountId)
          throw new Error(`${delivered.length} of 4 delivered`)
        }
      }).toPass({ timeout: 300_000, intervals: [3_000, 5_000] })
      const logs = await sql<{
        target_username: string
        message_sent: string
        personalization: string
        personalization_note: string | null
      }>(
        `select d.target_username, d.message_sent, d.personalization, d.personalization_note
           from public.dm_logs d join public.campaigns c on c.id = d.campaign_id where c.user_id = $1`,
        [userId],
      )
      const logOf = (username: string) => logs.find((l) => l.target_username === username)
      const sentTo = (username: string) => delivered.find((d) => d.recipientUsername === username)?.text
      const first = (name: string) => name.split(' ')[0]
      expect(logOf(fits.username)?.personalization).toBe('personalized')
      // what the wizard previewed is what was sent
      expect(sentTo(fits.username)).toBe(personalised(fits.name, fits.bio))
      for (const [lead, note] of [
        [hangs, 'The AI service did not answer in time.'],
        [limited, 'The AI service is rate limiting requests.'],
        [broken, 'The AI service sent an answer that could not be used. (not JSON)'],
      ] as const) {
        expect(logOf(lead.username)).toMatchObject({
          personalization: 'fallback',
          personalization_note: note,
        })
        expect(sentTo(lead.username)).toBe(
          `Hi ${first(lead.name)}, want a free SEO audit of your landing page?`,
        )
      }
      for (const log of logs) expect(sentTo(log.target_username)).toBe(log.message_sent)

      // 5. The campaign's messages say which was personalised and why the others were not.
      await page.goto('/dashboard')
      await page.getByTestId('campaign-card').filter({ hasText: 'AI outreach' }).click()
      await dialog(page).getByRole('tab', { name: 'Messages' }).click()
      const messages = dialog(page).getByTestId('campaign-messages')
      await expect(messages.getByText('AI personalised')).toHaveCount(1)
      await expect(
        messages.getByText('Sent as written: The AI service did not answer in time.'),
      ).toBeVisible()
      await expect(
        messages.getByText('Sent as written: The AI service is rate limiting requests.'),
      ).toBeVisible()
      await expect(
        messages.getByText(/Sent as written: The AI service sent an answer that could not be used/),
      ).toBeVisible()
      await messages.getByText('AI personalised').click()
      await expect(messages.getByText(sentTo(fits.username) as string)).toBeVisible()
      // the results per message credit the variant and say the AI rewrote one of its sends, and what went out
      await dialog(page).getByRole('tab', { name: 'Analytics' }).click()
      const variant = dialog(page).getByTestId('variant-row').filter({ hasText: 'Variant A' })
      await expect(variant.getByTestId('variant-sent')).toHaveText('4')
      await expect(variant.getByTestId('variant-personalized')).toHaveText('Personalised by AI: 1 of 4 sent')
      await expect(variant).toContainText(`Latest sent: ${sentTo(fits.username)}`)
      if (shots) {
        await variant.scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${shots}/ai-variant-results-desktop.png` })
        await page.setViewportSize({ width: 390, height: 844 })
        await variant.scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${shots}/ai-variant-results-mobile.png` })
        await page.setViewportSize({ width: 1280, height: 800 })
        await dialog(page).getByRole('tab', { name: 'Messages' }).click()
      }
      if (shots) {
        await page.screenshot({ path: `${shots}/ai-campaign-messages-desktop.png` })
        await page.setViewportSize({ width: 390, height: 844 })
        await page.screenshot({ path: `${shots}/ai-campaign-messages-mobile.png` })
      }
    } catch (error) {
      console.log(`runner output:\n${runner.tail()}`)
      throw error
    } finally {
      await runner.stop()
    }
  })
})
