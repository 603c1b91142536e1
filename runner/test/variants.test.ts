// Per-variant results from campaign.tick against the X sandbox in Chromium: every first
// DM records which opening variant it used, the variants stay balanced under a seeded random
// source, and with "use the winner after N sends per variant" the runner chooses the winner once
// the figures allow and sends only it from then on.
import { describe, it } from 'vitest'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { adminDb, createCampaign, createCustomer, createXAccount } from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 12_000)
const { people } = suite

const VARIANT_A = 'Hi {name}, variant A here.'
const VARIANT_B = 'Hello {name}, this is variant B.'

/** A seeded "random" source: a run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 4294967296
  }
}

async function variantLogs(campaignId: string) {
  const { rows } = await adminDb().query<{
    target_username: string
    status: string
    message_sent: string
    variant_index: number | null
    template: string | null
  }>(
    `select l.target_username, l.status, l.message_sent, l.variant_index, v.template
       from public.dm_logs l left join public.message_variants v on v.id = l.variant_id
      where l.campaign_id = $1 and l.step = 0 order by l.created_at`,
    [campaignId],
  )
  return rows
}

describe.concurrent('opening variants', BROWSER_SUITE, () => {
  it('records the variant of every first DM and keeps the variants balanced', async ({ expect }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const leads = await people(5)
    const campaignId = await createCampaign(userId, accountId, leads, {
      messages: [VARIANT_A, '', VARIANT_B],
    })

    const result = await campaignTick(suite.runner.context({ random: seeded(21) }), { campaignId, accountId })
    expect(result.sent).toBe(5)

    const logs = await variantLogs(campaignId)
    const delivered = await x.deliveries(sandbox.username)
    expect(logs.map((l) => l.status)).toEqual(new Array(5).fill('sent'))
    // each DM names the text it was made from, and that is what the lead received
    for (const log of logs) {
      const first = leads.find((l) => l.username === log.target_username)?.name.split(' ')[0]
      const expected =
        log.variant_index === 0 ? `Hi ${first}, variant A here.` : `Hello ${first}, this is variant B.`
      expect(log.template).toBe(log.variant_index === 0 ? VARIANT_A : VARIANT_B)
      expect(delivered.find((d) => d.recipientUsername === log.target_username)?.text).toBe(expected)
    }
    const perVariant = [0, 1].map((slot) => logs.filter((l) => l.variant_index === slot).length)
    expect(perVariant.sort()).toEqual([2, 3])
  })

  it('sends only the winner once every variant has N sends and one replies clearly more', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const leads = await people(3)
    const campaignId = await createCampaign(userId, accountId, leads, { messages: [VARIANT_A, VARIANT_B] })
    const db = adminDb()
    await db.query('update public.campaigns set winner_after_sends = 30 where id = $1', [campaignId])
    // 30 earlier sends each: B got 12 replies, A got 2 (as the runner would have recorded them)
    await db.query(
      `with variants as (
         insert into public.message_variants (campaign_id, step, kind, slot, template)
         values ($1, 0, 'opening', 0, $2), ($1, 0, 'opening', 1, $3) returning id, slot
       ), earlier as (
         insert into public.campaign_leads (campaign_id, username, state, current_step, last_sent_at, replied_at)
         select $1, 'earlier_' || v.slot || '_' || n, 'sent', 1, now() - interval '2 days',
                case when n <= (case v.slot when 0 then 2 else 12 end) then now() - interval '1 day' end
           from variants v, generate_series(1, 30) n
         returning id, username
       )
       insert into public.dm_logs (campaign_id, campaign_lead_id, step, status, target_username, message_sent, sent_at,
                                   variant_id, variant_index)
       select $1, e.id, 0, 'sent', e.username, 'earlier', now() - interval '2 days', v.id, v.slot
         from earlier e join variants v on e.username like 'earlier\\_' || v.slot || '\\_%'`,
      [campaignId, VARIANT_A, VARIANT_B],
    )

    const result = await campaignTick(suite.runner.context({ random: seeded(3) }), { campaignId, accountId })
    expect(result.sent).toBe(3)
    const delivered = await x.deliveries(sandbox.username)
    expect(delivered.map((d) => d.text.replace(/^Hello \S+, /, ''))).toEqual(
      new Array(3).fill('this is variant B.'),
    )
    const { rows } = await db.query<{ template: string; chosen: boolean }>(
      `select v.template, c.winner_chosen_at is not null as chosen
         from public.campaigns c join public.message_variants v on v.id = c.winner_variant_id where c.id = $1`,
      [campaignId],
    )
    expect(rows).toEqual([{ template: VARIANT_B, chosen: true }])
  })

  it('keeps sending both while the difference is not yet clear', async ({ expect }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const leads = await people(4)
    const campaignId = await createCampaign(userId, accountId, leads, { messages: [VARIANT_A, VARIANT_B] })
    await adminDb().query('update public.campaigns set winner_after_sends = 30 where id = $1', [campaignId])
    await campaignTick(suite.runner.context({ random: seeded(5) }), { campaignId, accountId })
    const logs = await variantLogs(campaignId)
    expect(logs.map((l) => l.variant_index).sort()).toEqual([0, 0, 1, 1])
    const { rows } = await adminDb().query('select winner_variant_id from public.campaigns where id = $1', [
      campaignId,
    ])
    expect(rows).toEqual([{ winner_variant_id: null }])
  })
})
