// Connecting Instagram through its official API, as a customer: the wizard compares the two ways,
// "Continue to Instagram" leaves for Instagram's consent screens (the Meta sandbox), Allow brings
// the customer back to Social Accounts with the account active and the result said; Cancel brings
// them back with the reason and nothing connected. Then the whole path of an automation with the
// real runner: a keyword comment in the sandbox, delivered to the webhook twice, gets exactly one
// private reply.
import { expect, type Page, test } from '@playwright/test'
import { sql } from './db'
import {
  chooseOfficial as choose,
  confirmWorkspace,
  connectOfficial,
  metaControl,
  sandboxAccount,
  signInOnInstagram,
} from './meta-sandbox'
import { runnerForTheseTests } from './runner-process'
import { insertAsService, signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

runnerForTheseTests()

/** Set to keep screenshots of these screens (docs/screenshots was made this way). */
const shots = process.env.INSTAGRAM_SCREENSHOTS_DIR

async function shot(page: Page, name: string, fullPage = false) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage })
}

const chooseOfficial = (page: Page, screenshot?: string) =>
  choose(page, screenshot ? () => shot(page, screenshot) : undefined)

test('a customer connects an Instagram professional account through Instagram, and a cancel connects nothing', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const email = uniqueEmail('ig-official')
  const userId = await signUpThroughApi(page, email, 'e2e-password-123')
  await skipOnboarding(userId)
  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()

  // Cancel on Instagram's screen: back with the reason, nothing added
  await chooseOfficial(page)
  await signInOnInstagram(page, account)
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('alert')).toContainText(
    'Instagram access was not granted, so nothing was connected.',
  )
  await expect(page.getByTestId('account-card')).toHaveCount(0)
  await page.getByRole('button', { name: 'Dismiss' }).click()

  await chooseOfficial(page, 'instagram-official-choice-1280')
  // Instagram keeps the login: straight to the consent screen
  await expect(page.getByText(`Logged in as @${account.username}`)).toBeVisible()
  await expect(page.getByText('Access and manage comments on your posts')).toBeVisible()
  await page.getByRole('button', { name: 'Allow' }).click()

  // back in Reachflow: which workspace the account is joining, before anything is added
  await expect(page).toHaveURL(/\/connect\/instagram\/callback\?/)
  await expect(page.getByText(email)).toBeVisible()
  expect(await sql('select id from public.social_accounts where user_id = $1', [userId])).toEqual([])
  await shot(page, 'instagram-official-confirm-1280')
  await confirmWorkspace(page)

  await expect(page).toHaveURL(/\/dashboard\?tab=social-accounts&instagram=connected/)
  await expect(
    page.getByRole('status').filter({ hasText: `@${account.username} is connected through Instagram's API` }),
  ).toBeVisible()
  const card = page.getByTestId('account-card').filter({ hasText: account.username })
  await expect(card).toContainText('Active')
  await shot(page, 'instagram-official-connected-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'instagram-official-connected-390', true)
  await page
    .getByRole('button', { name: /Add Account/ })
    .first()
    .click()
  const wizard = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await wizard.getByRole('button', { name: /Instagram/ }).click()
  await wizard.getByText('Browser sign-in').scrollIntoViewIfNeeded()
  await shot(page, 'instagram-official-choice-390')
})

test('a keyword comment delivered twice to the webhook gets exactly one private reply', async ({ page }) => {
  test.setTimeout(180_000)
  const userId = await signUpThroughApi(page, uniqueEmail('ig-automation'), 'e2e-password-123')
  await skipOnboarding(userId)
  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()
  await connectOfficial(page, account)

  const [row] = await sql<{ id: string }>('select id from public.social_accounts where user_id = $1', [
    userId,
  ])
  const post = await metaControl<{ id: string }>('/media', {
    account: account.username,
    caption: 'Comment GUIDE for the lookbook',
  })
  await insertAsService('instagram_automations', [
    {
      user_id: userId,
      account_id: row?.id,
      name: 'Lookbook',
      trigger: 'comment_keyword',
      media_id: post.id,
      keywords: ['guide'],
      reply_text: 'Here is the lookbook: https://example.com/lookbook',
      public_reply_text: 'Sent you a DM 💌',
    },
  ])
  const commented = await metaControl<{ comment_id: string; delivery_id: string | null }>('/comments', {
    account: account.username,
    from: 'ana_reads',
    text: 'GUIDE please',
    media_id: post.id,
  })
  expect(commented.delivery_id).toBeTruthy()
  const comments = () =>
    metaControl<{ id: string; privateReplyMid: string | null; replies: unknown[] }[]>(
      `/comments?account=${account.username}`,
    )
  await expect
    .poll(
      async () => (await comments()).find((c) => c.id === commented.comment_id)?.privateReplyMid ?? null,
      { timeout: 60_000 },
    )
    .not.toBeNull()
  const runs = () =>
    sql<{ status: string }>('select status from public.instagram_automation_runs where trigger_key = $1', [
      `comment:${commented.comment_id}`,
    ])
  // the runner marks its run sent once Instagram's API has answered, a moment after the API stored
  // the reply (under load the run was still `sending` when the sandbox already showed it)
  await expect.poll(async () => (await runs()).map((r) => r.status), { timeout: 60_000 }).toEqual(['sent'])

  // Meta delivers the same event again: stored once, answered once
  const again = await metaControl<{ status: number }>(`/deliveries/${commented.delivery_id}/redeliver`, {})
  expect(again.status).toBe(200)
  const [event] = await sql<{ deliveries: number; jobs: number }>(
    `select e.deliveries, (select count(*)::int from pgboss.job j where j.name = 'instagram.event' and j.data ->> 'eventId' = e.id::text) as jobs
       from internal.instagram_webhook_events e where e.event_key = $1`,
    [`comment:${commented.comment_id}`],
  )
  // the second delivery queued no second job: nothing can answer the comment again later
  expect(event).toEqual({ deliveries: 2, jobs: 1 })
  expect((await runs()).map((r) => r.status)).toEqual(['sent'])
  const sent = (
    await metaControl<{ direction: string; kind: string }[]>(
      `/conversations?account=${account.username}&peer=ana_reads`,
    )
  ).filter((m) => m.direction === 'out')
  expect(sent.map((m) => m.kind)).toEqual(['private_reply'])
  expect((await comments()).find((c) => c.id === commented.comment_id)?.replies).toHaveLength(1)
})

test('removing Reachflow on Instagram shows on the account until it is connected again; a data deletion request deletes it, with a status page', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('ig-callbacks'), 'e2e-password-123'))
  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()
  await connectOfficial(page, account)
  const card = page.getByTestId('account-card').filter({ hasText: account.username })
  await expect(card).toContainText('Active')

  // the person removes Reachflow in Instagram's settings: Meta calls the deauthorize callback
  await metaControl('/tokens/revoke', { account: account.username })
  await page.reload()
  await expect(card).toContainText(`Reachflow's access to @${account.username} was removed on Instagram`)
  await shot(page, 'instagram-official-access-removed-1280')
  // connecting again through Instagram makes it work again
  await card.getByRole('button', { name: `Connect @${account.username} again through Instagram` }).click()
  await expect(page.getByText(`Logged in as @${account.username}`)).toBeVisible()
  await page.getByRole('button', { name: 'Allow' }).click()
  await confirmWorkspace(page)
  await expect(page).toHaveURL(/instagram=connected/)
  await expect(card).toContainText('Active')

  // then asks for their data to be deleted: Meta shows them the status page the app answers
  const { status, body } = await metaControl<{
    status: number
    body: { url: string; confirmation_code: string }
  }>('/data-deletion', { account: account.username })
  expect(status).toBe(200)
  await page.reload()
  await expect(page.getByTestId('account-card')).toHaveCount(0)
  const statusPage = new URL(body.url)
  await page.goto(`${statusPage.pathname}${statusPage.search}`)
  await expect(page.getByRole('heading', { name: 'Instagram data deletion' })).toBeVisible()
  await expect(page.getByText(`Request ${body.confirmation_code} is complete`)).toBeVisible()
  await shot(page, 'instagram-data-deletion-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'instagram-data-deletion-390')
})
