// A site change end to end on this side of the adapters, against the X sandbox in Chromium: the
// canary's read-only run passes with a time per step. One customer's job meeting an unexpected page
// pauses nothing: only that account's work of the action waits, and a canary run is queued; that
// run failing the same step on a real page (a marker the page lacks, a real LayoutChangedError) is
// the evidence: the incident (redacted outline handed over for storage) pauses the action
// fleet-wide with both sightings recorded, tells customers, and leaves the accounts alone; a
// passing run resolves it. A DM in hand when the page changed is settled for what it was (not
// sent before send was pressed, uncertain after), never counted by the breaker, never resent
// blindly; once the account's wait is over every lead has exactly one DM, and an inbox answer
// that waited in the queue is sent once. Alone: pauses are fleet-wide.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testInt, testRandom } from '../../../stack/src/test-seed.ts'
import { tripBreakerIfNeeded } from '../../src/accounts/status.ts'
import { type CanaryStep, DEFAULT_STEPS } from '../../src/canary/steps.ts'
import { sendQueuedAnswers } from '../../src/inbox/answers.ts'
import { campaignTick } from '../../src/jobs/campaign-tick.ts'
import { inboxSync } from '../../src/jobs/inbox-sync.ts'
import { platformCanary } from '../../src/jobs/platform-canary.ts'
import { scrapeRun } from '../../src/jobs/scrape-run.ts'
import { guardSiteChange } from '../../src/jobs/site-change-guard.ts'
import { LayoutChangedError, layoutChanged } from '../../src/platforms/layout.ts'
import type { XSession } from '../../src/platforms/x/session.ts'
import { nextDueLead } from '../../src/sending/intent.ts'
import { type CampaignForSend, type SendDeps, sendToLead } from '../../src/sending/send-lead.ts'
import { loadAccount } from '../../src/sessions/open.ts'
import { actionState } from '../../src/site-change/record.ts'
import { type TestRunner, testRunner } from '../helpers/context.ts'
import {
  accountRow,
  adminDb,
  closeAdminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  leadsOf,
  logsOf,
  notificationsOf,
} from '../helpers/fixtures.ts'
import { editedPack } from '../helpers/packs.ts'
import { quietOtherWork } from '../helpers/process.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from '../helpers/sandbox.ts'
import { newXAccount } from '../helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
let runner: TestRunner
let restoreOtherWork: (() => Promise<void>) | undefined

/** Moves the database's and the X sandbox's clocks to real time + offset. */
async function clockAt(offsetMs: number): Promise<void> {
  await adminDb().query(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [
    offsetMs,
  ])
  await x.call('POST', '/clock', { offsetMs })
}

async function clearSiteChanges(): Promise<void> {
  const db = adminDb()
  await db.query('delete from public.platform_canary_accounts')
  await db.query(`delete from public.platform_action_pauses`)
  await db.query(`update public.platform_incidents set status = 'resolved', resolved_at = now(), resolution = 'operator'
                   where status = 'open'`)
}

beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
  await clearSiteChanges()
  runner = await testRunner()
})
afterAll(async () => {
  await clockAt(0)
  await clearSiteChanges()
  await runner.close()
  await restoreOtherWork?.()
  await closeAdminDb()
})

/** An X account of a new customer, chosen for the canary. */
async function canaryAccount() {
  const userId = await createCustomer()
  const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
  const accountId = await createXAccount(userId, sandbox)
  await adminDb().query('insert into public.platform_canary_accounts (account_id) values ($1)', [accountId])
  return { userId, sandbox, accountId }
}

async function runCanary(steps?: CanaryStep[]) {
  const run = await adminDb().query<{ id: string }>(`select public.admin_run_canary('twitter', null) as id`)
  const runId = run.rows[0]?.id ?? ''
  expect(runId).not.toBe('')
  const result = await platformCanary(runner.context(), { runId }, steps)
  const row = await adminDb().query<{
    status: string
    steps: { step: string; status: string; ms: number }[]
    duration_ms: number
  }>('select status, steps, duration_ms from public.platform_canary_runs where id = $1', [runId])
  return { result, row: row.rows[0] }
}

/** A canary step that checks, on X's home page, for a marker the page does not have. */
const MISSING_MARKER: CanaryStep = {
  name: 'inbox-marker',
  label: 'Inbox panel marker',
  run: async (input) => {
    const session = input.session as XSession
    return session.run('canary: inbox marker', 40_000, async (page) => {
      await session.goto(page, '/home')
      if (!(await page.$('[data-testid="dm-inbox-panel-2027"]')))
        throw await layoutChanged(page, 'x', 'inbox', 'inbox: panel marker')
      return 'found'
    })
  },
}

async function openIncidents() {
  const { rows } = await adminDb().query<{
    id: string
    action: string
    step: string
    source: string
    sightings: number
    paused: boolean
  }>(
    `select id, action, step, source, sightings, paused_at is not null as paused
       from public.platform_incidents where status = 'open'`,
  )
  return rows
}

/** The wait of an account that met a page nobody confirmed ends with the evidence window. */
const PAST_THE_WINDOW_MS = 31 * 60_000

const HELD_INBOX =
  'Reading replies from this account waits a little: X showed it a page we did not expect, and we are checking whether X changed. Nothing is lost and it resumes on its own.'

describe('site changes', () => {
  it('one account meeting a changed page waits alone; the canary failing the same step pauses with the evidence; a pass resumes', async () => {
    const { userId, sandbox, accountId } = await canaryAccount()
    const [lead] = await openProfiles(x, 1, 14_000 + testInt('site-change lead', 500))
    if (!lead) throw new Error('no lead')
    // one conversation with nothing unread, for the thread step
    const campaignId = await createCampaign(userId, accountId, [lead])
    expect((await campaignTick(runner.context(), { campaignId, accountId })).sent).toBe(1)
    const before = await accountRow(accountId)

    const passing = await runCanary()
    expect(passing.result.status).toBe('passed')
    expect(passing.row?.status).toBe('passed')
    expect(passing.row?.steps.map((s) => [s.step, s.status])).toEqual([
      ['session', 'passed'],
      ['inbox', 'passed'],
      ['thread', 'passed'],
      ['profile', 'passed'],
      ['search', 'passed'],
    ])
    for (const step of passing.row?.steps ?? []) expect(step.ms).toBeGreaterThanOrEqual(0)
    expect(passing.row?.duration_ms).toBeGreaterThan(0)
    expect(await x.deliveries(sandbox.username)).toHaveLength(1) // read-only: nothing was sent

    // another customer's inbox read meets the page first: that account waits, nobody else does
    const other = await createCustomer()
    const otherSandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const otherAccount = await createXAccount(other, otherSandbox)
    const seen = await guardSiteChange(
      runner.context(),
      async () => {
        throw new LayoutChangedError('x', 'inbox', 'inbox: panel marker', '/home', {
          lines: ['main'],
          truncated: false,
        })
      },
      otherAccount,
    )
    expect(seen).toMatchObject({
      note: 'An unexpected page at "inbox: panel marker": this account\'s inbox waits while the canary checks.',
    })
    expect(await openIncidents()).toMatchObject([
      { step: 'inbox: panel marker', source: 'job', paused: false },
    ])
    expect((await adminDb().query('select 1 from public.platform_action_pauses')).rowCount).toBe(0)
    expect((await inboxSync(runner.context(), { accountId: otherAccount })).note).toBe(HELD_INBOX)
    expect((await inboxSync(runner.context(), { accountId })).note).not.toBe(HELD_INBOX) // the canary's account reads on
    expect(
      [...(await notificationsOf(userId)), ...(await notificationsOf(other))].map((n) => n.type),
    ).not.toContain('platform_paused')
    // the canary checks at once: a confirm run, or the scheduled one pg_cron queued a moment before
    const queued = await adminDb().query<{ id: string }>(
      `select id from public.platform_canary_runs
        where platform = 'twitter' and status = 'queued' and trigger in ('confirm', 'schedule')`,
    )
    expect(queued.rowCount).toBe(1)

    // the canary's run meets the same step on its own account: that is the site
    const runId = queued.rows[0]?.id ?? ''
    const changed = await platformCanary(runner.context(), { runId }, [...DEFAULT_STEPS, MISSING_MARKER])
    expect(changed.status).toBe('failed')
    const failed = changed.steps?.find((s) => s.step === 'inbox-marker')
    expect(failed).toMatchObject({ status: 'failed', kind: 'layout_changed', path: '/home' })
    expect(failed?.outlineLines).toBeGreaterThan(0)
    const [incident] = await openIncidents()
    expect(incident).toMatchObject({
      action: 'inbox',
      step: 'inbox: panel marker',
      source: 'job',
      sightings: 2,
      paused: true,
    })
    expect(failed?.incidentId).toBe(incident?.id)
    const evidence = await adminDb().query<{
      evidence: { reason: string; sightings: Record<string, unknown>[] }
    }>('select evidence from public.platform_incidents where id = $1', [incident?.id])
    expect(evidence.rows[0]?.evidence.reason).toBe('canary')
    expect(
      evidence.rows[0]?.evidence.sightings.map((e) => [e.source, e.username, e.canaryRunId ?? null, e.path]),
    ).toEqual([
      ['job', otherSandbox.username, null, '/home'],
      ['canary', sandbox.username, runId, '/home'],
    ])

    const outline = await adminDb().query<{ outline: { lines: string[] } }>(
      'select outline from public.platform_incident_outlines where incident_id = $1',
      [incident?.id],
    )
    const lines = outline.rows[0]?.outline.lines ?? []
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(sandbox.username) // no names or text in the outline
    const pauses = await adminDb().query('select platform, action from public.platform_action_pauses')
    expect(pauses.rows).toEqual([{ platform: 'twitter', action: 'inbox' }])
    expect(
      (await notificationsOf(userId)).filter((n) => n.type === 'platform_paused').map((n) => n.title),
    ).toEqual(['Reading replies on X is paused'])
    const after = await accountRow(accountId)
    expect([after.status, after.trust_score, after.flag_reason]).toEqual([
      before.status,
      before.trust_score,
      null,
    ])

    const sync = await inboxSync(runner.context(), { accountId: otherAccount })
    expect(sync.note).toBe(
      'Reading replies on X is paused while we adapt to a change on X; nothing is lost and it resumes on its own.',
    )

    const healed = await runCanary()
    expect(healed.row?.status).toBe('passed')
    expect(await openIncidents()).toEqual([])
    expect((await adminDb().query('select 1 from public.platform_action_pauses')).rowCount).toBe(0)
    expect(
      (await notificationsOf(userId)).filter((n) => n.type === 'platform_resumed').map((n) => n.title),
    ).toEqual(['Reading replies on X has resumed'])
  })

  it('the DM in hand: not sent before pressing, uncertain after; the account waits, then each lead gets exactly one DM', async () => {
    await clearSiteChanges()
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const leads = await openProfiles(x, 4, 15_000 + testInt('site-change leads', 500))
    const campaignId = await createCampaign(userId, accountId, leads, {
      messages: ['Hello {name}, one question.'],
    })
    const account = await loadAccount(adminDb(), accountId)
    if (!account) throw new Error('no account')
    const campaign = (
      await adminDb().query<CampaignForSend>(
        'select id, workspace_id, user_id, name, sequences from public.campaigns where id = $1',
        [campaignId],
      )
    ).rows[0]
    if (!campaign) throw new Error('no campaign')
    const before = await accountRow(accountId)

    // The real adapters under published packs that name what the page lacks: the composer (three
    // sends, stopped before send was pressed), then the sent message's text holder (one real send
    // went out, its own row never showed the text).
    const noComposer = editedPack('twitter', 'x-test-composer', (f) => {
      f.chat.composer = 'form[data-testid="dm-composer-form"] textarea[data-testid="dm-composer-input"]'
    })
    const noStatus = editedPack('twitter', 'x-test-status', (f) => {
      f.chat.messageText = '[data-testid="message-body-{id}"]'
    })
    const outcomes = await runner.sessions.use(accountId, 60_000, async (handle) => {
      const results = []
      for (let i = 0; i < 4; i++) {
        const pack = i < 3 ? noComposer : noStatus
        const opened = await handle.open(account, pack)
        if (opened.status !== 'ok') throw new Error(opened.message)
        const deps: SendDeps = {
          db: runner.db,
          log: runner.context().log,
          session: opened.session,
          account,
          lease: handle.lease,
          signal: new AbortController().signal,
          random: testRandom('site-change sends'),
          pacingFactor: 0,
          packVersion: pack.version,
        }
        const lead = await nextDueLead(runner.db, campaignId)
        if (!lead) throw new Error('no due lead')
        results.push(await sendToLead(deps, campaign, lead))
      }
      return results
    })
    expect(outcomes).toEqual({
      status: 'done',
      value: ['site_changed', 'site_changed', 'site_changed', 'site_changed'],
    })

    const logs = await logsOf(campaignId)
    // the three stopped before send was pressed went nowhere: deferred, not failures in any figure
    expect(logs.map((l) => l.status).sort()).toEqual(['deferred', 'deferred', 'deferred', 'uncertain'])
    // one incident per changed step, each naming it: the three unsent share one
    const incidents = await adminDb().query<{ step: string; n: number }>(
      `select i.step, count(*)::int as n from public.dm_logs l join public.platform_incidents i on i.id = l.incident_id
        where l.campaign_id = $1 group by i.step order by i.step`,
      [campaignId],
    )
    expect(incidents.rows).toEqual([
      { step: 'confirm: text of the sent message', n: 1 },
      { step: 'open thread: composer', n: 3 },
    ])
    expect(await x.deliveries(sandbox.username)).toHaveLength(1) // only the one sent before the page changed
    expect((await leadsOf(campaignId)).map((l) => l.state).sort()).toEqual([
      'pending',
      'pending',
      'pending',
      'uncertain',
    ])
    const after = await accountRow(accountId)
    expect([after.status, after.trust_score, after.paused_until]).toEqual([
      'active',
      before.trust_score,
      null,
    ])
    expect(await tripBreakerIfNeeded(adminDb(), { ...account })).toBe(false) // four bad sends, none the account's

    // one account met the pages: nothing is paused for the fleet, this account's sending waits
    expect((await adminDb().query('select 1 from public.platform_action_pauses')).rowCount).toBe(0)
    const held = await campaignTick(runner.context(), { campaignId, accountId })
    expect(held.note).toBe(
      'Sending from this account waits a little: X showed it a page we did not expect, and we are checking whether X changed. Nothing is lost and it resumes on its own.',
    )
    const card = await adminDb().query<{ error_message: string }>(
      'select error_message from public.campaigns where id = $1',
      [campaignId],
    )
    expect(card.rows[0]?.error_message).toBe(held.note)

    await clockAt(PAST_THE_WINDOW_MS) // nobody confirmed it: the account tries again
    const resumed = await campaignTick(runner.context(), { campaignId, accountId })
    expect(resumed).toMatchObject({ settledSent: 1, sent: 3 })
    const delivered = await x.deliveries(sandbox.username)
    expect(delivered.map((d) => d.recipientUsername).sort()).toEqual(leads.map((l) => l.username).sort())
    expect((await leadsOf(campaignId)).map((l) => l.state)).toEqual(['sent', 'sent', 'sent', 'sent'])
    await clockAt(0)
  })
  it('an inbox answer stopped by a changed page before sending waits in the queue and is sent once after the pause', async () => {
    await clearSiteChanges()
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead] = await openProfiles(x, 1, 14_600 + testInt('site-change canary lead', 300))
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [lead])
    expect((await campaignTick(runner.context(), { campaignId, accountId })).sent).toBe(1)
    await x.message({ account: sandbox.username, from: lead.username, text: 'Who is this?' })
    await inboxSync(runner.context(), { accountId })
    const thread = await adminDb().query<{ id: string }>(
      'select id from public.inbox_threads where account_id = $1 and peer_username = $2',
      [accountId, lead.username],
    )
    const body = 'We build outreach tools, happy to show you.'
    await adminDb().query(
      `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
       values ($1, $2, $3, 'outgoing', $4, 'reachflow', 'queued', 'reply:site-change')`,
      [thread.rows[0]?.id, userId, accountId, body],
    )
    const account = await loadAccount(adminDb(), accountId)
    if (!account) throw new Error('no account')
    const statusOf = async () =>
      (
        await adminDb().query<{ status: string; error: string | null }>(
          'select status, error from public.inbox_messages where body = $1 and account_id = $2',
          [body, accountId],
        )
      ).rows[0]

    const noComposer = editedPack('twitter', 'x-test-composer', (f) => {
      f.chat.composer = 'form[data-testid="dm-composer-form"] textarea[data-testid="dm-composer-input"]'
    })
    const summary = await runner.sessions.use(accountId, 60_000, async (handle) => {
      const opened = await handle.open(account, noComposer)
      if (opened.status !== 'ok') throw new Error(opened.message)
      return sendQueuedAnswers({
        db: runner.db,
        log: runner.context().log,
        session: opened.session,
        account,
        lease: handle.lease,
        signal: new AbortController().signal,
        pacingFactor: 0,
        wait: async () => true,
        maxAnswers: 4,
      })
    })
    expect(summary).toMatchObject({ status: 'done', value: { sent: 0, siteChanged: true } })
    expect(await statusOf()).toMatchObject({ status: 'queued' })
    expect((await statusOf())?.error).toMatch(/^Waiting: the page changed before sending/)

    const whileHeld = await inboxSync(runner.context(), { accountId })
    expect(whileHeld.answersSent).toBe(0) // this account's sending waits; its reading does not
    expect(whileHeld.conversations).toBeGreaterThan(0)
    expect((await x.deliveries(sandbox.username)).filter((d) => d.text === body)).toHaveLength(0)

    await clockAt(PAST_THE_WINDOW_MS)
    expect((await inboxSync(runner.context(), { accountId })).answersSent).toBe(1)
    await inboxSync(runner.context(), { accountId })
    expect((await x.deliveries(sandbox.username)).filter((d) => d.text === body)).toHaveLength(1)
    expect(await statusOf()).toMatchObject({ status: 'sent', error: null })
    await clockAt(0)
  })
})

describe('an account that met a changed scrape page', () => {
  it('waits alone: its scrape says so on the card, another account scrapes on, nothing pauses', async () => {
    await clearSiteChanges()
    const userId = await createCustomer()
    const held = await createXAccount(userId, await newXAccount(x))
    const other = await createXAccount(userId, await newXAccount(x))
    await guardSiteChange(
      runner.context(),
      async () => {
        throw new LayoutChangedError('x', 'scrape', 'search: people results', '/search', {
          lines: [],
          truncated: false,
        })
      },
      held,
    )
    const { rows } = await adminDb().query<{ id: string }>(
      `insert into public.scraping_campaigns (user_id, account_id, name, sources, target_count, filters, status)
       values ($1, $2, 'Held scrape', '[{"type": "keyword", "value": "founders"}]', 10, '{}', 'running') returning id`,
      [userId, held],
    )
    const scrapingCampaignId = rows[0]?.id ?? ''
    const result = await scrapeRun(runner.context(), { scrapingCampaignId })
    const note =
      'Lead scraping from this account waits a little: X showed it a page we did not expect, and we are checking whether X changed. Nothing is lost and it resumes on its own.'
    expect(result).toMatchObject({ pages: 0, collected: 0, note })
    const card = await adminDb().query<{ error_message: string | null }>(
      'select error_message from public.scraping_campaigns where id = $1',
      [scrapingCampaignId],
    )
    expect(card.rows[0]?.error_message).toBe(note)
    expect(await actionState(adminDb(), 'twitter', 'scrape', other)).toBe('running')
    expect(await actionState(adminDb(), 'twitter', 'send', held)).toBe('running') // only the action it met
    expect((await adminDb().query('select 1 from public.platform_action_pauses')).rowCount).toBe(0)
    await adminDb().query(`update public.scraping_campaigns set status = 'paused' where id = $1`, [
      scrapingCampaignId,
    ])
    await clearSiteChanges()
  })
})

describe('a site change that reaches the top of a job', () => {
  it('ends the job as recorded, and its log line names the job’s account', async () => {
    const accountId = randomUUID()
    const step = `inbox list: rows ${accountId.slice(0, 8)}`
    const outcome = await guardSiteChange(
      runner.context(),
      async () => {
        throw new LayoutChangedError('x', 'inbox', step, '/i/chat', { lines: [], truncated: false })
      },
      accountId,
    )
    expect(outcome).toMatchObject({ incidentId: expect.any(String) })
    const { rows } = await adminDb().query<{ account_id: string | null }>(
      `select metadata ->> 'accountId' as account_id from public.system_logs
        where message like $1 order by created_at desc limit 1`,
      [`%at "${step}":%`],
    )
    expect(rows).toEqual([{ account_id: accountId }])
    await clearSiteChanges()
  })
})
