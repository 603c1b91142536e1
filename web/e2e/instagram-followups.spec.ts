// An Instagram automation's follow-up as a customer builds it: a DM keyword automation with a
// follow-up an hour later, built in the dialog; a person DMs the keyword and gets one reply from
// the real runner; the clocks (the database's and the Meta sandbox's, together) move past the delay
// and one follow-up arrives. A second person answers the reply first, and no follow-up goes to them.
// The card counts one sent and one skipped.
import { expect, type Page, test } from '@playwright/test'
import { sql } from './db'
import { connectOfficial, metaControl, sandboxAccount } from './meta-sandbox'
import { runnerForTheseTests } from './runner-process'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

runnerForTheseTests()

/** Set to keep screenshots of these screens (docs/screenshots was made this way). */
const shots = process.env.INSTAGRAM_SCREENSHOTS_DIR

async function shot(page: Page, name: string, fullPage = false) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage })
}

const REPLY = 'Prices start at $49: https://example.com/prices'
const FOLLOWUP = 'Still thinking about it? Reply here and I’ll help you pick.'
const MINUTE = 60_000

/** The database's and the Meta sandbox's clocks, the same time ahead of real time. */
async function setClocks(offsetMs: number): Promise<void> {
  await sql(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [offsetMs])
  await metaControl('/clock', { offset_ms: offsetMs })
}

const sentTo = async (account: string, peer: string) =>
  (await metaControl<{ direction: string; text: string }[]>(`/conversations?account=${account}&peer=${peer}`))
    .filter((m) => m.direction === 'out')
    .map((m) => m.text)

/** A figure of the card's follow-up: the value under its label. */
const figure = (page: Page, label: string) =>
  page.getByRole('region', { name: 'Follow-up' }).locator(`div:has(> dt:text-is("${label}")) > dd`)

test.afterEach(async () => {
  await setClocks(0)
})

test('a DM keyword automation follows up once after its delay, and not when the person answered', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const userId = await signUpThroughApi(page, uniqueEmail('ig-followups'), 'e2e-password-123')
  await skipOnboarding(userId)
  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()
  await connectOfficial(page, account)

  await page.getByRole('button', { name: 'Automations' }).first().click()
  await page.getByRole('button', { name: 'New automation' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New automation' })
  // a comment trigger (the default) cannot follow up, and says why
  await expect(dialog.getByRole('switch', { name: "Follow up if they don't answer" })).toBeDisabled()
  await expect(dialog.getByText(/a comment doesn't open Instagram's 24-hour messaging window/)).toBeVisible()
  await dialog.getByRole('radio', { name: 'DM keyword' }).check()
  await dialog.getByLabel('Name').fill('Prices')
  await dialog.getByRole('textbox', { name: 'Keywords', exact: true }).fill('price')
  await dialog.getByRole('textbox', { name: 'Keywords', exact: true }).press('Enter')
  await dialog.getByLabel('Reply (sent as a DM)').fill(REPLY)
  await dialog.getByRole('switch', { name: "Follow up if they don't answer" }).click()
  await expect(dialog.getByText(/only within 24 hours of their last message/)).toBeVisible()
  // the rules are said before anything is saved
  await dialog.getByLabel('Hours').fill('24')
  await dialog.getByRole('button', { name: 'Create automation' }).click()
  await expect(dialog.getByText('Hours: a whole number from 0 to 23.')).toBeVisible()
  await expect(dialog.getByText('Write the follow-up message, or turn the follow-up off.')).toBeVisible()
  await dialog.getByLabel('Hours').fill('1')
  await dialog.getByLabel('Minutes').fill('0')
  await dialog.getByLabel('Follow-up message').fill(FOLLOWUP)
  await dialog.getByRole('heading', { name: /Follow up if they don't answer/ }).scrollIntoViewIfNeeded()
  await shot(page, 'instagram-followup-dialog-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'instagram-followup-dialog-390')
  await page.setViewportSize({ width: 1280, height: 800 })
  await dialog.getByRole('button', { name: 'Create automation' }).click()
  await expect(dialog).toBeHidden()
  const card = page.getByTestId('automation-card').filter({ hasText: 'Prices' })
  await expect(card.getByRole('region', { name: 'Follow-up' })).toContainText(
    "Follows up after 1 h if they don't answer",
  )

  // ana DMs the keyword: one reply from the runner
  await metaControl('/messages', { account: account.username, from: 'ana_asks', text: 'What is the PRICE?' })
  await expect.poll(() => sentTo(account.username, 'ana_asks'), { timeout: 90_000 }).toEqual([REPLY])
  // bob too, and he answers the reply before the hour is up
  await metaControl('/messages', { account: account.username, from: 'bob_buys', text: 'price please' })
  await expect.poll(() => sentTo(account.username, 'bob_buys'), { timeout: 90_000 }).toEqual([REPLY])
  // Each follow-up is scheduled, due an hour from the database's clock, when the runner marks its
  // reply sent: a moment after the sandbox stored the reply. Moving the clocks before that would
  // date it from the moved clock (under load bob's was due at +80 min and the sweep at +65 missed it).
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::int as n from public.instagram_automation_followups where user_id = $1 and status = 'scheduled'`,
            [userId],
          )
        )[0]?.n,
      { timeout: 60_000 },
    )
    .toBe(2)
  await setClocks(20 * MINUTE)
  await metaControl('/messages', {
    account: account.username,
    from: 'bob_buys',
    text: 'Thanks, ordering now!',
  })
  // his answer is stored before the follow-up is due (the webhook is delivered at once)
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::int as n from internal.instagram_webhook_events where kind = 'message' and payload -> 'message' ->> 'text' = 'Thanks, ordering now!'`,
          )
        )[0]?.n,
      { timeout: 60_000 },
    )
    .toBe(1)

  // past the delay on both clocks; the minute's sweep (pg_cron) queues what is due, run here at once
  await setClocks(65 * MINUTE)
  await sql('select internal.enqueue_due_instagram_followups()')
  await expect
    .poll(() => sentTo(account.username, 'ana_asks'), { timeout: 90_000 })
    .toEqual([REPLY, FOLLOWUP])
  await expect(figure(page, 'Follow-ups sent')).toHaveText('1', { timeout: 60_000 })
  await expect(figure(page, 'Skipped (answered)')).toHaveText('1', { timeout: 60_000 })
  await expect(figure(page, 'Not sent')).toHaveText('0')
  expect(await sentTo(account.username, 'bob_buys')).toEqual([REPLY])
  // a later sweep, or the follow-up's own delayed job, sends nothing more
  await sql('select internal.enqueue_due_instagram_followups()')
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::int as n from pgboss.job where name = 'instagram.followup' and state in ('created', 'retry', 'active') and start_after <= now()`,
          )
        )[0]?.n,
    )
    .toBe(0)
  expect(await sentTo(account.username, 'ana_asks')).toEqual([REPLY, FOLLOWUP])
  await shot(page, 'instagram-followups-1280', true)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.evaluate(() => window.scrollTo(0, 0))
  await shot(page, 'instagram-followups-390', true)
})
