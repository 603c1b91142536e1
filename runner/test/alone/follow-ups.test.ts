// Follow-up timing on the test clock (internal.clock and the X sandbox's clock moved together by
// days): nothing before followUpDays, each follow-up after them, none for a lead who replied
// (even before inbox.sync saw the reply), and the sequence ends after its last follow-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testInt } from '../../../stack/src/test-seed.ts'
import { campaignTick } from '../../src/jobs/campaign-tick.ts'
import { type TestRunner, testRunner } from '../helpers/context.ts'
import {
  adminDb,
  closeAdminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  leadsOf,
} from '../helpers/fixtures.ts'
import { quietOtherWork } from '../helpers/process.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from '../helpers/sandbox.ts'
import { newXAccount } from '../helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const DAY = 86_400_000
let runner: TestRunner

/** Moves both clocks to real time + offset. */
async function clockAt(offsetMs: number): Promise<void> {
  await adminDb().query(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [
    offsetMs,
  ])
  await x.call('POST', '/clock', { offsetMs })
}

let restoreOtherWork: (() => Promise<void>) | undefined
beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
  runner = await testRunner()
})
afterAll(async () => {
  await clockAt(0)
  await runner.close()
  await restoreOtherWork?.()
  await closeAdminDb()
})

describe('follow-ups on the test clock', () => {
  it('come after followUpDays, stop for a lead who replied, and end with the sequence', async () => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [replier, quiet] = await openProfiles(x, 2, 12_000 + testInt('follow-ups people', 500))
    if (!replier || !quiet) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [replier, quiet], {
      messages: ['Hi {name}!'],
      followUpMessages: ['Following up, {name}.', 'Last note, {name}.'],
      followUpDays: 3,
    })
    const tick = () => campaignTick(runner.context(), { campaignId, accountId })
    const texts = async (to: string) =>
      (await x.deliveries(sandbox.username)).filter((d) => d.recipientUsername === to).map((d) => d.text)
    const first = (name: string) => name.split(' ')[0]

    try {
      expect((await tick()).sent).toBe(2)
      for (const lead of await leadsOf(campaignId)) {
        const days = ((lead.next_send_at?.getTime() ?? 0) - Date.now()) / DAY
        expect(days).toBeGreaterThan(2.99)
        expect(days).toBeLessThan(3.01)
      }

      await clockAt(2 * DAY)
      expect((await tick()).sent).toBeUndefined()
      const { threadId } = await x.message({
        account: sandbox.username,
        from: replier.username,
        text: 'Thanks, what does it cost?',
      })
      // the customer reads it on their phone: X no longer marks it unread, and dates it by a label only
      await x.call('POST', '/threads/read', { account: sandbox.username, threadId })

      await clockAt(3 * DAY + 60_000)
      // just read (as by the scheduler's sync): the tick does not read the inbox itself, so it is
      // the follow-up's own look at the thread that finds the reply
      await adminDb().query(
        'update public.social_accounts set last_synced_at = internal.now() where id = $1',
        [accountId],
      )
      const due = await tick()
      expect(due).toMatchObject({ sent: 1, replied: 1 })
      expect(await texts(replier.username)).toEqual([`Hi ${first(replier.name)}!`])
      expect(await texts(quiet.username)).toEqual([
        `Hi ${first(quiet.name)}!`,
        `Following up, ${first(quiet.name)}.`,
      ])
      const replied = (await leadsOf(campaignId)).find((l) => l.username === replier.username)
      expect(replied).toMatchObject({ next_send_at: null })
      expect(replied?.replied_at).not.toBeNull()

      await clockAt(5 * DAY)
      expect((await tick()).sent).toBeUndefined()
      await clockAt(6 * DAY + 120_000)
      expect((await tick()).sent).toBe(1)
      expect(await texts(quiet.username)).toHaveLength(3)
      expect((await texts(quiet.username))[2]).toBe(`Last note, ${first(quiet.name)}.`)

      await clockAt(20 * DAY)
      expect((await tick()).sent).toBeUndefined()
      const done = (await leadsOf(campaignId)).find((l) => l.username === quiet.username)
      expect(done).toMatchObject({ state: 'sent', current_step: 3, next_send_at: null })
      // each DM named the text it was made from: the reply is the opening message's
      const perMessage = await adminDb().query(
        'select step, kind, template, sent, replies from public.campaign_variant_stats($1)',
        [campaignId],
      )
      expect(perMessage.rows).toEqual([
        { step: 0, kind: 'opening', template: 'Hi {name}!', sent: 2, replies: 1 },
        { step: 1, kind: 'follow_up', template: 'Following up, {name}.', sent: 1, replies: 0 },
        { step: 2, kind: 'follow_up', template: 'Last note, {name}.', sent: 1, replies: 0 },
      ])
    } finally {
      await clockAt(0)
    }
  })
})
