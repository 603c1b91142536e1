// Workspaces in the inbox and the activity log, on the real stack: the owner assigns a conversation
// to a teammate and to themselves ("Assigned to me" / "Unassigned" follow), leaves an internal note
// that reads as one, and the Activity page (owners and admins only) filters, pages and exports the
// log as CSV (every filtered row, formulas defused). An agent sees no Activity link and no log.
import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import { sql } from './db'
import { completeOnboarding } from './runner-process'
import { signUpThroughApi, uniqueEmail } from './support'

/** Screenshots go here when set (docs/screenshots keeps the reviewed ones). */
const SHOTS = process.env.PLATFORM_SCREENSHOTS_DIR

async function shoot(page: Page, name: string, outputPath: (name: string) => string, fullPage = true) {
  await page.screenshot({ path: outputPath(`${name}.png`), fullPage })
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage })
}

/** Test set-up, as the system would: the owner's X account and one conversation with a reply. */
async function conversationOf(
  ownerId: string,
  peer: string,
): Promise<{ accountId: string; threadId: string }> {
  const [account] = await sql<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
     select $1, p.id, $2, 'active', 5 from public.platforms p where p.name = 'twitter' returning id`,
    [ownerId, `studio_${peer}`],
  )
  if (!account) throw new Error('no account')
  const [thread] = await sql<{ id: string }>(
    `insert into public.inbox_threads (user_id, account_id, peer_username, last_message_at, last_message_preview,
                                       last_message_direction, last_incoming_at)
     values ($1, $2, $3, now(), 'Tell me more about the demo', 'incoming', now()) returning id`,
    [ownerId, account.id, peer],
  )
  if (!thread) throw new Error('no thread')
  await sql(
    `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, status, dedupe_key, sent_at)
     values ($1, $2, $3, 'incoming', 'Tell me more about the demo', 'received', 'id:e2e-1', now())`,
    [thread.id, ownerId, account.id],
  )
  return { accountId: account.id, threadId: thread.id }
}

test.describe('workspace inbox and activity', () => {
  test.setTimeout(240_000)

  test('assignment, an internal note, and the activity log with its CSV', async ({ page, browser }, info) => {
    const run = testInt('workspace inbox', 1_000_000)
    const peer = `keen_${run}`
    const ownerEmail = uniqueEmail('ws-owner')
    const agentEmail = uniqueEmail('ws-agent')

    // The agent signs up on their own, then the owner's workspace takes them in as an agent.
    const agentContext = await browser.newContext()
    const agentPage = await agentContext.newPage()
    const agentId = await signUpThroughApi(agentPage, agentEmail, 'e2e-password-123')
    await completeOnboarding(agentEmail)
    const ownerId = await signUpThroughApi(page, ownerEmail, 'e2e-password-123')
    await completeOnboarding(ownerEmail)
    await sql(`insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'agent')`, [
      ownerId,
      agentId,
    ])
    await sql('update public.user_profiles set active_workspace_id = $1 where id = $2', [ownerId, agentId])
    const { threadId } = await conversationOf(ownerId, peer)

    // Assign to the agent: the list names them; "Unassigned" no longer shows it.
    await page.goto(`/dashboard?tab=inbox&thread=${threadId}`)
    const conversation = page.getByRole('region', { name: `Conversation with @${peer}` })
    const assignee = conversation.getByLabel('Assigned to')
    await expect(assignee).toHaveValue('')
    await assignee.selectOption({ label: agentEmail })
    await expect(page.getByText(`Assigned to ${agentEmail}`)).toBeVisible()
    const row = page.getByTestId('inbox-thread').filter({ hasText: `@${peer}` })
    await expect(row.getByTestId('thread-assignee')).toHaveText(agentEmail)
    const [assigned] = await sql<{ assigned_to: string }>(
      'select assigned_to from public.inbox_threads where id = $1',
      [threadId],
    )
    expect(assigned?.assigned_to).toBe(agentId)

    // (with no conversation open: an open one hidden by the filters brings every conversation back)
    await page.goto('/dashboard?tab=inbox')
    await expect(row).toBeVisible()
    await page.getByRole('radio', { name: 'Unassigned' }).click()
    await expect(row).toHaveCount(0)
    await page.getByRole('radio', { name: 'Assigned to me' }).click()
    await expect(row).toHaveCount(0)

    // Taken over by the owner: it is theirs now ("You").
    await page.getByRole('radio', { name: 'Everyone' }).click()
    await row.click()
    await conversation.getByLabel('Assigned to').selectOption({ label: 'You' })
    await expect(page.getByText('Assigned to you')).toBeVisible()
    await page.goto('/dashboard?tab=inbox')
    await page.getByRole('radio', { name: 'Assigned to me' }).click()
    await expect(row.getByTestId('thread-assignee')).toHaveText('You')
    await page.getByRole('radio', { name: 'Unassigned' }).click()
    await expect(row).toHaveCount(0)
    await page.getByRole('radio', { name: 'Assigned to me' }).click()
    await row.click()

    // An internal note: in the timeline, marked as one, apart from the messages.
    const noteText = `Asked for the robot arm demo, call on Tuesday ${run}`
    await conversation.getByRole('radio', { name: 'Internal note' }).click()
    await conversation.getByLabel(`Internal note on the conversation with @${peer}`).fill(noteText)
    await conversation.getByRole('button', { name: 'Add note' }).click()
    const note = conversation.getByTestId('inbox-note')
    await expect(note).toHaveCount(1)
    await expect(note).toContainText('Internal note — only your team sees this')
    await expect(note).toContainText(noteText)
    await expect(note).toContainText('You ·')
    await expect(conversation.getByTestId('inbox-message')).toHaveCount(1)
    await expect(conversation.getByTestId('inbox-message')).not.toContainText(noteText)
    await shoot(page, 'inbox-assign-note-1280', info.outputPath.bind(info))

    // Its author edits it.
    await note.getByRole('button', { name: 'Edit' }).click()
    await note.getByLabel('Edit your note').fill(`${noteText} (confirmed)`)
    await note.getByRole('button', { name: 'Save note' }).click()
    await expect(note).toContainText(`${noteText} (confirmed)`)
    await expect(note).toContainText('edited')

    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await expect(conversation.getByTestId('inbox-note')).toBeVisible()
    await shoot(page, 'inbox-assign-note-390', info.outputPath.bind(info))
    await page.setViewportSize({ width: 1280, height: 800 })

    // The log as the system keeps it: Reachflow paused 60 campaigns over the last days (one named like
    // a formula), so the page has more than one page and the export more than a page's rows.
    await sql(
      `insert into public.workspace_activity (workspace_id, actor_id, actor_label, action, subject_type, subject_label, details, at)
       select $1, null, null, 'campaign.paused', 'campaign',
              case when n = 1 then '=HYPERLINK("http://evil.test")' else 'Batch ' || n end,
              '{"from": "running", "to": "paused"}', internal.now() - n * interval '1 hour'
         from generate_series(1, 60) n`,
      [ownerId],
    )

    // Only owners and admins: the agent has no link and reads nothing.
    await agentPage.goto('/activity')
    await expect(
      agentPage.getByRole('heading', { name: 'Only owners and admins see the activity' }),
    ).toBeVisible()
    // the role is known by now (the page above read it): still no link in the header
    await expect(agentPage.getByRole('link', { name: 'Activity' })).toHaveCount(0)
    await expect(agentPage.getByTestId('activity-entry')).toHaveCount(0)
    await agentContext.close()

    await page.goto('/dashboard')
    await page.getByRole('link', { name: 'Activity' }).click()
    await expect(page).toHaveURL(/\/activity$/)
    const entries = page.getByTestId('activity-entry')
    await expect(entries).toHaveCount(50)
    // newest first: the owner's own assignments lead
    await expect(entries.first()).toContainText(`${ownerEmail} assigned @${peer} to ${ownerEmail}`)
    await expect(page.getByText(`${ownerEmail} assigned @${peer} to ${agentEmail}`)).toBeVisible()
    await expect(page.getByText(`${ownerEmail} connected @studio_${peer} on X`)).toBeVisible()
    await expect(page.getByText(`Reachflow added ${agentEmail} as agent`)).toBeVisible()
    await shoot(page, 'activity-1280', info.outputPath.bind(info))

    // Filters: Reachflow's own lines, one action; pages of 50.
    await page.getByLabel('Member', { exact: true }).selectOption({ label: 'Reachflow (automatic)' })
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Campaign paused' })
    await expect(page.getByTestId('activity-range')).toHaveText('1–50 of 60')
    await page.getByRole('button', { name: 'Next' }).click()
    await expect(page.getByTestId('activity-range')).toHaveText('51–60 of 60')
    await expect(entries).toHaveCount(10)
    await expect(entries.last()).toContainText('Reachflow paused the campaign Batch 60')

    // The CSV holds every filtered row, not the page, with the formula defused.
    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const csv = await readFile((await (await downloading).path()) ?? '', 'utf8')
    const [header, ...lines] = csv.trimEnd().split('\r\n')
    expect(header).toBe('"When","Who","Action","Subject","What Happened"')
    expect(lines).toHaveLength(60)
    expect(lines.every((line) => line.includes('"Reachflow","Campaign paused"'))).toBe(true)
    expect(lines[0]).toContain(`"'=HYPERLINK(""http://evil.test"")"`)
    expect(lines.some((line) => line.includes('assigned'))).toBe(false)
    await expect(page.getByText('60 entries exported')).toBeVisible()

    // A member's lines only; then a date range with nothing in it.
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'All actions' })
    await page.getByLabel('Member', { exact: true }).selectOption({ label: `${ownerEmail} (you)` })
    await expect(entries).toHaveCount(3)
    await expect(entries.filter({ hasText: 'Reachflow' })).toHaveCount(0)
    await page.getByLabel('From', { exact: true }).fill('2020-01-01')
    await page.getByLabel('To', { exact: true }).fill('2020-01-31')
    await expect(page.getByRole('heading', { name: 'Nothing matches these filters' })).toBeVisible()

    // A phone: the filters stack above the log (the first screen of it).
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await expect(entries).toHaveCount(50)
    await shoot(page, 'activity-390', info.outputPath.bind(info), false)
  })
})
