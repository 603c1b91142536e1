// An official Instagram account's conversations in the Inbox, with the real runner and the Meta
// sandbox: a person's DM arrives through the webhook in the Inbox with their username and the
// answer window in words; the customer's answer goes out through Instagram's API exactly once
// (its echo does not show it twice); with Instagram's clock past 7 days, the answer is refused and
// the reason shows on it.
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import { sql } from './db'
import { connectOfficial, metaControl, sandboxAccount } from './meta-sandbox'
import { runnerForTheseTests } from './runner-process'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

runnerForTheseTests()

const DAY = 86_400_000

/** What the account sent the person, as Instagram has it. */
async function sentTo(account: string, peer: string) {
  const messages = await metaControl<{ direction: string; text: string; tag: string | null }[]>(
    `/conversations?account=${account}&peer=${peer}`,
  )
  return messages.filter((m) => m.direction === 'out')
}

async function shots(page: Page, name: string, outputPath: (name: string) => string) {
  await page.screenshot({ path: outputPath(`${name}-1280.png`) })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.getByTestId('answer-window').scrollIntoViewIfNeeded()
  await page.screenshot({ path: outputPath(`${name}-390.png`) })
  await page.setViewportSize({ width: 1280, height: 800 })
}

test("a person's Instagram DM arrives in the Inbox; the answer goes through the API once, and is refused after 7 days with the reason", async ({
  page,
}, info) => {
  test.setTimeout(240_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('ig-inbox'), 'e2e-password-123'))
  await page.goto('/dashboard?tab=social-accounts')
  const account = await sandboxAccount()
  await connectOfficial(page, account)

  const person = `ana_${testInt('instagram-inbox person', 36 ** 6).toString(36)}`
  const dm = await metaControl<{ delivery_id: string | null }>('/messages', {
    account: account.username,
    from: person,
    text: 'Hi! Do you have the linen shirt in blue?',
  })
  expect(dm.delivery_id).toBeTruthy()

  await page.goto('/dashboard?tab=inbox')
  const thread = page.getByTestId('inbox-thread').filter({ hasText: `@${person}` })
  await expect(thread).toBeVisible({ timeout: 60_000 })
  await expect(thread.getByTestId('thread-unread-count')).toHaveText(/^1/)
  await thread.click()
  const conversation = page.getByRole('region', { name: `Conversation with @${person}` })
  const messages = conversation.getByTestId('inbox-message')
  await expect(messages).toHaveCount(1)
  await expect(messages.first()).toContainText('Hi! Do you have the linen shirt in blue?')
  await expect(conversation.getByTestId('answer-window')).toHaveText(
    /^Instagram window: a normal answer until (\d{1,2} \w{3}, )?\d{2}:\d{2}, with the human-agent tag until \d{1,2} \w{3}$/,
  )

  const answer = 'Yes! Blue is in stock in every size.'
  const box = conversation.getByLabel(`Your answer to @${person}`)
  await box.fill(answer)
  await box.press('Control+Enter')
  const sent = messages.filter({ hasText: answer })
  await expect(sent).toHaveAttribute('data-status', 'sent', { timeout: 90_000 })
  expect(await sentTo(account.username, person)).toEqual([
    expect.objectContaining({ text: answer, tag: null }),
  ])
  await shots(page, 'instagram-inbox-thread', info.outputPath.bind(info))

  // Instagram's echo of the answer comes back through the webhook: still one message
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::int as n from internal.instagram_webhook_events e join pgboss.job j on j.id = e.job_id
              where e.kind = 'echo' and e.payload -> 'recipient' ->> 'id' = (select peer_platform_id from public.inbox_threads where peer_username = $1)
                and j.state = 'completed'`,
            [person],
          )
        )[0]?.n,
      { timeout: 60_000 },
    )
    .toBe(1)
  await page.reload()
  await page
    .getByTestId('inbox-thread')
    .filter({ hasText: `@${person}` })
    .click()
  await expect(messages).toHaveCount(2)

  // Instagram's clock past 7 days: Instagram refuses, nothing goes out, the reason shows
  await metaControl('/clock', { advance_ms: 8 * DAY })
  try {
    const late = 'Are you still interested?'
    await box.fill(late)
    await box.press('Control+Enter')
    const refused = messages.filter({ hasText: late })
    await expect(refused).toHaveAttribute('data-status', 'failed', { timeout: 90_000 })
    await expect(refused).toContainText(
      "Instagram refused the answer: it is outside the window Instagram allows after the person's last message (code 10/2534022). Nothing was sent.",
    )
    expect((await sentTo(account.username, person)).map((m) => m.text)).toEqual([answer])
    await shots(page, 'instagram-inbox-refused', info.outputPath.bind(info))
  } finally {
    await metaControl('/clock', { advance_ms: -8 * DAY })
  }
})
