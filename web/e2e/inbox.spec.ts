// Conversations inbox on the real stack: a lead answers a campaign DM in the X sandbox,
// the runner's inbox sync brings the whole thread into the Inbox tab with an unread badge, the
// customer answers from Reachflow, and the X sandbox receives that answer exactly once while the
// message reads Sent, while an internal note written just before it never reaches the sandbox. Also:
// Mark handled, Check now's limit, the New reply notification.
import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import { testInt } from '../../stack/src/test-seed.ts'
import { accountIdOf, completeOnboarding, runnerForTheseTests, runSchedulerNow } from './runner-process'
import { dialog, signUpThroughApi, uniqueEmail, xSandbox } from './support'

const deliveriesOf = async (username: string) =>
  (
    await xSandbox<{ deliveries: { text: string; recipientUsername: string }[] }>(
      `deliveries?account=${username}`,
    )
  ).deliveries

/** Test set-up, not the flow under test: a running campaign from the account to one lead. */
async function campaignTo(accountId: string, lead: { id: string; username: string; name: string }) {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    await client.query(
      `with c as (
         insert into public.campaigns (user_id, account_id, name, sequences, schedule, daily_message_limit, status)
         select a.user_id, a.id, 'Inbox founders',
                '{"messages": ["Hi {name}, may I ask what you are building?"], "followUpEnabled": false, "followUpMessages": []}',
                '{"timezone": "UTC", "timeFrom": "00:00", "timeTo": "23:59", "randomDaysOff": false,
                  "activeDays": ["monday","tuesday","wednesday","thursday","friday","saturday","sunday"]}',
                50, 'running'
           from public.social_accounts a where a.id = $1
         returning id)
       insert into public.campaign_leads (campaign_id, username, profile_data)
       select c.id, $2, jsonb_build_object('platform_id', $3::text, 'display_name', $4::text) from c`,
      [accountId, lead.username, lead.id, lead.name],
    )
  } finally {
    await client.end()
  }
}

/** Until `check` passes, running the scheduler's minute (and the account's inbox sync) between tries. */
async function eventually(page: Page, check: () => Promise<void>, accountId: string, reload = true) {
  await expect(async () => {
    try {
      await check()
    } catch (error) {
      await runSchedulerNow(accountId)
      if (reload) await page.reload()
      throw error
    }
  }).toPass({ timeout: 180_000, intervals: [3_000, 5_000, 8_000] })
}

test.describe('conversations inbox on the real stack', () => {
  test.setTimeout(600_000)
  runnerForTheseTests()

  test('a reply shows unread in the Inbox; the answer reaches the X sandbox exactly once and reads Sent', async ({
    page,
  }, info) => {
    const username = `rfin_${Date.now().toString(36)}`
    const xAccount = await xSandbox<{ cookies: unknown[] }>('accounts', {
      method: 'POST',
      body: { username, passcode: '1234', behaviour: { replyShare: 0 } },
    })
    const offset = 14_000 + testInt('inbox people', 2000)
    const { profiles } = await xSandbox<{ profiles: { id: string; username: string; name: string }[] }>(
      `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=1&offset=${offset}`,
    )
    const lead = profiles[0]
    if (!lead) throw new Error('no sandbox profile to message')

    const email = uniqueEmail('inbox')
    await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)

    // The X account, connected through the wizard and tested by the runner.
    await page.goto('/dashboard?tab=social-accounts')
    await page.getByRole('button', { name: 'Add Account' }).first().click()
    await dialog(page)
      .getByRole('button', { name: /Twitter/ })
      .click()
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Username').fill(`@${username}`)
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByLabel('Cookies (JSON)').fill(JSON.stringify(xAccount.cookies))
    await dialog(page)
      .getByLabel(/X Chat passcode/)
      .fill('1234')
    await dialog(page).getByRole('button', { name: 'Next' }).click()
    await dialog(page).getByRole('button', { name: 'Add Account' }).click()
    await expect(dialog(page).getByText(`@${username} is connected and ready for outreach.`)).toBeVisible({
      timeout: 180_000,
    })
    await dialog(page).getByRole('button', { name: 'Done' }).click()
    const accountId = await accountIdOf(username)

    // Nobody has answered yet: the tab says what will show here.
    await page.goto('/dashboard?tab=inbox')
    await expect(page.getByRole('heading', { name: 'No open conversations' })).toBeVisible()
    await page.screenshot({ path: info.outputPath('inbox-empty-desktop.png') })

    // The campaign's DM goes out; the lead answers on X.
    await campaignTo(accountId, lead)
    await eventually(
      page,
      async () => expect((await deliveriesOf(username)).length).toBeGreaterThan(0),
      accountId,
      false,
    )
    await xSandbox('messages', {
      method: 'POST',
      body: { account: username, from: lead.username, text: 'Hey! We build tiny robots. Who are you?' },
    })

    // The inbox sync brings the thread in, unread, with the badge on the tab.
    await page.goto('/dashboard?tab=inbox')
    const thread = page.getByTestId('inbox-thread').filter({ hasText: `@${lead.username}` })
    await eventually(page, () => expect(thread).toBeVisible(), accountId)
    await expect(page.getByRole('tab', { name: /Inbox/ }).getByTestId('inbox-unread-badge')).toHaveText(
      /^1\s*unread$/,
    )
    await expect(thread.getByTestId('thread-unread-count')).toHaveText(/^1/)
    await page.screenshot({ path: info.outputPath('inbox-unread-desktop.png') })
    await expect(page.getByTestId('inbox-last-checked')).toHaveText(
      /^Last checked (Just now|\d+ minutes? ago)$/,
    )

    // The whole conversation; opening it reads it.
    await thread.click()
    const conversation = page.getByRole('region', { name: `Conversation with @${lead.username}` })
    const messages = conversation.getByTestId('inbox-message')
    await expect(messages).toHaveCount(2)
    await expect(messages.nth(0)).toHaveAttribute('data-direction', 'outgoing')
    await expect(messages.nth(0)).toContainText(/^You: Hi .+, may I ask what you are building\?/)
    await expect(messages.nth(1)).toContainText('Hey! We build tiny robots. Who are you?')
    await expect(page.getByTestId('inbox-unread-badge')).toHaveCount(0)
    await expect(thread.getByTestId('thread-unread-count')).toHaveCount(0)

    // An empty answer is refused with a reason, nothing queued.
    await conversation.getByRole('button', { name: 'Send' }).click()
    await expect(conversation.getByText('Write a message first.')).toBeVisible()

    // An internal note just before the answer: the team reads it in the conversation, as a note.
    const note = `Team only: offer ${username} the agency discount`
    await conversation.getByRole('radio', { name: 'Internal note' }).click()
    await conversation.getByLabel(`Internal note on the conversation with @${lead.username}`).fill(note)
    await conversation.getByRole('button', { name: 'Add note' }).click()
    await expect(conversation.getByTestId('inbox-note')).toContainText(note)
    await expect(conversation.getByTestId('inbox-note')).toContainText(
      'Internal note — only your team sees this',
    )
    await conversation.getByRole('radio', { name: 'Answer' }).click()

    // The answer: queued, then sent by the runner through the account's inbox.sync.
    const answer = 'I run a small studio; want to see our robot arm demo?'
    await conversation.getByLabel(`Your answer to @${lead.username}`).fill(answer)
    await conversation.getByLabel(`Your answer to @${lead.username}`).press('Control+Enter')
    const sent = messages.filter({ hasText: answer })
    await expect(sent).toHaveCount(1)
    await expect(sent).toHaveAttribute('data-status', /queued|sending|sent/)
    await expect(sent).toHaveAttribute('data-status', 'sent', { timeout: 120_000 })
    await expect(sent).toContainText('Sent')
    await page.screenshot({ path: info.outputPath('inbox-desktop.png') })

    // Exactly once in the X sandbox, also after another sync of the account.
    const answered = async () => (await deliveriesOf(username)).filter((d) => d.text === answer)
    expect(await answered()).toHaveLength(1)
    expect((await answered())[0]?.recipientUsername).toBe(lead.username)
    // The note never reached the person: nothing the X sandbox received carries its text.
    const received = await deliveriesOf(username)
    expect(received.length).toBeGreaterThanOrEqual(2)
    expect(received.filter((d) => d.text.includes(note) || d.text.includes('agency discount'))).toEqual([])
    await runSchedulerNow(accountId)
    await expect(page.getByTestId('inbox-last-checked')).toHaveText(/Just now/, { timeout: 60_000 })
    await page.reload()
    await expect(messages).toHaveCount(3)
    expect(await answered()).toHaveLength(1)

    // Export: the conversations the list shows, as CSV.
    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export' }).click()
    const csv = await readFile((await (await downloading).path()) ?? '', 'utf8')
    const [header, row, ...rest] = csv.trimEnd().split('\r\n')
    expect(header).toBe(
      '"Person","Account","Platform","Campaign","Status","Unread","Last Message At","Last Message From","Last Message"',
    )
    expect(row).toContain(`"${lead.username}","${username}","X",`)
    expect(row).toContain(',"Open","0",')
    expect(row).toMatch(/,"You","I run a small studio; want to see our robot arm demo\?"$/)
    expect(rest).toEqual([])
    await expect(page.getByText('1 conversation exported')).toBeVisible()

    // Check now: it runs, then it is limited to once a minute with the wait said.
    await page.getByRole('button', { name: 'Check now' }).click()
    await expect(page.getByTestId('inbox-last-checked')).toHaveText(/^Last checked Just now$/, {
      timeout: 120_000,
    })
    await page.getByRole('button', { name: 'Check now' }).click()
    await expect(
      page.getByRole('alert').filter({ hasText: /Checked less than a minute ago\. Try again in \d+ s\./ }),
    ).toBeVisible()

    // Mark handled: it leaves the Open list.
    await conversation.getByRole('button', { name: 'Mark handled' }).click()
    await expect(thread).toHaveCount(0)
    await page.getByRole('radio', { name: 'Handled' }).click()
    await expect(thread).toBeVisible()

    // The New reply notification opens the conversation.
    await page.goto('/dashboard')
    await page.getByRole('button', { name: /^Notifications/ }).click()
    await page
      .getByRole('button', { name: /New reply/ })
      .first()
      .click()
    await expect(page).toHaveURL(/tab=inbox&thread=/)
    await expect(conversation.getByTestId('inbox-message').filter({ hasText: answer })).toBeVisible()

    // A phone.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await expect(conversation).toBeVisible()
    await page.screenshot({ path: info.outputPath('inbox-thread-390.png'), fullPage: true })
    await conversation.getByRole('button', { name: 'Back to conversations' }).click()
    await expect(thread).toBeVisible()
    await page.screenshot({ path: info.outputPath('inbox-list-390.png'), fullPage: true })
  })
})
