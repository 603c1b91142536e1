// A campaign's figures on the card, in its details, on the dashboard and in the admin tab, each
// compared with the count of the rows it names and equal on every screen (one definition:
// public.campaign_figures). The rows are what the runner leaves (set up here as it writes them): 8
// leads of which 2 are on the do-not-contact list and 1 was refused by X as "verified senders only"
// (not deliverable, no failed delivery), 3 sent (one after a failed try), 1 still being confirmed,
// 1 deferred (its page ran out of time before send: no failure, the delivery rate leaves it out,
// the message log shows it pending), 1 reply. It read "Target count 50", "3/50", a 75 % delivery
// rate, and "Delivery Rate 0.0 %" before anything was sent.
import { expect, test } from '@playwright/test'
import { adminPage } from './admin-support'
import { sql } from './db'
import { completeOnboarding } from './runner-process'
import { signUpThroughApi, uniqueEmail } from './support'

async function campaignAsTheRunnerLeftIt(userId: string, tag: string): Promise<string> {
  const [account] = await sql<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
     select $1, p.id, 'fig_' || $2, 'active', 5 from public.platforms p where p.name = 'twitter' returning id`,
    [userId, tag],
  )
  const [source] = await sql<{ id: string }>(
    `insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
     values ($1, 'Figures source', $2, '[{"type": "followers", "value": "x"}]', 10) returning id`,
    [userId, account?.id],
  )
  await sql(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, source_type, source_value)
     select $1, $2, 'p' || g || '_' || $3, '{}', 'followers', 'x' from generate_series(1, 8) g`,
    [source?.id, userId, tag],
  )
  await sql(
    `insert into public.do_not_contact (user_id, platform, target_username)
     values ($1, 'twitter', 'p5_' || $2), ($1, 'twitter', 'p6_' || $2)`,
    [userId, tag],
  )
  // the create call's target_count is the daily limit (spec): not the campaign's target
  const [row] = await sql<{ id: string }>(
    `insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status, target_count, daily_message_limit)
     values ($1, 'Figures ' || $2, $3, $4, '{"messages": ["hi"]}', 'draft', 50, 50) returning id`,
    [userId, tag, account?.id, source?.id],
  )
  if (!row) throw new Error('no campaign')
  await sql(
    `insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at)
     select l.campaign_id, l.id, c.account_id, 0, x.status, l.username, 'hi', now() - x.ago
       from public.campaign_leads l join public.campaigns c on c.id = l.campaign_id
       join (values ('p1', 'sent', interval '3 hours'), ('p2', 'sent', interval '2 hours'),
                    ('p3', 'uncertain', interval '1 minute'), ('p4', 'failed', interval '90 minutes'),
                    ('p7', 'deferred', interval '5 minutes'), ('p8', 'uncertain', interval '4 minutes')) x (name, status, ago)
         on l.username = x.name || '_' || $2
      where l.campaign_id = $1`,
    [row.id, tag],
  )
  // p4's retry went out; p1 and p2 delivered, p1 replied; p3's send is being confirmed
  await sql(
    `update public.dm_logs set status = 'sent' where campaign_id = $1 and target_username = 'p4_' || $2`,
    [row.id, tag],
  )
  await sql(
    `update public.campaign_leads set state = case when username like 'p3_%' then 'uncertain' else 'sent' end,
            last_sent_at = case when username like 'p3_%' then null else now() - interval '1 hour' end,
            replied_at = case when username like 'p1_%' then now() - interval '30 minutes' end
      where campaign_id = $1 and split_part(username, '_', 1) in ('p1', 'p2', 'p3', 'p4')`,
    [row.id],
  )
  // X refused p8 ("verified senders only", 476): as recordSkipped writes it
  await sql(
    `update public.dm_logs set status = 'skipped', error = 'Only verified accounts can message this user (476)'
      where campaign_id = $1 and target_username = 'p8_' || $2`,
    [row.id, tag],
  )
  await sql(
    `update public.campaign_leads set state = 'skipped', skip_reason = 'requires_verified'
      where campaign_id = $1 and username = 'p8_' || $2`,
    [row.id, tag],
  )
  await sql(`update public.campaigns set status = 'paused' where id = $1`, [row.id])
  return row.id
}

interface Rows {
  leads: number
  eligible: number
  contacted: number
  replied: number
  sent: number
  failed: number
}

const rowsOf = async (campaignId: string): Promise<Rows> =>
  (
    await sql<Rows>(
      `select (select count(*)::int from public.campaign_leads where campaign_id = $1) as leads,
              (select count(*)::int from public.campaign_leads where campaign_id = $1
                  and (state <> 'skipped' or last_sent_at is not null)) as eligible,
              (select count(*)::int from public.campaign_leads where campaign_id = $1 and last_sent_at is not null) as contacted,
              (select count(*)::int from public.campaign_leads where campaign_id = $1 and replied_at is not null) as replied,
              (select count(*)::int from public.dm_logs where campaign_id = $1 and status = 'sent') as sent,
              (select count(*)::int from public.dm_logs where campaign_id = $1 and status in ('failed', 'error')) as failed`,
      [campaignId],
    )
  )[0] as Rows

const percent = (part: number, whole: number, digits = 0) =>
  whole === 0 ? 0 : Math.round((part / whole) * 100 * 10 ** digits) / 10 ** digits

test('campaign figures on the card, in the details, on the dashboard and in the admin are the rows’ counts', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000)
  const email = uniqueEmail('figures')
  const userId = await signUpThroughApi(page, email, 'figures-password-1')
  await completeOnboarding(email)
  // before anything was sent there is no rate to show
  await page.goto('/dashboard')
  await expect(page.getByTestId('stat-Delivery Rate')).toHaveText('—')

  const tag = Date.now().toString(36).slice(-6)
  const campaignId = await campaignAsTheRunnerLeftIt(userId, tag)
  const rows = await rowsOf(campaignId)
  expect(rows).toEqual({ leads: 8, eligible: 5, contacted: 3, replied: 1, sent: 3, failed: 0 })
  const notDeliverable = rows.leads - rows.eligible
  const delivery = percent(rows.sent, rows.sent + rows.failed, 1).toFixed(1)
  const progress = percent(rows.contacted, rows.eligible, 1).toFixed(1)
  const eligibleText = `${rows.contacted} of ${rows.eligible} eligible`

  await page.reload()
  const card = page.getByTestId('campaign-card').filter({ hasText: `Figures ${tag}` })
  await expect(card).toContainText(new RegExp(`Total Leads\\s*${rows.leads}`))
  await expect(card).toContainText(new RegExp(`Messages Sent\\s*${rows.sent}`))
  await expect(card).toContainText(new RegExp(`Delivery Rate\\s*${Math.round(Number(delivery))}%`))
  await expect(card).toContainText(`${Math.round(Number(progress))}% contacted (${eligibleText})`)
  await expect(page.getByTestId('stat-Delivery Rate')).toHaveText(`${delivery}%`)
  await expect(page.getByTestId('stat-Messages Sent')).toContainText(String(rows.sent))
  await page.screenshot({ path: info.outputPath('campaign-card-figures-1280.png') })

  await card.click()
  const details = page.getByRole('dialog', { name: `Figures ${tag}` })
  await expect(details.getByText('Total Leads').locator('..')).toContainText(String(rows.leads))
  await expect(details.getByText('Messages Sent').locator('..')).toContainText(String(rows.sent))
  await expect(details.getByText('Responses').locator('..')).toContainText(String(rows.replied))
  await expect(details.getByText('Reply Rate').locator('..')).toContainText(
    `${percent(rows.replied, rows.sent, 1)}%`,
  )
  await expect(details.getByText('Target count').locator('..')).toContainText(
    `${rows.leads} leads (${rows.eligible} eligible, ${notDeliverable} not deliverable)`,
  )
  await page.screenshot({ path: info.outputPath('campaign-figures-1280.png') })
  await details.getByRole('tab', { name: 'Analytics' }).click()
  await expect(details.getByTestId('detail-Delivery Rate')).toHaveText(`${delivery}%`)
  await expect(details.getByTestId('detail-Progress')).toHaveText(`${progress}%`)
  await expect(details.getByText('Progress', { exact: true }).locator('..')).toContainText(eligibleText)
  await expect(details.getByTestId('chart-per-day').locator('svg').first()).toBeVisible()
  await page.screenshot({ path: info.outputPath('campaign-analytics-1280.png') })

  // the deferred DM waits in the message log as Pending, its note not an error
  await details.getByRole('tab', { name: 'Messages' }).click()
  const deferred = details
    .getByTestId('campaign-messages')
    .getByRole('listitem')
    .filter({ hasText: `@p7_${tag}` })
  await expect(deferred.getByText('Pending')).toBeVisible()
  await page.screenshot({ path: info.outputPath('campaign-messages-1280.png') })
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(deferred.getByText('Pending')).toBeVisible()
  await page.screenshot({ path: info.outputPath('campaign-messages-390.png') })
  await details.getByRole('tab', { name: 'Overview' }).click()
  await expect(details.getByText('Target count').locator('..')).toContainText(`${rows.eligible} eligible`)
  await page.screenshot({ path: info.outputPath('campaign-overview-390.png') })
  await page.keyboard.press('Escape')
  await expect(card).toContainText(`(${eligibleText})`)
  await card.scrollIntoViewIfNeeded()
  await page.screenshot({ path: info.outputPath('campaign-card-figures-390.png') })

  // The operator sees the same people: contacted / target.
  const admin = await adminPage(browser)
  await admin.page.goto('/admin?tab=campaigns')
  const row = admin.page
    .getByTestId('campaigns-table')
    .getByRole('row', { name: new RegExp(`Figures ${tag}`) })
  await expect(row).toContainText(`${rows.contacted}/${rows.eligible}`)
  await admin.context.close()
})
