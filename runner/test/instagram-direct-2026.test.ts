// Instagram Direct as public readers describe the 2026 web page, in Chromium against the sandbox
// that draws it so: a lead whose thread shows a notice in place of the composer is skipped with that
// notice as the reason and counts against nothing (no breaker, no site change, no pause); a send is
// proven from the page (our new flex-end message with the exact text) while the direct_v2 thread
// JSON does not answer, and an uncertain one is settled from the page; a long thread, of which the
// page draws only the newest messages, still shows the new one.
import { describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { type InstagramSessionOptions, openInstagramSession } from '../src/platforms/instagram/session.ts'
import type { SessionCookie } from '../src/platforms/types.ts'
import {
  accountRow,
  adminDb,
  createCampaign,
  createCustomer,
  createInstagramAccount,
  leadsOf,
  logsOf,
} from './helpers/fixtures.ts'
import { type IgSandboxAccount, openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 11_000)

// this file's own recipients, taken before awaiting (tests run concurrently)
let igOffset = 9_000 + testInt('instagram-direct-2026 people', 1_000)
function igPeople(count: number) {
  const start = igOffset
  igOffset += count
  return openProfiles(ig, count, start)
}

const FAST: Partial<InstagramSessionOptions> = {
  typing: { delayFactor: 0 },
  timeouts: { navigationMs: 20_000, operationMs: 60_000, confirmMs: 6_000 },
}

/** A signed-in sandbox account whose direct_v2 thread JSON answers nothing but errors. */
async function sessionWithoutThreadJson() {
  const account = await ig.createAccount<IgSandboxAccount & { sessionCookies: SessionCookie[] }>({
    twoFactor: false,
    signedIn: true,
    behaviour: { replyShare: 0 },
  })
  await ig.fault({
    account: account.username,
    target: 'api',
    path: '/api/v1/direct_v2/threads/',
    mode: 'http_500',
    count: 1_000,
  })
  const opened = await openInstagramSession(
    { username: account.username, password: account.password, cookies: account.sessionCookies },
    { pool: suite.runner.pool, baseUrl: ig.base, ...FAST },
  )
  if (opened.status !== 'ok') throw new Error(JSON.stringify(opened))
  return { account, session: opened.session }
}

async function until(done: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 40_000
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe.concurrent('Instagram Direct as the 2026 web page draws it', BROWSER_SUITE, () => {
  it('skips a lead who takes no messages with the notice as the reason, and counts it against nothing', async ({
    expect,
  }) => {
    const startedAt = new Date()
    const userId = await createCustomer()
    const sandbox = await ig.createAccount<IgSandboxAccount>({ behaviour: { replyShare: 0 } })
    const accountId = await createInstagramAccount(userId, sandbox)
    const [first, second] = await igPeople(2)
    const [closed] = await ig.profiles({ canDm: false, protected: false, limit: 1, offset: igOffset % 500 })
    if (!first || !second || !closed) throw new Error('no sandbox profiles')
    console.log(`closed lead @${closed.username}`)
    const campaignId = await createCampaign(userId, accountId, [first, closed, second], {
      messages: ['Hi {name}, a quick question'],
    })
    const trustBefore = Number((await accountRow(accountId)).trust_score)
    const result = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(result).toMatchObject({ sent: 2, skipped: 1 })
    expect((await ig.deliveries(sandbox.username)).map((d) => d.recipientUsername).sort()).toEqual(
      [first.username, second.username].sort(),
    )
    const lead = (await leadsOf(campaignId)).find((l) => l.username === closed.username)
    expect(lead).toMatchObject({ state: 'skipped', skip_reason: 'cannot_message' })
    expect(lead?.last_error).toMatch(
      /can't receive your message|can't be received|isn't accepting message requests/,
    )
    // nothing for the breaker (it counts uncertain and error logs), the trust score or the site
    expect((await logsOf(campaignId)).map((l) => l.status).sort()).toEqual(['sent', 'sent', 'skipped'])
    const after = await accountRow(accountId)
    expect(after).toMatchObject({ status: 'active', flag_reason: null })
    expect(Number(after.trust_score)).toBeGreaterThanOrEqual(trustBefore)
    const { rows } = await adminDb().query(
      `select 1 from public.platform_incidents where platform = 'instagram' and last_seen_at >= $1
       union all select 1 from public.platform_action_pauses where platform = 'instagram'`,
      [startedAt],
    )
    expect(rows).toHaveLength(0)
  })

  it('proves a send from the page while the thread JSON does not answer, and settles an uncertain one there', async ({
    expect,
  }) => {
    const { account, session } = await sessionWithoutThreadJson()
    const [lead] = await igPeople(1)
    const first = await session.sendDm({ username: lead?.username }, 'Hello from the page\nSecond line')
    expect(first).toMatchObject({ status: 'sent', messageId: expect.stringMatching(/^page:/) })
    if (first.status !== 'sent') return
    const again = await session.sendDm({ threadId: first.threadId }, 'Hello from the page\nSecond line')
    expect(again).toMatchObject({ status: 'sent', threadId: first.threadId })
    // the answer to send never comes and the message never lands: the page shows it drawn, the
    // thread opened again does not, so it stays uncertain and settles as not sent
    await ig.fault({ account: account.username, target: 'send', mode: 'dropped' })
    expect(await session.sendDm({ threadId: first.threadId }, 'Lost on the way')).toMatchObject({
      status: 'uncertain',
    })
    const since = new Date(Date.now() - 60_000)
    expect(
      await session.resolveUncertain({ threadId: first.threadId, text: 'Lost on the way', since }),
    ).toEqual({
      status: 'not_sent',
    })
    // delivered after the adapter stopped waiting (12 s after its 6 s, so a loaded machine's slow
    // last look cannot see it land): the thread shows it, so it was sent
    await ig.fault({ account: account.username, target: 'send', mode: 'delayed', delayMs: 18_000 })
    expect((await session.sendDm({ threadId: first.threadId }, 'Late but there')).status).toBe('uncertain')
    await until(async () => (await ig.deliveries(account.username)).length === 3, 'the late delivery')
    expect(
      await session.resolveUncertain({ threadId: first.threadId, text: 'Late but there', since }),
    ).toMatchObject({
      status: 'sent',
      messageId: expect.stringMatching(/^page:/),
    })
    expect((await ig.deliveries(account.username)).map((d) => d.text)).toEqual([
      'Hello from the page\nSecond line',
      'Hello from the page\nSecond line',
      'Late but there',
    ])
    await session.close()
  })

  it('finds the new message at the bottom of a long thread the page draws only in part', async ({
    expect,
  }) => {
    const { account, session } = await sessionWithoutThreadJson()
    const [lead] = await igPeople(1)
    if (!lead) throw new Error('no sandbox profile')
    let threadId = ''
    for (let i = 1; i <= 45; i++) {
      const answer = await ig.message({ account: account.username, from: lead.username, text: `Note ${i}` })
      threadId = String((answer as { threadId?: unknown }).threadId ?? '')
    }
    // the same words as an older message of the lead's, so only the layout tells ours apart
    const sent = await session.sendDm({ threadId }, 'Note 45')
    expect(sent).toMatchObject({ status: 'sent', threadId })
    expect((await ig.deliveries(account.username)).map((d) => d.text)).toEqual(['Note 45'])
    await session.close()
  })
})
