// Official X accounts in the real runner against the X sandbox's X API v2, with no browser: a
// campaign DM sent exactly once through POST /2/dm_conversations/with/:id/messages, a lead who
// cannot be messaged skipped, a reply read from the DM events stopping its follow-up (the other
// lead's follow-up sent); a spent rate limit waits without failing anything; a 401 refreshes the
// rotating tokens once (saved before use); a grant X no longer accepts puts the account in error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { basicAuth, connectWithOAuth, type TestApp } from '../../stack/sandbox/x/test-support.ts'
import { testInt } from '../../stack/src/test-seed.ts'
import { decryptSecret, keyringFromEnv } from '../src/crypto.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import {
  accountRow,
  adminDb,
  closeAdminDb,
  createCampaign,
  createCustomer,
  createOfficialXAccount,
  leadsOf,
  logsOf,
  notificationsOf,
} from './helpers/fixtures.ts'
import { openProfiles, SandboxAdmin, sandboxUrl, type XSandboxAccount } from './helpers/sandbox.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
let runner: TestRunner
let offset = 0

beforeAll(async () => {
  runner = await testRunner()
  offset = 9000 + testInt('x-api-send people', 1500)
})
afterAll(async () => {
  await runner?.close()
  await closeAdminDb()
})

async function people(count: number) {
  const found = await openProfiles(x, count, offset)
  offset += count
  return found
}

/** A customer's official X account: a developer app, the OAuth consent, the sealed tokens. */
async function officialAccount() {
  const userId = await createCustomer()
  const sandbox = await x.createAccount<XSandboxAccount>({ passcode: null, behaviour: { replyShare: 0 } })
  const app = await x.call<TestApp>('POST', '/x-api/apps', { callbackUrls: ['http://127.0.0.1:9/cb'] })
  const tokens = await connectWithOAuth(x.base, sandbox, app)
  const accountId = await createOfficialXAccount(userId, sandbox, { ...app, ...tokens })
  return { userId, sandbox, app, accountId }
}

async function stored(accountId: string) {
  const { rows } = await adminDb().query<{ ciphertext: string }>(
    'select ciphertext from public.social_account_credentials where account_id = $1',
    [accountId],
  )
  return JSON.parse(decryptSecret(rows[0]?.ciphertext ?? '', keyringFromEnv())) as {
    accessToken: string
    refreshToken: string
  }
}

/** The billable X API units recorded for the account, by kind. */
async function usageOf(accountId: string): Promise<Record<string, number>> {
  const { rows } = await adminDb().query<{ kind: string; units: number }>(
    'select kind, count(*)::int as units from public.x_api_usage where account_id = $1 group by kind',
    [accountId],
  )
  return Object.fromEntries(rows.map((r) => [r.kind, r.units]))
}

const refreshWith = (app: TestApp, refreshToken: string) =>
  fetch(`${x.base}/2/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(app), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  })

describe('official X accounts send through X API v2', { timeout: 120_000 }, () => {
  it('sends each campaign DM once without a browser, skips who cannot be messaged, and a reply stops its follow-up', async () => {
    const { userId, sandbox, accountId } = await officialAccount()
    const [keen, quiet] = await people(2)
    const [closed] = await x.profiles({ canDm: false, limit: 1, offset: offset % 500 })
    if (!keen || !quiet || !closed) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [keen, quiet, closed], {
      messages: ['Hi {name}, a quick question for @{username}.'],
      followUpMessages: ['Just bumping this, {name}.'],
    })

    const first = await campaignTick(runner.context(), { campaignId, accountId })
    expect(first).toMatchObject({ sent: 2, skipped: 1 })
    const delivered = await x.deliveries(sandbox.username)
    expect(delivered.map((d) => d.recipientUsername).sort()).toEqual([keen.username, quiet.username].sort())
    const leads = await leadsOf(campaignId)
    expect(leads.find((l) => l.username === closed.username)).toMatchObject({ state: 'skipped' })
    expect(leads.find((l) => l.username === closed.username)?.skip_reason).toBe('cannot_message')
    expect(leads.find((l) => l.username === closed.username)?.last_error).toMatch(/cannot send messages/i)
    expect((await logsOf(campaignId)).filter((l) => l.status === 'sent')).toHaveLength(2)
    // no browser was started for it
    expect((await runner.pool.stats()).browsers).toBe(0)
    // X bills the customer's app for each DM created; the refused one created nothing
    expect((await usageOf(accountId)).dm_create).toBe(2)

    // nothing is due: nobody gets a second message
    expect((await campaignTick(runner.context(), { campaignId, accountId })).sent).toBeUndefined()
    expect(await x.deliveries(sandbox.username)).toHaveLength(2)

    // the reply is read from the DM events by the next tick and stops that lead's follow-up
    await x.message({ account: sandbox.username, from: keen.username, text: 'Yes, tell me more' })
    await adminDb().query(
      `update public.social_accounts set last_synced_at = internal.now() - interval '4 minutes' where id = $1`,
      [accountId],
    )
    await adminDb().query(
      `update public.campaign_leads set next_send_at = internal.now() - interval '1 minute'
        where campaign_id = $1 and next_send_at is not null`,
      [campaignId],
    )
    const third = await campaignTick(runner.context(), { campaignId, accountId })
    expect(third).toMatchObject({ readInbox: true, replies: 1, sent: 1 })
    const after = await leadsOf(campaignId)
    expect(after.find((l) => l.username === keen.username)?.replied_at).not.toBeNull()
    const texts = (await x.deliveries(sandbox.username)).map((d) => [d.recipientUsername, d.text])
    expect(texts.filter(([to]) => to === keen.username)).toHaveLength(1)
    expect(texts).toContainEqual([quiet.username, `Just bumping this, ${quiet.name.split(' ')[0]}.`])
    expect((await accountRow(accountId)).status).toBe('active')
    // the inbox read's DM events are billed per event, each once a UTC day: the two DMs, the reply
    const usage = await usageOf(accountId)
    expect(usage.dm_create).toBe(3)
    expect(usage.dm_event_read).toBe(3)
  })

  it('waits out a spent rate limit without failing the lead or blaming the account', async () => {
    const { userId, sandbox, accountId } = await officialAccount()
    const leads = await people(2)
    const campaignId = await createCampaign(userId, accountId, leads)
    await x.call('PATCH', '/x-api/limits', { dm_send: 1 })
    try {
      const tick = await campaignTick(runner.context(), { campaignId, accountId })
      expect(tick).toMatchObject({ sent: 1, deferred: 1 })
      expect(await x.deliveries(sandbox.username)).toHaveLength(1)
      const states = (await leadsOf(campaignId)).map((l) => l.state).sort()
      expect(states).toEqual(['pending', 'sent'])
      expect((await logsOf(campaignId)).map((l) => l.status)).not.toContain('error')
      const account = await accountRow(accountId)
      expect([account.status, account.trust_score]).toEqual(['active', '0.51'])
      // the warm session knows the window is spent: the next tick waits without calling X
      expect(await campaignTick(runner.context(), { campaignId, accountId })).toMatchObject({ deferred: 1 })
    } finally {
      await x.call('DELETE', '/x-api/limits')
    }
  })

  it('refreshes once on a 401 with the rotated tokens saved; a grant X refuses puts the account in error', async () => {
    const { userId, sandbox, app, accountId } = await officialAccount()
    const [lead, next] = await people(2)
    if (!lead || !next) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [lead])
    const before = await stored(accountId)
    await x.fault({
      account: sandbox.username,
      target: 'api',
      mode: 'error',
      code: 401,
      path: '/2/dm_conversations',
    })
    expect(await campaignTick(runner.context(), { campaignId, accountId })).toMatchObject({ sent: 1 })
    const rotated = await stored(accountId)
    expect(rotated.refreshToken).not.toBe(before.refreshToken)
    // the old refresh token no longer works at X: had the new one not been saved, the account was lost
    expect((await refreshWith(app, before.refreshToken)).status).toBe(400)

    // the customer revokes the app's access on X: the refresh is refused, the account needs them
    await fetch(`${x.base}/2/oauth2/revoke`, {
      method: 'POST',
      headers: { authorization: basicAuth(app), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: rotated.refreshToken }),
    })
    await adminDb().query(
      `insert into public.campaign_leads (campaign_id, username, profile_data)
       values ($1, $2, jsonb_build_object('platform_id', $3::text, 'display_name', $4::text))`,
      [campaignId, next.username, next.id, next.name],
    )
    const tick = await campaignTick(runner.context(), { campaignId, accountId })
    expect(tick).toMatchObject({ account_stopped: 1 })
    const account = await accountRow(accountId)
    expect(account.status).toBe('error')
    expect(account.flag_reason).toMatch(/401/)
    expect((await leadsOf(campaignId)).find((l) => l.username === next.username)?.state).not.toBe('sent')
    const notice = (await notificationsOf(userId)).find((n) => n.type === 'account_flagged')
    expect(notice?.message).toMatch(/Connect it again/)
    expect(await x.deliveries(sandbox.username)).toHaveLength(1)
  })
})
