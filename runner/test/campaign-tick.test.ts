// campaign.tick against the X sandbox in Chromium: personalised DMs sent exactly once and confirmed,
// the caps (campaign, account, warm-up, 450), windows across time zones and days off, recipients
// de-duplicated across accounts and campaigns, do-not-contact, and leads who cannot be messaged.
import { describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import {
  adminDb,
  createCampaign,
  createCustomer,
  createInstagramAccount,
  createXAccount,
  EVERY_DAY,
  leadsOf,
  logsOf,
} from './helpers/fixtures.ts'
import { type IgSandboxAccount, openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 5300)
const { people } = suite

async function xAccount(userId: string, options: Parameters<typeof createXAccount>[2] = {}) {
  const sandbox = await newXAccount(x)
  return { sandbox, accountId: await createXAccount(userId, sandbox, options) }
}

describe.concurrent('campaign.tick sends', BROWSER_SUITE, () => {
  it('sends each due lead one personalised, confirmed DM and records it once', async ({ expect }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const leads = await people(3)
    const campaignId = await createCampaign(userId, accountId, leads, {
      messages: ['Hey {name}! {Quick|Short} question for @{username}.'],
    })
    const result = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(result.sent).toBe(3)

    const delivered = await x.deliveries(sandbox.username)
    expect(delivered.map((d) => d.recipientUsername).sort()).toEqual(leads.map((l) => l.username).sort())
    for (const lead of leads) {
      const text = delivered.find((d) => d.recipientUsername === lead.username)?.text
      const first = lead.name.split(' ')[0]
      expect([
        `Hey ${first}! Quick question for @${lead.username}.`,
        `Hey ${first}! Short question for @${lead.username}.`,
      ]).toContain(text)
    }
    expect((await leadsOf(campaignId)).map((l) => [l.state, l.current_step, l.next_send_at])).toEqual(
      leads.map(() => ['sent', 1, null]),
    )
    const logs = await logsOf(campaignId)
    expect(logs.map((l) => l.status)).toEqual(['sent', 'sent', 'sent'])
    expect(logs.map((l) => l.message_sent).sort()).toEqual(delivered.map((d) => d.text).sort())
    const ledger = await adminDb().query(
      'select count(*)::int as n from public.contact_ledger where campaign_id = $1',
      [campaignId],
    )
    expect(ledger.rows[0]?.n).toBe(3)

    // a second tick finds nothing due: nobody gets a second message
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBeUndefined()
    expect(await x.deliveries(sandbox.username)).toHaveLength(3)
  })

  it('ends every tick with next_action_at: the gap still owed, or now when nothing is', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const campaignId = await createCampaign(userId, accountId, await people(3))
    const nextAction = async () =>
      (
        await adminDb().query<{ in_s: number }>(
          'select extract(epoch from next_action_at - internal.now())::float8 as in_s from public.campaigns where id = $1',
          [campaignId],
        )
      ).rows[0]?.in_s ?? null
    // real pacing: the gap after the first DM (at least 45 s) does not fit a 1 s tick budget
    const paced = suite.runner.context({
      config: { ...suite.runner.config, pacingFactor: 1, tickBudgetMs: 1_000 },
    })
    expect((await campaignTick(paced, { campaignId, accountId })).sent).toBe(1)
    expect(await nextAction()).toBeGreaterThan(40)
    expect(await x.deliveries(sandbox.username)).toHaveLength(1)
    // compressed pacing: the tick sends the rest, and the campaign may be ticked again at once
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(2)
    expect(Math.abs((await nextAction()) ?? 99)).toBeLessThan(5)
  })

  it('uses the no-first-name message for a lead without a usable name', async ({ expect }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const [lead] = await people(1)
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [{ ...lead, name: '🚀 123' }], {
      messages: ['Hi {name}, loved your work.'],
      noFirstnameMessage: 'Hi there @{username}, loved your work.',
    })
    await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect((await x.deliveries(sandbox.username)).map((d) => d.text)).toEqual([
      `Hi there @${lead.username}, loved your work.`,
    ])
  })

  it('stops at the campaign daily limit and leaves the rest pending', async ({ expect }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const campaignId = await createCampaign(userId, accountId, await people(4), { dailyLimit: 2 })
    const result = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(result.sent).toBe(2)
    expect(await x.deliveries(sandbox.username)).toHaveLength(2)
    expect((await leadsOf(campaignId)).filter((l) => l.state === 'pending')).toHaveLength(2)
  })

  it('counts the account limit, the warm-up ramp and the 450 ceiling across campaigns', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const db = adminDb()
    // warm-up phase 1 allows 10 a day: 9 already went out today
    const warming = await xAccount(userId, { warmupPhase: 1, dailyLimit: 500 })
    await db.query(
      `update public.social_accounts set messages_sent_today = 9, sent_today_on = (now() at time zone 'UTC')::date where id = $1`,
      [warming.accountId],
    )
    const warmingCampaign = await createCampaign(userId, warming.accountId, await people(3))
    // warmed up with a limit of 500: the platform ceiling of 450 is what stops it
    const busy = await xAccount(userId, { dailyLimit: 500 })
    await db.query(
      `update public.social_accounts set messages_sent_today = 449, sent_today_on = (now() at time zone 'UTC')::date where id = $1`,
      [busy.accountId],
    )
    const busyCampaign = await createCampaign(userId, busy.accountId, await people(3))
    // the account's own limit of 3, shared by two campaigns
    const limited = await xAccount(userId, { dailyLimit: 3 })
    const first = await createCampaign(userId, limited.accountId, await people(2))
    const second = await createCampaign(userId, limited.accountId, await people(2))

    await campaignTick(suite.runner.context(), { campaignId: warmingCampaign, accountId: warming.accountId })
    await campaignTick(suite.runner.context(), { campaignId: busyCampaign, accountId: busy.accountId })
    await campaignTick(suite.runner.context(), { campaignId: first, accountId: limited.accountId })
    await campaignTick(suite.runner.context(), { campaignId: second, accountId: limited.accountId })
    expect(await x.deliveries(warming.sandbox.username)).toHaveLength(1)
    expect(await x.deliveries(busy.sandbox.username)).toHaveLength(1)
    expect(await x.deliveries(limited.sandbox.username)).toHaveLength(3)
  })

  it('sends only inside the window, in the campaign time zone, and not on an inactive day', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const now = new Date()
    const hourIn = (timeZone: string) =>
      Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now))
    const weekdayIn = (timeZone: string) =>
      new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(now).toLowerCase()
    // Tokyo and New York are 13-14 h apart: the same local window is open in one and closed in the
    // other. The open zone is the one whose clock is an hour or more from midnight, and the window
    // runs an hour either side of now, so no hour or day turns over between this line and the ticks.
    const tokyoHour = hourIn('Asia/Tokyo')
    const [openZone, closedZone] =
      tokyoHour >= 1 && tokyoHour <= 22
        ? ['Asia/Tokyo', 'America/New_York']
        : ['America/New_York', 'Asia/Tokyo']
    const hour = hourIn(openZone)
    const clock = (h: number) => `${String(h).padStart(2, '0')}:00`
    const window = { timeFrom: clock(hour - 1), timeTo: clock(hour + 1) }
    const [a, b, c] = await people(3)
    if (!a || !b || !c) throw new Error('no leads')
    const open = await createCampaign(userId, accountId, [a], {
      schedule: { timezone: openZone, ...window, activeDays: EVERY_DAY, randomDaysOff: false },
    })
    const closed = await createCampaign(userId, accountId, [b], {
      schedule: { timezone: closedZone, ...window, activeDays: EVERY_DAY, randomDaysOff: false },
    })
    const dayOff = await createCampaign(userId, accountId, [c], {
      schedule: {
        timezone: openZone,
        timeFrom: '00:00',
        timeTo: '23:59',
        activeDays: EVERY_DAY.filter((d) => d !== weekdayIn(openZone)),
        randomDaysOff: false,
      },
    })
    for (const campaignId of [open, closed, dayOff])
      await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect((await x.deliveries(sandbox.username)).map((d) => d.recipientUsername)).toEqual([a.username])
    expect((await leadsOf(closed))[0]?.state).toBe('pending')
    expect((await leadsOf(dayOff))[0]?.state).toBe('pending')
  })

  it('skips a random day off', async ({ expect }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const db = adminDb()
    // campaign ids are random; keep making campaigns until one has today off (about one in seven)
    let campaignId: string | undefined
    for (let i = 0; i < 60 && !campaignId; i++) {
      const candidate = await createCampaign(userId, accountId, [], {
        schedule: {
          timezone: 'UTC',
          timeFrom: '00:00',
          timeTo: '23:59',
          activeDays: EVERY_DAY,
          randomDaysOff: true,
        },
      })
      const { rows } = await db.query<{ off: boolean }>(
        `select internal.is_random_day_off($1, (internal.now() at time zone 'UTC')::date) as off`,
        [candidate],
      )
      if (rows[0]?.off) campaignId = candidate
      else await db.query('delete from public.campaigns where id = $1', [candidate])
    }
    if (!campaignId) throw new Error('no campaign with today off')
    const [lead] = await people(1)
    await db.query(
      `insert into public.campaign_leads (campaign_id, username, profile_data) values ($1, $2, jsonb_build_object('platform_id', $3::text))`,
      [campaignId, lead?.username, lead?.id],
    )
    await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(await x.deliveries(sandbox.username)).toHaveLength(0)
  })
})

describe.concurrent('campaign.tick recipients', BROWSER_SUITE, () => {
  it('messages a person once across the customer’s accounts and campaigns, and never who opted out', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const one = await xAccount(userId)
    const two = await xAccount(userId)
    const [shared, blocked] = await people(2)
    if (!shared || !blocked) throw new Error('no leads')
    await adminDb().query(
      `insert into public.do_not_contact (user_id, platform, target_username, reason) values ($1, 'twitter', $2, 'manual')`,
      [userId, blocked.username.toUpperCase()],
    )
    const first = await createCampaign(userId, one.accountId, [shared, blocked])
    const second = await createCampaign(userId, two.accountId, [shared])
    await campaignTick(suite.runner.context(), { campaignId: first, accountId: one.accountId })
    await campaignTick(suite.runner.context(), { campaignId: second, accountId: two.accountId })

    expect((await x.deliveries(one.sandbox.username)).map((d) => d.recipientUsername)).toEqual([
      shared.username,
    ])
    expect(await x.deliveries(two.sandbox.username)).toEqual([])
    expect((await leadsOf(second)).map((l) => [l.state, l.skip_reason])).toEqual([
      ['skipped', 'already_contacted'],
    ])
    expect((await leadsOf(first)).find((l) => l.username === blocked.username)).toMatchObject({
      state: 'skipped',
      skip_reason: 'do_not_contact',
    })
  })

  it('skips leads with a closed inbox or verified-only requests (476) with the reason, and goes on', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const offsetHere = testInt('campaign-tick offset', 200)
    const [closed] = await x.profiles({ canDm: false, limit: 1, offset: offsetHere })
    const [verifiedOnly] = await x.profiles({
      canDm: true,
      verifiedOnlyRequests: true,
      limit: 1,
      offset: offsetHere,
    })
    const [open] = await people(1)
    if (!closed || !verifiedOnly || !open) throw new Error('no profiles')
    const campaignId = await createCampaign(userId, accountId, [closed, verifiedOnly, open])
    const result = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(result).toMatchObject({ sent: 1, skipped: 2 })
    const leads = await leadsOf(campaignId)
    expect(leads.find((l) => l.username === closed.username)).toMatchObject({
      state: 'skipped',
      skip_reason: 'closed_inbox',
    })
    expect(leads.find((l) => l.username === verifiedOnly.username)).toMatchObject({
      state: 'skipped',
      skip_reason: 'requires_verified',
    })
    expect((await x.deliveries(sandbox.username)).map((d) => d.recipientUsername)).toEqual([open.username])
    // a refusal is its own outcome, in no failure figure: one attempt, sent, nothing failed
    expect((await logsOf(campaignId)).map((l) => l.status).sort()).toEqual(['sent', 'skipped', 'skipped'])
    const { rows: figures } = await adminDb().query(
      'select total_attempts, messages_sent, messages_failed from public.campaigns where id = $1',
      [campaignId],
    )
    expect(figures).toEqual([{ total_attempts: 1, messages_sent: 1, messages_failed: 0 }])
    // the account keeps sending: a lead's refusal is not the account's problem
    expect(
      (await adminDb().query('select status from public.social_accounts where id = $1', [accountId])).rows[0]
        ?.status,
    ).toBe('active')
  })

  it('skips a lead whose profile already says DMs are closed, without an attempt', async ({ expect }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const [lead] = await people(1)
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [lead])
    await adminDb().query(
      `update public.campaign_leads set profile_data = profile_data || '{"can_dm": false}' where campaign_id = $1`,
      [campaignId],
    )
    await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect((await leadsOf(campaignId))[0]).toMatchObject({ state: 'skipped', skip_reason: 'dms_closed' })
    expect(await logsOf(campaignId)).toEqual([])
    expect(await x.deliveries(sandbox.username)).toEqual([])
  })
})

describe.concurrent('campaign.tick settles on X', BROWSER_SUITE, () => {
  it('a lost follow-up in the words of the first DM is not taken for sent: a row seen before typing is not it', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const { sandbox, accountId } = await xAccount(userId)
    const [lead] = await people(1)
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [lead], {
      messages: ['Same words, twice'],
      followUpMessages: ['Same words, twice'],
      followUpDays: 1,
    })
    const tick = () => campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(await tick()).toMatchObject({ sent: 1 })
    await adminDb().query('update public.campaign_leads set next_send_at = now() where campaign_id = $1', [
      campaignId,
    ])
    await x.fault({ account: sandbox.username, target: 'send', mode: 'dropped' })
    expect(await tick()).toMatchObject({ uncertain: 1 })
    // the lead never wrote: nothing of the thread is stored, so the check reads all of it, where
    // the first DM's row holds the same words; it was in the thread before typing, so it is not this
    const { rows } = await adminDb().query<{ seen: number }>(
      'select cardinality(seen_before) as seen from public.dm_logs where campaign_id = $1 and step = 1',
      [campaignId],
    )
    expect(rows).toEqual([{ seen: 1 }])
    expect(await tick()).toMatchObject({ settledNotSent: 1 })
    expect((await x.deliveries(sandbox.username)).map((d) => d.text)).toEqual(['Same words, twice'])
    expect((await logsOf(campaignId)).map((l) => l.status)).toEqual(['sent', 'failed'])
  })
})

describe.concurrent('campaign.tick on Instagram', BROWSER_SUITE, () => {
  it('sends by username, and settles a lost send through the inbox before sending it again', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await ig.createAccount<IgSandboxAccount>({ behaviour: { replyShare: 0 } })
    const accountId = await createInstagramAccount(userId, sandbox)
    const leads = await openProfiles(ig, 3, 3000 + testInt('campaign-tick ig people', 3000))
    const campaignId = await createCampaign(userId, accountId, leads, {
      messages: ['Hi {name}, love your feed!'],
    })
    await ig.fault({ account: sandbox.username, target: 'send', mode: 'dropped' })
    const first = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(first).toMatchObject({ uncertain: 1, sent: 2 })
    const second = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(second).toMatchObject({ settledNotSent: 1 })
    // not delivered: due again after the retry backoff, then sent once
    await adminDb().query(
      `update public.campaign_leads set next_send_at = now() where campaign_id = $1 and state = 'pending'`,
      [campaignId],
    )
    expect(await campaignTick(suite.runner.context(), { campaignId, accountId })).toMatchObject({ sent: 1 })
    const delivered = await ig.deliveries(sandbox.username)
    expect(delivered.map((d) => d.recipientUsername).sort()).toEqual(leads.map((l) => l.username).sort())
    for (const lead of leads) {
      expect(delivered.find((d) => d.recipientUsername === lead.username)?.text).toBe(
        `Hi ${lead.name.split(' ')[0]}, love your feed!`,
      )
    }
    expect((await leadsOf(campaignId)).map((l) => l.state)).toEqual(['sent', 'sent', 'sent'])
  })
})

describe('a campaign that cannot send says why on its card', () => {
  it('records the account problem, and clears it once the account sends again', async ({ expect }) => {
    const userId = await createCustomer()
    const { accountId } = await xAccount(userId)
    const campaignId = await createCampaign(userId, accountId, await people(1), { messages: ['Hi {name}'] })
    await adminDb().query(
      `update public.social_accounts set status = 'error', flag_reason = 'X Chat passcode required' where id = $1`,
      [accountId],
    )
    await campaignTick(suite.runner.context(), { campaignId, accountId })
    const errorOf = async () =>
      (
        await adminDb().query<{ e: string | null }>(
          'select error_message as e from public.campaigns where id = $1',
          [campaignId],
        )
      ).rows[0]?.e
    expect(await errorOf()).toMatch(/is in error: X Chat passcode required\. Fix it in Social Accounts/)
    await adminDb().query(
      `update public.social_accounts set status = 'active', flag_reason = null where id = $1`,
      [accountId],
    )
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    expect(await errorOf()).toBeNull()
  })
})
