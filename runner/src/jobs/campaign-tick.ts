// campaign.tick {campaignId, accountId}: the next DMs of one campaign from its account. Holding the
// account, it first settles unconfirmed sends, then sends due leads one by one while the window is
// open and the caps allow, waiting a random gap between them. Every tick ends by storing when the
// campaign should send next in next_action_at (the gap that did not fit in this tick, or now), and
// the scheduler queues the next tick then. While sending on the platform is paused after a site
// change the tick sends nothing and the campaign's card says why; its leads stay due.
// Holding the signed-in session anyway, a tick also reads the account's new replies when the last
// read is a few minutes old (folded-inbox-read.ts), before its own DMs, so replies to a running
// campaign reach the inbox (and stop follow-ups) within minutes without a session of their own.
import { signIn, stopOnSignal } from '../accounts/sign-in.ts'
import type { TableRow } from '../db-rows.ts'
import { serviceOf } from '../log.ts'
import { SEND_PRIORITY } from '../ops/gate.ts'
import type { Sequences } from '../sending/compose.ts'
import { nextDueLead } from '../sending/intent.ts'
import { nextGapMs, sendAllowance } from '../sending/pacing.ts'
import { type LeadOutcome, sendToLead } from '../sending/send-lead.ts'
import { settleUncertainSends } from '../sending/uncertain.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import { actionState, isSiteChange, siteChangeNote, stateNote } from '../site-change/record.ts'
import { type JobContext, pause } from './context.ts'
import { readInboxInHeldSession } from './folded-inbox-read.ts'
import type { JobData } from './queues.ts'

const SENDING = ['queued', 'running', 'active']
/** Leads looked at per tick at most (skips are cheap, but a tick must end). */
const MAX_LEADS_PER_TICK = 50
/** After a DM deferred for a slow page, the campaign's next tick is this much later. */
export const DEFERRED_TICK_MS = 60_000

type CampaignRow = TableRow<
  'campaigns',
  'id' | 'workspace_id' | 'user_id' | 'account_id' | 'name' | 'status' | 'sequences' | 'ai_personalization',
  { sequences: Sequences }
>

export type TickResult = Partial<
  Record<LeadOutcome | 'settledSent' | 'settledNotSent' | 'replies', number>
> & {
  note?: string
  /** The tick read the account's inbox (its last read was stale). */
  readInbox?: boolean
  /** Reading the inbox failed (why); the tick sent on. */
  inboxReadFailed?: string
}

async function loadCampaign(ctx: JobContext, campaignId: string): Promise<CampaignRow | undefined> {
  const { rows } = await ctx.db.query<CampaignRow>(
    'select id, workspace_id, user_id, account_id, name, status, sequences, ai_personalization from public.campaigns where id = $1',
    [campaignId],
  )
  return rows[0]
}

async function setCampaignError(ctx: JobContext, campaignId: string, message: string | null): Promise<void> {
  await ctx.db.query(
    'update public.campaigns set error_message = left($2, 1000) where id = $1 and error_message is distinct from left($2, 1000)',
    [campaignId, message],
  )
}

/** Still sending: the campaign running on this account, the account active, sending on its platform not paused. */
async function stillSending(ctx: JobContext, campaignId: string, accountId: string): Promise<boolean> {
  const { rows } = await ctx.db.query<{ ok: boolean }>(
    `select c.status = any($3) and c.account_id = $2 and a.status = 'active'
            and not internal.platform_action_paused(p.name, 'send') as ok
       from public.campaigns c join public.social_accounts a on a.id = $2
       join public.platforms p on p.id = a.platform_id
      where c.id = $1`,
    [campaignId, accountId, SENDING],
  )
  return rows[0]?.ok ?? false
}

export async function campaignTick(ctx: JobContext, data: JobData['campaign.tick']): Promise<TickResult> {
  const campaign = await loadCampaign(ctx, data.campaignId)
  if (!campaign || !SENDING.includes(campaign.status) || campaign.account_id !== data.accountId)
    return { note: 'The campaign is not sending from this account.' }
  const account = await loadAccount(ctx.db, data.accountId)
  if (account?.status !== 'active') {
    // Said on the campaign's card: why nothing is sent, and what brings it back.
    await setCampaignError(
      ctx,
      campaign.id,
      !account
        ? 'Its account was deleted. Choose another account in the campaign to send again.'
        : account.status === 'paused'
          ? `@${account.username} is paused for safety${account.paused_until ? ` until ${account.paused_until.toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''}; sending resumes on its own.`
          : `@${account.username} is ${account.status === 'error' ? 'in error' : account.status}${account.flag_reason ? `: ${account.flag_reason}` : ''}. Fix it in Social Accounts; sending resumes once it is Active.`,
    )
    return { note: 'The account is not active.' }
  }
  // paused fleet-wide, or held: this account met a page nobody has confirmed yet
  const note = stateNote(
    await actionState(ctx.db, account.platform, 'send', account.id),
    account.platform,
    'send',
  )
  if (note) {
    await setCampaignError(ctx, campaign.id, note)
    return { note }
  }
  const used = await ctx.sessions.use(
    account.id,
    ctx.config.accountWaitMs,
    (handle) => tick(ctx, handle, campaign, account),
    SEND_PRIORITY,
  )
  return used.status === 'done' ? used.value : { note: `The account is busy (${used.where}).` }
}

async function tick(ctx: JobContext, handle: AccountHandle, campaign: CampaignRow, account: AccountRow) {
  const result: TickResult = {}
  const count = (key: keyof Omit<TickResult, 'note' | 'readInbox' | 'inboxReadFailed'>, n = 1) => {
    result[key] = (result[key] ?? 0) + n
  }
  const signedIn = await signIn(ctx.db, handle, account)
  if ('note' in signedIn) {
    await setCampaignError(ctx, campaign.id, `@${account.username} could not sign in: ${signedIn.note}`)
    return { note: signedIn.note }
  }
  const session = signedIn.session
  const deps = {
    db: ctx.db,
    log: ctx.log,
    session,
    account,
    lease: handle.lease,
    signal: ctx.signal,
    random: ctx.random,
    pacingFactor: ctx.config.pacingFactor,
    ai: ctx.config.ai,
    packVersion: ctx.packs.current(account.platform).version,
  }
  const started = Date.now()
  // a lead is tried once per tick: one whose send failed waits for its retry time, not the next loop
  const tried = new Set<string>()
  /** When the campaign should send next, from the end of this tick (the scheduler's next_action_at). */
  let nextInMs = 0
  try {
    const settled = await settleUncertainSends(ctx.db, session, account.id, handle.lease, {
      minAgeMs: ctx.config.uncertainCheckAfterMs,
      limit: 5,
    })
    count('settledSent', settled.sent)
    count('settledNotSent', settled.notSent)
    // signed in and working: an earlier reason on the card no longer holds
    await setCampaignError(ctx, campaign.id, null)
    // before this tick's DMs: a read right after them would be inside their threads' read grace
    const folded = await readInboxInHeldSession(ctx, session, account)
    if (folded.status === 'read') {
      result.readInbox = true
      count('replies', folded.read.replies)
    } else if (folded.status === 'failed') result.inboxReadFailed = folded.error

    for (let looked = 0; looked < MAX_LEADS_PER_TICK; looked++) {
      if (ctx.signal.aborted || !handle.lease.valid) break
      if (!(await stillSending(ctx, campaign.id, account.id))) break
      const allowance = await sendAllowance(ctx.db, campaign.id)
      if (!allowance?.windowOpen || allowance.left <= 0) break
      const lead = await nextDueLead(ctx.db, campaign.id)
      if (!lead || tried.has(lead.id)) break
      tried.add(lead.id)
      const outcome = await sendToLead(deps, campaign, lead)
      count(outcome)
      if (outcome === 'site_changed') {
        await setCampaignError(
          ctx,
          campaign.id,
          await siteChangeNote(ctx.db, account.platform, 'send', account.id),
        )
        break
      }
      // a slow machine sends fewer DMs, not failed ones: the lead stays due, and the next tick
      // comes a little later so a page that keeps running out of time does not spin the account
      if (outcome === 'deferred') {
        nextInMs = DEFERRED_TICK_MS
        break
      }
      if (outcome === 'account_stopped') {
        await handle.discard()
        break
      }
      if (outcome !== 'sent' && outcome !== 'uncertain' && outcome !== 'not_sent') continue
      const gap = nextGapMs({ ...allowance, left: allowance.left - 1 }, ctx.config.pacingFactor, ctx.random)
      // wait inside this tick while the gap fits its budget; an interrupted wait still keeps the gap
      const waitStarted = Date.now()
      if (Date.now() - started + gap <= ctx.config.tickBudgetMs && (await pause(gap, ctx.signal))) continue
      nextInMs = Math.max(0, gap - (Date.now() - waitStarted))
      break
    }
  } catch (error) {
    // the runner's site-change guard records it; the card says sending waits
    if (isSiteChange(error))
      await setCampaignError(
        ctx,
        campaign.id,
        await siteChangeNote(ctx.db, account.platform, error.action, account.id),
      )
    const status = await stopOnSignal(ctx.db, handle, account, error)
    await ctx.log.warn(
      serviceOf(account.platform),
      `@${account.username} ${status}: ${(error as Error).message}`,
      {
        accountId: account.id,
      },
    )
    count('account_stopped')
  } finally {
    // after every tick: the gap still owed, or now (the scheduler ticks again once something is due)
    await ctx.db.query(
      `update public.campaigns set next_action_at = internal.now() + make_interval(secs => $2::float8 / 1000)
        where id = $1`,
      [campaign.id, nextInMs],
    )
  }
  return result
}
