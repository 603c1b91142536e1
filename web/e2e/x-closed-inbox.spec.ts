// A lead's closed inbox on X, end to end on the real stack with a real runner and the X sandbox as
// x.com draws it (the notice "@handle has a closed inbox. …" with "Not Now" / "Use X Number" in
// place of the composer; no sent-status marker, so every send is proven from its own row): a
// campaign to 10 leads, one of whom takes no DMs, delivers exactly one DM to each of the other 9
// (the sandbox's own delivery log), skips the closed one with the reason on the campaign's Leads
// tab, pauses nothing and flags nothing.
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import { closeDb, connectXAccount, db } from './admin-support'
import {
  completeOnboarding,
  type Lead,
  runnerForTheseTests,
  runningCampaign,
  runSchedulerNow,
} from './runner-process'
import { dialog, signUpThroughApi, uniqueEmail, xSandbox } from './support'

const OPEN_LEADS = 9
/** Screenshots go here when set (docs/screenshots keeps the reviewed ones). */
const SHOTS = process.env.PLATFORM_SCREENSHOTS_DIR

/** Until `check` passes, running the scheduler's minute between tries (never waiting for pg_cron). */
async function eventually(check: () => Promise<void>, accountId: string): Promise<void> {
  await expect(async () => {
    try {
      await check()
    } catch (error) {
      await runSchedulerNow(accountId)
      throw error
    }
  }).toPass({ timeout: 300_000, intervals: [2_000, 3_000, 5_000] })
}

/** DMs the X sandbox received from the account, per lead (its own message store, not ours). */
async function deliveredPerLead(username: string): Promise<Record<string, number>> {
  const { deliveries } = await xSandbox<{ deliveries: { recipientUsername: string }[] }>(
    `deliveries?account=${encodeURIComponent(username)}`,
  )
  const counts: Record<string, number> = {}
  for (const d of deliveries) counts[d.recipientUsername] = (counts[d.recipientUsername] ?? 0) + 1
  return counts
}

async function leadStates(campaignId: string) {
  const { rows } = await db().query<{ username: string; state: string; skip_reason: string | null }>(
    'select username, state, skip_reason from public.campaign_leads where campaign_id = $1 order by username',
    [campaignId],
  )
  return rows
}

async function openLeadsTab(page: Page, campaignName: string): Promise<void> {
  await page.goto('/dashboard')
  await page.getByTestId('campaign-card').filter({ hasText: campaignName }).click()
  await dialog(page).getByRole('tab', { name: 'Leads' }).click()
}

test.describe('X: a lead with a closed inbox', () => {
  test.setTimeout(420_000)
  runnerForTheseTests()
  test.afterAll(async () => {
    await closeDb()
  })

  test('10 leads, one closed inbox → 9 DMs once each, the closed one skipped with its reason, nothing paused or flagged', async ({
    page,
  }) => {
    const email = uniqueEmail('closed-inbox')
    const userId = await signUpThroughApi(page, email, 'e2e-password-123')
    await completeOnboarding(email)
    const { username, accountId } = await connectXAccount(userId, {
      behaviour: { replyShare: 0 },
    })
    const offset = 6_000 + testInt('x-closed-inbox people', 3000)
    console.log(`lead offset ${offset}`)
    const { profiles: open } = await xSandbox<{ profiles: Lead[] }>(
      `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=${OPEN_LEADS}&offset=${offset}`,
    )
    const { profiles: closedOnes } = await xSandbox<{ profiles: Lead[] }>(
      `profiles?canDm=false&protected=false&limit=1&offset=${offset % 200}`,
    )
    const closed = closedOnes[0]
    if (!closed) throw new Error('no profile with DMs closed')
    expect(open).toHaveLength(OPEN_LEADS)
    // scraped without X's can_dm (the lead row does not say): the runner meets the closed inbox itself
    const leads = [...open.slice(0, 4), closed, ...open.slice(4)]
    const name = 'Closed inbox'
    const campaignId = await runningCampaign(accountId, leads, { name })

    await eventually(async () => {
      const states = await leadStates(campaignId)
      expect(states.filter((l) => l.state === 'sent')).toHaveLength(OPEN_LEADS)
      expect(states.find((l) => l.username === closed.username)).toMatchObject({
        state: 'skipped',
        skip_reason: 'closed_inbox',
      })
    }, accountId)

    // exactly one DM to each open lead, none to the closed one, read from the sandbox's own log
    const delivered = await deliveredPerLead(username)
    expect(delivered).toEqual(Object.fromEntries(open.map((l) => [l.username, 1])))
    const { rows: logs } = await db().query<{
      target_username: string
      status: string
      error: string | null
    }>(
      `select target_username, status, error from public.dm_logs where campaign_id = $1 and status <> 'sent'`,
      [campaignId],
    )
    expect(logs).toEqual([
      {
        target_username: closed.username,
        status: 'skipped',
        error: `@${closed.username} has a closed inbox. If you know their X Number you can still message them. (closed_inbox)`,
      },
    ])
    // nothing paused, nothing flagged, no incident, nothing for the breaker
    const { rows: pauses } = await db().query(
      `select 1 from public.platform_action_pauses where platform = 'twitter'`,
    )
    expect(pauses).toEqual([])
    const { rows: incidents } = await db().query(
      'select 1 from public.dm_logs where campaign_id = $1 and incident_id is not null',
      [campaignId],
    )
    expect(incidents).toEqual([])
    const { rows: account } = await db().query<{ status: string; flag_reason: string | null }>(
      'select status, flag_reason from public.social_accounts where id = $1',
      [accountId],
    )
    expect(account).toEqual([{ status: 'active', flag_reason: null }])

    // the customer sees the lead skipped, and why
    await openLeadsTab(page, name)
    const row = dialog(page)
      .getByRole('row')
      .filter({ hasText: `@${closed.username}` })
    await expect(row.getByText('Skipped')).toBeVisible()
    await expect(row.getByTestId('skip-reason')).toHaveText(`@${closed.username} has a closed inbox`)
    await expect(dialog(page).getByRole('row').filter({ hasText: 'Sent' })).toHaveCount(OPEN_LEADS)
    await page.setViewportSize({ width: 1280, height: 800 })
    await row.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS ?? test.info().outputDir}/x-closed-inbox-leads.png` })
    await page.setViewportSize({ width: 390, height: 844 })
    await row.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS ?? test.info().outputDir}/x-closed-inbox-leads-390.png` })
  })
})
