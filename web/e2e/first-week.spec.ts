// A new customer's first week on the real stack: the setup modal shows the platforms' rules and
// connects an X account from the cookie header a browser shows (it left Connect greyed out), and a
// lead's reply reaches the inbox, stops the follow-up and notifies within 5 minutes, counted on the
// sandbox clock with the scheduler run minute by minute as pg_cron runs it.
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import { sql } from './db'
import { accountIdOf, completeOnboarding, runnerForTheseTests, runSchedulerNow } from './runner-process'
import { dialog, signUpThroughApi, uniqueEmail, xSandbox } from './support'

runnerForTheseTests()

interface SandboxAccount {
  username: string
  cookies: unknown[]
  cookieHeader: string
  passcode: string | null
}

test('Complete Your Setup: the platforms’ rules, and a pasted cookie header connects the first account', async ({
  page,
}, info) => {
  test.setTimeout(300_000)
  const email = uniqueEmail('setup')
  const userId = await signUpThroughApi(page, email, 'setup-password-1')
  // onboarding done, setup not yet: the modal every new customer meets first
  await sql('update public.user_profiles set onboarding_completed = true where id = $1', [userId])
  await page.goto('/dashboard')
  const modal = page.getByRole('dialog', { name: 'Complete Your Setup' })
  await expect(modal.getByText('Ready to Add Account')).toBeVisible()
  await expect(modal.getByText("Know the platforms' rules")).toBeVisible()
  await expect(modal).toContainText("X's rules forbid unsolicited bulk or automated direct messages")

  const connect = modal.getByRole('button', { name: 'Connect Account' })
  await expect(connect).toBeDisabled()
  await expect(modal.getByText('Choose a platform to connect')).toBeVisible()
  const x = await xSandbox<SandboxAccount>('accounts', { method: 'POST', body: { passcode: '1234' } })
  await modal.getByRole('button', { name: /Twitter/ }).click()
  await modal.getByLabel('Username').fill(x.username)
  // a disabled Connect says why
  await expect(connect).toHaveAccessibleDescription('Cookies are required for Twitter accounts')
  await modal.getByLabel('Cookies (JSON)').fill('auth_token=123')
  await expect(
    modal.getByText(/^Invalid cookie format or validation failed: Cookies must include auth_token and ct0/),
  ).toBeVisible()
  await expect(connect).toBeDisabled()
  // the header a browser's developer tools show: accepted as it is
  await modal.getByLabel('Cookies (JSON)').fill(x.cookieHeader)
  await modal.getByLabel('X Chat passcode').fill(x.passcode ?? '')
  await expect(connect).toBeEnabled()
  await page.screenshot({ path: info.outputPath('setup-modal-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: info.outputPath('setup-modal-390.png'), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })
  await connect.click()
  await expect(page.getByText('Account connected successfully!')).toBeVisible({ timeout: 120_000 })
  await expect(modal).toBeHidden()
  await page.goto('/dashboard?tab=social-accounts')
  const card = page.getByTestId('account-card').filter({ hasText: x.username })
  await expect(card).toContainText('Active')
  // the first sync is on its way or done: never "Never" right after a connect
  await expect(card).toContainText(/Last Sync\s*(Syncing…|Just now|\d+ minutes? ago)/)
})

/** The database's real time (pg-boss's queue times), not the shifted scheduler clock. */
async function databaseNow(): Promise<Date> {
  const [row] = await sql<{ at: Date }>('select now() as at')
  if (!row) throw new Error('no database time')
  return row.at
}

/** Sets the database's and the X sandbox's clocks the same number of ms ahead of real time. */
async function setClocks(offsetMs: number): Promise<void> {
  await sql(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [offsetMs])
  await xSandbox('clock', { method: 'POST', body: { offsetMs } })
}

/** The account's inbox syncs queued since `since` (database time) that the runner put off for load. */
async function syncsDeferredSince(accountId: string, since: Date): Promise<string[]> {
  const rows = await sql<{ why: string }>(
    `select output ->> 'deferred' as why from pgboss.job
      where name = 'inbox.sync' and singleton_key = 'inbox:' || $1 and created_on >= $2
        and state = 'completed' and output ? 'deferred'`,
    [accountId, since],
  )
  return rows.map((r) => r.why)
}

/**
 * The pace a read must meet, or, on a runner short of CPU, the long-unread bound: a read that needs
 * a sign-in is put off while sends wait or the machine is under pressure, for at most 30 minutes
 * since the last read (COLD_READ_WAITS_AT_MOST_MS). Only a read put off for load excuses the pace.
 */
async function expectPace(
  accountId: string,
  since: Date,
  minutes: number,
  pace: number,
  what: string,
): Promise<void> {
  if (minutes <= pace) return
  const deferred = await syncsDeferredSince(accountId, since)
  expect(
    deferred,
    `${what} took ${minutes} sandbox minutes (pace ${pace}); only a read put off for load excuses that`,
  ).not.toEqual([])
  expect(
    minutes,
    `${what}: reads put off for load (${deferred.join('; ')}) wait 30 minutes at most`,
  ).toBeLessThanOrEqual(31)
}

/** Until the account's queued or running inbox sync is done (the runner works it in seconds). */
async function inboxSyncSettled(accountId: string): Promise<void> {
  await expect(async () => {
    const [row] = await sql<{ n: number }>(
      `select count(*)::int as n from pgboss.job
        where name = 'inbox.sync' and singleton_key = 'inbox:' || $1 and state in ('created', 'retry', 'active')`,
      [accountId],
    )
    expect(row?.n).toBe(0)
  }).toPass({ timeout: 120_000, intervals: [500, 1000, 2000] })
}

async function connectX(page: Page, x: SandboxAccount): Promise<string> {
  await page.goto('/dashboard?tab=social-accounts')
  await page.getByRole('button', { name: 'Add Account' }).first().click()
  await dialog(page)
    .getByRole('button', { name: /Twitter/ })
    .click()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Username').fill(x.username)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  await dialog(page)
    .getByLabel(/X Chat passcode/)
    .fill(x.passcode ?? '')
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByRole('button', { name: 'Add Account' }).click()
  await expect(dialog(page).getByText(`@${x.username} is connected and ready for outreach.`)).toBeVisible({
    timeout: 180_000,
  })
  await dialog(page).getByRole('button', { name: 'Done' }).click()
  return accountIdOf(x.username)
}

test('a lead’s reply reaches the inbox, stops the follow-up and notifies within 15 minutes on the sandbox clock, the next within 5', async ({
  page,
}, info) => {
  test.setTimeout(900_000)
  const x = await xSandbox<SandboxAccount>('accounts', {
    method: 'POST',
    body: { passcode: '1234', behaviour: { replyShare: 0 } },
  })
  const offset = 11_000 + testInt('first-week people', 2000)
  const { profiles } = await xSandbox<{ profiles: { id: string; username: string; name: string }[] }>(
    `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=1&offset=${offset}`,
  )
  const lead = profiles[0]
  if (!lead) throw new Error('no sandbox profile to message')
  const email = uniqueEmail('reply-time')
  await signUpThroughApi(page, email, 'reply-password-1')
  await completeOnboarding(email)
  const accountId = await connectX(page, x)

  // A running campaign with a follow-up three days later (set-up, not the flow under test).
  const [campaign] = await sql<{ id: string }>(
    `with c as (
       insert into public.campaigns (user_id, account_id, name, sequences, schedule, daily_message_limit, status)
       select a.user_id, a.id, 'First week',
              '{"messages": ["Hi {name}, quick question about your work?"], "followUpEnabled": true,
                "followUpMessages": ["Just bumping this, {name}."], "followUpDays": 3}',
              '{"timezone": "UTC", "timeFrom": "00:00", "timeTo": "23:59", "randomDaysOff": false,
                "activeDays": ["monday","tuesday","wednesday","thursday","friday","saturday","sunday"]}',
              50, 'running'
         from public.social_accounts a where a.id = $1
       returning id)
     insert into public.campaign_leads (campaign_id, username, profile_data)
     select c.id, $2, jsonb_build_object('platform_id', $3::text, 'display_name', $4::text) from c
     returning campaign_id as id`,
    [accountId, lead.username, lead.id, lead.name],
  )
  if (!campaign) throw new Error('no campaign')
  await expect(async () => {
    await runSchedulerNow()
    const [row] = await sql<{ state: string; next_send_at: string | null }>(
      'select state, next_send_at from public.campaign_leads where campaign_id = $1',
      [campaign.id],
    )
    expect(row?.state).toBe('sent')
    expect(row?.next_send_at).not.toBeNull()
  }).toPass({ timeout: 180_000, intervals: [3_000, 5_000] })
  await inboxSyncSettled(accountId)

  try {
    // The clock where the account's quarter-hour slot has just passed (a never-read backlog is read
    // in it): the pace, not the slot, must bring the reply.
    const [slot] = await sql<{ minutes: number }>(
      `select ((mod(hashtext($1)::bigint + 2147483648, 15) + 1 - mod(floor(extract(epoch from now()) / 60)::bigint, 15)
               + 15) % 15)::int as minutes`,
      [accountId],
    )
    let clock = (slot?.minutes ?? 0) * 60_000
    await setClocks(clock)
    // the account was just read on that clock (the worst moment for a reply to arrive)
    await runSchedulerNow(accountId)
    await inboxSyncSettled(accountId)
    const replyAt = await databaseNow()
    await xSandbox('messages', {
      method: 'POST',
      body: { account: x.username, from: lead.username, text: 'Yes! Tell me more about it.' },
    })
    // minute by minute, as pg_cron runs the scheduler, until the reply is recorded: an account that
    // is only sending is read every 15 minutes (what the inbox's empty state says)
    const minutesUntil = async (recorded: () => Promise<boolean>, limit: number) => {
      let minutes = 0
      for (; minutes <= limit; minutes++) {
        if (await recorded()) break
        clock += 60_000
        await setClocks(clock)
        await sql('select internal.enqueue_due_work()')
        await inboxSyncSettled(accountId)
      }
      return minutes
    }
    const minutes = await minutesUntil(async () => {
      const [row] = await sql<{ replied: boolean }>(
        'select replied_at is not null as replied from public.campaign_leads where campaign_id = $1',
        [campaign.id],
      )
      return row?.replied === true
    }, 32)
    info.annotations.push({ type: 'reply recorded after', description: `${minutes} sandbox minutes` })
    await expectPace(accountId, replyAt, minutes, 15, 'the reply')

    // follow-up stopped, the customer told, the conversation unread in the inbox
    const [lead_] = await sql<{ next_send_at: string | null; reply_text: string }>(
      'select next_send_at, reply_text from public.campaign_leads where campaign_id = $1',
      [campaign.id],
    )
    expect(lead_).toEqual({ next_send_at: null, reply_text: 'Yes! Tell me more about it.' })
    await page.goto('/dashboard?tab=inbox')
    const thread = page.getByTestId('inbox-thread').filter({ hasText: `@${lead.username}` })
    await expect(thread).toBeVisible()
    await expect(thread.getByTestId('thread-unread-count')).toHaveText(/^1/)
    await page.getByRole('button', { name: /^Notifications/ }).click()
    await expect(page.getByRole('button', { name: /New reply/ }).first()).toContainText(
      'Yes! Tell me more about it.',
    )
    await page.screenshot({ path: info.outputPath('reply-in-inbox-1280.png') })

    // now a conversation goes on: the account is read every 4 minutes, so the next message is
    // there within 5
    const nextAt = await databaseNow()
    await xSandbox('messages', {
      method: 'POST',
      body: { account: x.username, from: lead.username, text: 'When could we talk?' },
    })
    const next = await minutesUntil(async () => {
      const [row] = await sql<{ n: number }>(
        `select count(*)::int as n from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
          where t.account_id = $1 and m.body = 'When could we talk?'`,
        [accountId],
      )
      return (row?.n ?? 0) > 0
    }, 32)
    info.annotations.push({ type: 'next message recorded after', description: `${next} sandbox minutes` })
    await expectPace(accountId, nextAt, next, 5, 'the next message')
  } finally {
    await setClocks(0)
  }
})
