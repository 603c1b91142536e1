// Instagram automations as a customer builds them: without an official account the page explains
// and leads to Add Account; with one connected through the sandbox's consent, the customer builds a
// comment-keyword automation on one post in the dialog, a sandbox comment gets one private reply
// from the real runner, and the page shows triggered 1 / sent 1.
import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { connectOfficial, metaControl, sandboxAccount } from './meta-sandbox'
import { runnerForTheseTests } from './runner-process'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

runnerForTheseTests()

/** Set to keep screenshots of these screens (docs/screenshots was made this way). */
const shots = process.env.INSTAGRAM_SCREENSHOTS_DIR

async function shot(page: Page, name: string, fullPage = false) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage })
}

/** A result figure of the automation card: the value under its label. */
const figure = (page: Page, label: string) =>
  page.getByTestId('automation-card').locator(`div:has(> dt:text-is("${label}")) > dd`)

test('a customer builds a comment-keyword automation and sees a sandbox comment answered once', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('ig-automations'), 'e2e-password-123'))

  // no official account yet: the page says what automations need and leads to Add Account
  await page.goto('/dashboard?tab=automations')
  await expect(
    page.getByRole('heading', { name: 'Connect Instagram through its official API' }),
  ).toBeVisible()
  await shot(page, 'instagram-automations-empty-1280')
  await page.getByRole('button', { name: 'Add Account' }).last().click()
  await expect(page.getByRole('dialog', { name: 'Add Social Media Account' })).toBeVisible()
  await page.keyboard.press('Escape')

  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()
  await connectOfficial(page, account)
  await metaControl('/media', {
    account: account.username,
    caption: 'Spring drop: comment PRICE',
    media_product_type: 'REELS',
  })
  const post = await metaControl<{ id: string }>('/media', {
    account: account.username,
    caption: 'Comment GUIDE for the lookbook',
  })

  await page.getByRole('button', { name: 'Automations' }).first().click()
  await expect(page.getByRole('heading', { name: 'No automations yet' })).toBeVisible()
  await page.getByRole('button', { name: 'New automation' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New automation' })
  // the rules are said before anything is sent
  await dialog.getByRole('button', { name: 'Create automation' }).click()
  await expect(dialog.getByText('Give the automation a name.')).toBeVisible()
  await expect(dialog.getByText(/Add at least one keyword/)).toBeVisible()

  await dialog.getByLabel('Name').fill('Lookbook')
  await expect(dialog.getByLabel('Instagram account')).toHaveValue(/.+/)
  await dialog.getByRole('radio', { name: 'One post or reel' }).check()
  await dialog.getByRole('radio', { name: /Comment GUIDE for the lookbook/ }).check()
  await expect(dialog.getByRole('radio', { name: /Spring drop/ })).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Keywords', exact: true }).fill('guide')
  await dialog.getByRole('textbox', { name: 'Keywords', exact: true }).press('Enter')
  await expect(dialog.getByRole('list', { name: 'Added keywords' })).toHaveText('guide')
  await dialog
    .getByLabel('Private reply (sent as a DM)')
    .fill('Here is the lookbook: https://example.com/lookbook')
  await dialog.getByLabel(/Public reply to the comment/).fill('Sent you a DM 💌')
  await shot(page, 'instagram-automation-dialog-1280')
  await dialog.getByRole('button', { name: 'Create automation' }).click()
  await expect(dialog).toBeHidden()

  const card = page.getByTestId('automation-card').filter({ hasText: 'Lookbook' })
  await expect(card).toContainText('Comment keyword · one post')
  await expect(card.getByRole('switch', { name: 'Lookbook enabled' })).toHaveAttribute('aria-checked', 'true')
  await expect(figure(page, 'Triggered')).toHaveText('0')

  // a person comments the keyword (in other words, other case) on that post
  const commented = await metaControl<{ comment_id: string }>('/comments', {
    account: account.username,
    from: 'ana_reads',
    text: 'GUIDE please!',
    media_id: post.id,
  })
  // the page follows the figures by itself while it is open
  await expect(figure(page, 'Triggered')).toHaveText('1', { timeout: 90_000 })
  await expect(figure(page, 'Sent')).toHaveText('1')
  await expect(figure(page, 'Refused')).toHaveText('0')
  const sent = (
    await metaControl<{ direction: string; kind: string }[]>(
      `/conversations?account=${account.username}&peer=ana_reads`,
    )
  ).filter((m) => m.direction === 'out')
  expect(sent.map((m) => m.kind)).toEqual(['private_reply'])
  const comments = await metaControl<{ id: string; replies: unknown[] }[]>(
    `/comments?account=${account.username}`,
  )
  expect(comments.find((c) => c.id === commented.comment_id)?.replies).toHaveLength(1)
  await shot(page, 'instagram-automations-1280')

  await page.setViewportSize({ width: 390, height: 844 })
  // from the top: a full-page picture taken scrolled down leaves the sticky header mid-page
  await page.evaluate(() => window.scrollTo(0, 0))
  await shot(page, 'instagram-automations-390', true)
  await card.getByRole('button', { name: 'Edit Lookbook' }).click()
  const editing = page.getByRole('dialog', { name: 'Edit automation' })
  await expect(editing.getByRole('radio', { name: /Comment GUIDE for the lookbook/ })).toBeChecked()
  await shot(page, 'instagram-automation-dialog-390')
  await editing.getByRole('button', { name: 'Cancel' }).click()

  // pausing it is kept
  await card.getByRole('switch', { name: 'Lookbook enabled' }).click()
  await expect(card.getByRole('switch', { name: 'Lookbook enabled' })).toHaveAttribute(
    'aria-checked',
    'false',
  )
  await page.reload()
  await expect(
    page.getByTestId('automation-card').getByRole('switch', { name: 'Lookbook enabled' }),
  ).toHaveAttribute('aria-checked', 'false')

  // Export downloads the automations with their results
  await page.setViewportSize({ width: 1280, height: 800 })
  const exporting = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export' }).click()
  const file = await exporting
  expect(file.suggestedFilename()).toMatch(/^reachflow-automations-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = readFileSync((await file.path()) ?? '', 'utf8')
  expect(csv).toContain(`"${account.username}","Lookbook","Comment keyword"`)
  expect(csv).toContain('"No","1","1","0","0"')
})
