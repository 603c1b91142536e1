// One lead's next step, at most once: skip who cannot or must not be messaged, check a follow-up's
// thread for a reply first, claim the step (intent committed), then hand it to the send engine
// (engine.ts) with how a campaign DM's outcomes are written: a refusal skips the lead; page trouble
// before the message left puts the step back with a backoff; a page that merely ran out of time
// keeps the step due with its attempt given back; a changed page settles the DM for what it is.

import type { AiConfig } from '@reachflow/ai'
import { alignSessionClock } from '../inbox/clock.ts'
import { recordReply } from '../inbox/replies.ts'
import { serviceOf } from '../log.ts'
import type { ThreadMessage } from '../platforms/types.ts'
import { renderTemplate, type Sequences } from './compose.ts'
import {
  type EngineDeps,
  type SendOutcome,
  type SendRecorder,
  sendClaimed,
  sessionSending,
} from './engine.ts'
import {
  claimIntent,
  type DueLead,
  type Intent,
  recordDeferred,
  recordNotSent,
  recordSent,
  recordSkipped,
  recordUncertain,
  skipLead,
} from './intent.ts'
import { personalizeForLead, recordPersonalization } from './personalize.ts'
import { recordSeenReplies } from './seen-replies.ts'
import { settleAtSiteChange } from './site-change.ts'
import { dmTarget, threadWith } from './threads.ts'
import { templateForLead } from './variants.ts'

export type LeadOutcome = SendOutcome | 'replied' | 'done' | 'stale'

/** The engine's parts, plus what a campaign DM adds: variant choice, pacing and personalisation. */
export interface SendDeps extends EngineDeps {
  random: () => number
  pacingFactor: number
  /** The AI endpoint for personalisation (null: not configured). */
  ai?: AiConfig | null
}

export interface CampaignForSend {
  id: string
  workspace_id: string
  user_id: string
  name: string
  sequences: Sequences
  ai_personalization?: boolean
}

export async function sendToLead(
  deps: SendDeps,
  campaign: CampaignForSend,
  lead: DueLead,
): Promise<LeadOutcome> {
  const { db, session, account } = deps
  // what the page reads before typing (a follow-up's reply check, the send's rows) is dated on our clock
  await alignSessionClock(db, session)
  if (lead.current_step === 0 && lead.profile_data.can_dm === false) {
    await skipLead(db, lead.id, 'dms_closed', 'The profile does not accept direct messages.')
    return 'skipped'
  }
  if (lead.current_step > 0 && (await repliedSinceLastMessage(deps, lead))) {
    await session.park().catch(() => undefined)
    return 'replied'
  }

  const variant = await templateForLead(db, campaign.id, campaign.sequences, lead, deps.random)
  const text =
    variant &&
    renderTemplate(variant.template, { username: lead.username, profile: lead.profile_data }, deps.random)
  if (text === null) {
    if (lead.current_step === 0) {
      await skipLead(db, lead.id, 'no_message', 'The campaign has no message to send.')
      return 'skipped'
    }
    // the follow-ups were removed after this lead was scheduled for one: its sequence is done (the
    // lead's trigger clears the due time of a lead whose campaign has no follow-up for its step)
    await session.park().catch(() => undefined)
    await db.query(
      `update public.campaign_leads set last_error = 'No follow-up is left to send' where id = $1`,
      [lead.id],
    )
    return 'done'
  }

  const personal = await personalizeForLead(db, deps.ai, {
    workspaceId: campaign.workspace_id,
    userId: campaign.user_id,
    enabled: campaign.ai_personalization === true,
    platform: account.platform,
    leadId: lead.id,
    step: lead.current_step,
    username: lead.username,
    profile: lead.profile_data,
    template: text,
  })
  const claim = await claimIntent(db, {
    lead,
    accountId: account.id,
    userId: campaign.user_id,
    platform: account.platform,
    text: personal?.text ?? text,
    variant,
  })
  if (claim.status !== 'claimed') return claim.status
  const intent = claim.intent
  if (personal) {
    await recordPersonalization(db, intent.logId, intent.text, personal)
    if (personal.personalization === 'fallback')
      await deps.log.warn(
        serviceOf(account.platform),
        `Personalisation fell back to the template for @${lead.username}`,
        {
          campaignId: campaign.id,
          leadId: lead.id,
          reason: personal.note,
        },
      )
  }
  return sendClaimed(
    sessionSending(deps),
    dmTarget(session, lead),
    intent.text,
    campaignRecorder(deps, campaign, lead, intent),
  )
}

/** How a campaign DM's outcomes are written: its dm_logs row and its lead move together. */
function campaignRecorder(
  deps: SendDeps,
  campaign: CampaignForSend,
  lead: DueLead,
  intent: Intent,
): SendRecorder {
  const { db } = deps
  return {
    label: `${intent.step === 0 ? 'DM' : `Follow-up ${intent.step}`} to @${lead.username}`,
    logContext: { campaignId: campaign.id, leadId: lead.id, step: intent.step },
    async sent(result) {
      await recordSent(db, intent)
      await recordSeenReplies(deps, lead.username, result)
    },
    uncertain: (reason, _threadId, seenBefore) => recordUncertain(db, intent, reason, seenBefore),
    async notSent(reason) {
      return (await recordNotSent(db, intent, 'error', reason)) === 'retry' ? 'will retry' : 'gave up'
    },
    refused: (signal, reason) => recordSkipped(db, intent, signal.kind, reason),
    deferred: (reason) => recordDeferred(db, intent, `Not sent yet: ${reason}; it is sent on a later tick`),
    siteChanged: (incident, pressed, step) =>
      settleAtSiteChange(
        db,
        intent,
        incident,
        pressed,
        pressed
          ? `The page changed after send was pressed ("${step}"); the conversation is checked once sending resumes`
          : `Not sent: the page changed before sending ("${step}"); it is sent once sending resumes`,
      ),
  }
}

/**
 * Before a follow-up: a reply in the thread since our last message ends the sequence. The page stays
 * on the thread for the send, which types into it without loading it again.
 */
async function repliedSinceLastMessage(deps: SendDeps, lead: DueLead): Promise<boolean> {
  const threadId = await threadWith(deps.session, lead)
  if (!threadId) return false
  const thread = await deps.session.readThread(threadId, { stay: true })
  const incoming = repliesAfter(thread, await lastDmText(deps.db, lead), lead.last_sent_at)
  if (incoming.length === 0) return false
  const outcome = await recordReply(deps.db, {
    accountId: deps.account.id,
    userId: deps.account.user_id,
    platform: deps.account.platform,
    peerUsername: lead.username,
    messages: incoming,
  })
  return outcome.leadsReplied > 0
}

/** The text of the campaign's last DM to the lead (the step before the one due). */
async function lastDmText(db: SendDeps['db'], lead: DueLead): Promise<string | null> {
  const { rows } = await db.query<{ text: string | null }>(
    'select message_sent as text from public.dm_logs where campaign_lead_id = $1 and step = $2',
    [lead.id, lead.current_step - 1],
  )
  return rows[0]?.text ?? null
}

/**
 * What the lead wrote after our last DM. By position when the thread shows that DM (a row of ours
 * with its text: a reply below it came after it, however the page dates it, and whatever device
 * it was read on); else by time, to the minute a label gives (a message with no time counts).
 */
export function repliesAfter(
  thread: ThreadMessage[],
  dmText: string | null,
  sentAt: Date | null,
): ThreadMessage[] {
  const ours =
    dmText === null ? -1 : thread.findLastIndex((m) => m.direction === 'outgoing' && m.text === dmText)
  if (ours >= 0) return thread.slice(ours + 1).filter((m) => m.direction === 'incoming')
  const minute = Math.floor((sentAt?.getTime() ?? 0) / 60_000) * 60_000
  return thread.filter((m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) >= minute))
}
