// A customer in their second week on the real stack: a new X account at its warm-up cap (9 campaign
// DMs and 1 inbox answer) shows today's real allowance on its card and its campaign says why it
// waits and when it resumes; an opened conversation takes a phone's screen; the Lead Scraping tab has
// one New Campaign, for scraping; the setup modal opens on its step; the X API callback page makes no
// PKCE exchange of X's code; adding someone already on the do-not-contact list keeps the dialog open.
// Screenshots at 1280 and 390 px go to SWEEP_SCREENSHOTS_DIR when it is set.
import { expect, type Page, test } from '@playwright/test'
import { adminPage, openTab } from './admin-support'
import { sql, userIdOf } from './db'
import { signedInUserId, signUp, signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

const shots = process.env.SWEEP_SCREENSHOTS_DIR

async function shoot(page: Page, name: string, widths: readonly number[] = [1280, 390]) {
  if (!shots) return
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

/**
 * As the runner leaves a new account on its third day of warm-up (phase 1: 10 a day, its own
 * limit 50): 9 campaign DMs and 1 inbox answer today, a running always-open campaign with leads due.
 */
async function accountAtWarmupCap(email: string, tag: string) {
  const userId = await userIdOf(email)
  const username = `warm_${tag}`
  const [account] = await sql<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase, daily_message_limit,
                                         warmup_started_at, messages_sent_today, sent_today_on)
     select $1, p.id, $2, 'active', 1, 50, internal.now() - interval '2 days', 10,
            pg_catalog.timezone('UTC', internal.now())::date
       from public.platforms p where p.name = 'twitter' returning id`,
    [userId, username],
  )
  const [campaign] = await sql<{ id: string }>(
    `insert into public.campaigns (user_id, account_id, name, sequences, schedule, daily_message_limit, status)
     values ($1, $2, 'Warm-up founders', '{"messages": ["Hi {name}"]}',
             '{"timezone": "UTC", "timeFrom": "00:00", "timeTo": "23:59", "randomDaysOff": false,
               "activeDays": ["monday","tuesday","wednesday","thursday","friday","saturday","sunday"]}', 50, 'running')
     returning id`,
    [userId, account?.id],
  )
  await sql(
    `insert into public.campaign_leads (campaign_id, user_id, username, next_send_at)
     select $1, $2, 'due_' || g || '_' || $3, internal.now() - interval '1 hour' from generate_series(1, 15) g`,
    [campaign?.id, userId, tag],
  )
  const [thread] = await sql<{ id: string }>(
    `insert into public.inbox_threads (user_id, account_id, peer_username, unread_count, last_message_at,
                                       last_message_preview, last_message_direction, last_incoming_at)
     values ($1, $2, 'curious_lead', 0, internal.now(), 'Thanks, talk soon!', 'outgoing',
             internal.now() - interval '2 hours')
     returning id`,
    [userId, account?.id],
  )
  await sql(
    `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key, sent_at)
     values ($1, $2, $3, 'incoming', 'Sounds interesting, how does it work?', 'platform', 'received', 'in-1', internal.now() - interval '2 hours'),
            -- answered just now: today in the account's zone whatever the hour the test runs at
            ($1, $2, $3, 'outgoing', 'Thanks, talk soon!', 'reachflow', 'sent', 'out-1', internal.now())`,
    [thread?.id, userId, account?.id],
  )
  // a finished scrape to start another campaign from
  const [source] = await sql<{ id: string }>(
    `insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
     values ($1, 'Warm-up source', $2, '[{"type": "followers", "value": "x"}]', 3) returning id`,
    [userId, account?.id],
  )
  await sql(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, source_type, source_value)
     select $1, $2, 'src' || g || '_' || $3, '{}', 'followers', 'x' from generate_series(1, 3) g`,
    [source?.id, userId, tag],
  )
  await sql(`update public.scraping_campaigns set status = 'completed' where id = $1`, [source?.id])
  return { username, threadId: thread?.id ?? '' }
}

test('a warm-up account shows today’s allowance and its campaign says why it waits and when it resumes', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('warmcap')
  await skipOnboarding(await signUpThroughApi(page, email, 'e2e-password-123'))
  const tag = Date.now().toString(36)
  const { username } = await accountAtWarmupCap(email, tag)

  await page.goto('/dashboard?tab=social-accounts')
  const card = page.getByTestId('account-card').filter({ hasText: username })
  // the allowance the runner applies (warm-up 10), not the limit typed in (50)
  await expect(card).toContainText(/Messages\/Day\s*10/)
  await expect(card.getByTestId('account-today')).toContainText('10 / 10 allowed')
  await expect(card).toContainText(
    'Warm-up day 3: 10 a day while the account warms up; your limit of 50 applies after.',
  )
  await expect(card).toContainText('Inbox answers count toward it (1 answer today).')
  await shoot(page, 'accounts-warmup-allowance')

  // a new campaign's daily limit above the account's allowance says what the account may send
  await page.getByRole('button', { name: 'New Campaign' }).click()
  const wizard = page.getByRole('dialog', { name: 'Create New Campaign' })
  await wizard.getByLabel('Send from account').selectOption({ label: `@${username} · Twitter` })
  await wizard.getByLabel('Campaign name').fill('Second campaign')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByRole('button', { name: /Warm-up source/ }).click()
  await wizard.getByRole('button', { name: 'Next' }).click()
  await wizard.getByLabel('Initial message 1').fill('Hi {name}, how is it going?')
  await wizard.getByRole('button', { name: 'Next' }).click()
  await expect(wizard.getByTestId('account-allowance')).toHaveText(
    `@${username} may send 10 a day on warm-up day 3, inbox answers included: this campaign sends no more than that for now.`,
  )
  await shoot(page, 'wizard-schedule-allowance')

  await page.goto('/dashboard?tab=campaigns')
  const campaign = page.getByTestId('campaign-card').filter({ hasText: 'Warm-up founders' })
  // always open: it resumes at the account's next midnight (UTC), tomorrow in the browser's zone
  const waiting = new RegExp(
    `^Waiting: @${username} reached today's warm-up limit \\(10\\)\\. Sending resumes (tomorrow|today) at \\d\\d:\\d\\d\\.$`,
  )
  await expect(campaign.getByTestId('campaign-wait')).toHaveText(waiting)
  await expect(campaign).not.toContainText('Running')
  await shoot(page, 'campaign-waiting-card')

  await campaign.click()
  const details = page.getByRole('dialog', { name: 'Warm-up founders' })
  await expect(details.getByTestId('campaign-wait')).toHaveText(waiting)
  await shoot(page, 'campaign-waiting-details')

  // the operator's Manage drawer reads the same allowance
  const admin = await adminPage(browser)
  await openTab(admin.page, 'accounts', 'Accounts')
  await admin.page.getByRole('searchbox', { name: 'Search accounts...' }).fill(username)
  await admin.page.getByRole('button', { name: `Manage @${username}` }).click()
  const manage = admin.page.getByRole('dialog', { name: `@${username}` })
  await expect(manage).toContainText(/Sent today\s*10 of 10 allowed\s*own limit 50/)
  await shoot(admin.page, 'admin-account-allowance')
  await admin.context.close()
})

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('an opened conversation takes the screen with its answer box; back returns to the list', async ({
    page,
  }) => {
    const email = uniqueEmail('mobileinbox')
    await skipOnboarding(await signUpThroughApi(page, email, 'e2e-password-123'))
    const { threadId } = await accountAtWarmupCap(email, Date.now().toString(36))

    await page.goto(`/dashboard?tab=inbox&thread=${threadId}`)
    const conversation = page.getByRole('region', { name: 'Conversation with @curious_lead' })
    await expect(conversation.getByText('Sounds interesting, how does it work?')).toBeVisible()
    // no stat cards above it: the conversation covers the screen from the top, its answer box on it
    const box = await conversation.boundingBox()
    expect(box?.y).toBe(0)
    expect(box?.height).toBe(844)
    await expect(conversation.getByLabel('Your answer to @curious_lead')).toBeInViewport()
    // what is under it cannot be reached: the point where the stat cards were hits the conversation
    expect(
      await page.evaluate(() => document.elementFromPoint(195, 300)?.closest('section')?.ariaLabel),
    ).toBe('Conversation with @curious_lead')
    if (shots) await page.screenshot({ path: `${shots}/inbox-conversation-390.png` })

    await conversation.getByRole('button', { name: 'Back to conversations' }).click()
    await expect(page.getByRole('list', { name: 'Conversations' })).toBeVisible()
    await expect(conversation).toHaveCount(0)
    if (shots) {
      await page.screenshot({ path: `${shots}/inbox-list-390.png` })
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.goto(`/dashboard?tab=inbox&thread=${threadId}`)
      await expect(page.getByRole('region', { name: 'Conversation with @curious_lead' })).toBeVisible()
      await page.screenshot({ path: `${shots}/inbox-conversation-1280.png` })
    }
  })
})

test('the Lead Scraping tab has one New Campaign, and it opens the scraping wizard', async ({ page }) => {
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('scrapenew'), 'e2e-password-123'))
  await page.goto('/dashboard?tab=lead-scraping')
  await expect(page.getByRole('heading', { name: 'Lead Scraping Campaigns' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'New Campaign' })).toHaveCount(1)
  await shoot(page, 'lead-scraping-tab')
  await page.getByRole('button', { name: 'New Campaign' }).click()
  await expect(page.getByRole('dialog', { name: 'Create Scraping Campaign' })).toBeVisible()
  await page.keyboard.press('Escape')
  // elsewhere it is still the DM campaign
  await page.goto('/dashboard?tab=campaigns')
  await page.getByRole('button', { name: 'New Campaign' }).first().click()
  await expect(page.getByRole('dialog', { name: 'Create New Campaign' })).toBeVisible()
})

test('the setup modal opens on its step, not on “Don’t show again”', async ({ page }) => {
  const email = uniqueEmail('setupfocus')
  const userId = await signUpThroughApi(page, email, 'e2e-password-123')
  await sql('update public.user_profiles set onboarding_completed = true where id = $1', [userId])
  await page.goto('/dashboard')
  const modal = page.getByRole('dialog', { name: 'Complete Your Setup' })
  await expect(modal.getByText('Ready to Add Account')).toBeVisible()
  await expect(modal.getByRole('heading', { name: 'Connect Your Social Account' })).toBeFocused()
  await expect(modal.getByRole('button', { name: "Don't show again" })).not.toBeFocused()
  await shoot(page, 'setup-modal')
})

test('returning from X to the callback page makes no PKCE exchange of X’s code', async ({ page }) => {
  // Signing up leaves supabase-js's code verifier stored, which is what made it take X's ?code=.
  await signUp(page, uniqueEmail('xcallback'), 'e2e-password-123')
  await skipOnboarding(await signedInUserId(page))
  const exchanges: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/auth/v1/token') && request.url().includes('grant_type=pkce'))
      exchanges.push(request.url())
  })
  const failures: string[] = []
  page.on('response', (response) => {
    if (response.url().includes('/auth/v1/') && response.status() >= 400) failures.push(response.url())
  })
  await page.goto('/connect/x/callback?code=not-a-supabase-code&state=unknown-state')
  // the page hands the code to the api, which knows no such state: the customer is told, still signed in
  await expect(page.getByRole('heading', { name: 'X account not connected' })).toBeVisible()
  await shoot(page, 'x-callback-refused')
  expect(exchanges).toEqual([])
  expect(failures).toEqual([])
  await page.getByRole('link', { name: 'Back to Social Accounts' }).click()
  await expect(page).toHaveURL(/\/dashboard\?tab=social-accounts/)
})

test('adding someone already on the do-not-contact list keeps the dialog open and says so', async ({
  page,
}) => {
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('dncdup'), 'e2e-password-123'))
  const handle = `listed_${Date.now().toString(36)}`
  await page.goto('/settings/do-not-contact')
  await page.getByRole('button', { name: 'Add person' }).first().click()
  const add = page.getByRole('dialog', { name: 'Add to the do-not-contact list' })
  await add.getByLabel('Username').fill(handle)
  await add.getByRole('button', { name: 'Add to list' }).click()
  await expect(add).toHaveCount(0)

  await page.getByRole('button', { name: 'Add person' }).first().click()
  await add.getByLabel('Username').fill(handle)
  await add.getByRole('button', { name: 'Add to list' }).click()
  await expect(add.getByRole('status')).toHaveText(
    `@${handle} is already on the do-not-contact list for Twitter. Nothing was changed.`,
  )
  await expect(add).toBeVisible()
  await shoot(page, 'dnc-already-listed')
})
