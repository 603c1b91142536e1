// One lead's next step, at most once: skip who cannot or must not be messaged, check a follow-up's
// thread for a reply first, claim the step (intent committed), type and send, then record what
// the page confirmed. Stop signals pause or flag the account; lead signals skip the lead; page
// trouble before the message left puts the step back with a backoff, except a page that merely ran
// out of time (the machine or network was slow: the step stays due, nothing held against the
// account); a changed page is a site change (the incident recorded, the DM settled for what it is,
// the account left alone).

import type { AiConfig } from '../../../supabase/functions/_shared/ai.ts'
import { adjustTrust, stopAccount, tripBreakerIfNeeded } from '../accounts/status.ts'
import type { Db } from '../db.ts'
import { recordReply } from '../inbox/replies.ts'
import type { Lease } from '../leases.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
import type { LayoutChangedError } from '../platforms/layout.ts'
import type { PlatformSession, SendResult, StopSignal } from '../platforms/types.ts'
import type { AccountRow } from '../sessions/open.ts'
import { isSiteChange, recordSiteChange } from '../site-change/record.ts'
import { renderTemplate, type Sequences } from './compose.ts'
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
import { settleAtSiteChange } from './site-change.ts'
import { dmTarget, threadWith } from './threads.ts'
import { templateForLead } from './variants.ts'

export type LeadOutcome =
  | 'sent'
  | 'uncertain'
  | 'not_sent'
  | 'skipped'
  | 'replied'
  | 'done'
  | 'stale'
  | 'account_stopped'
  /** The page was not what the adapter expects: sending on the platform is paused fleet-wide. */
  | 'site_changed'
  /** The DM page ran out of time before send was pressed: nothing attempted, the lead still due. */
  | 'deferred'

export interface SendDeps {
  db: Db
  log: Logger
  session: PlatformSession
  account: AccountRow
  lease: Lease
  signal: AbortSignal
  random: () => number
  pacingFactor: number
  /** The AI endpoint for personalisation (null: not configured). */
  ai?: AiConfig | null
  /** The version of the platform facts the session uses (recorded with a site change). */
  packVersion?: string | null
}

export interface CampaignForSend {
  id: string
  user_id: string
  name: string
  sequences: Sequences
  ai_personalization?: boolean
}

/** Whether a signal means the account must stop (page trouble is only retried later). */
export function stopsAccount(signal: StopSignal | undefined): signal is StopSignal {
  return signal !== undefined && signal.scope === 'account' && signal.kind !== 'page_error'
}

export async function sendToLead(
  deps: SendDeps,
  campaign: CampaignForSend,
  lead: DueLead,
): Promise<LeadOutcome> {
  const { db, session, account } = deps
  if (lead.current_step === 0 && lead.profile_data.can_dm === false) {
    await skipLead(db, lead.id, 'dms_closed', 'The profile does not accept direct messages.')
    return 'skipped'
  }
  if (lead.current_step > 0 && (await repliedSinceLastMessage(deps, lead))) return 'replied'

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
    await db.query(
      `update public.campaign_leads set last_error = 'No follow-up is left to send' where id = $1`,
      [lead.id],
    )
    return 'done'
  }

  const personal = await personalizeForLead(db, deps.ai, {
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
  if (!deps.lease.valid || deps.signal.aborted) {
    await recordNotSent(db, intent, 'error', 'The runner let go of the account before sending.')
    return 'not_sent'
  }

  let result: SendResult
  try {
    result = await session.sendDm(dmTarget(session, lead), intent.text)
  } catch (error) {
    if (!isSiteChange(error)) throw error
    return siteChanged(deps, intent, lead, error, false)
  }
  if (result.status === 'uncertain' && result.siteChange)
    return siteChanged(deps, intent, lead, result.siteChange, true)
  const log = deps.log.with({
    campaignId: campaign.id,
    leadId: lead.id,
    accountId: account.id,
    step: intent.step,
  })
  const service = serviceOf(account.platform)
  if (result.status === 'sent') {
    await recordSent(db, intent)
    await adjustTrust(db, account.id, 0.01)
    await log.info(
      service,
      `DM ${intent.step === 0 ? 'sent' : `follow-up ${intent.step} sent`} to @${lead.username}`,
    )
    return 'sent'
  }
  if (result.status === 'uncertain') {
    await recordUncertain(db, intent, result.reason)
    await log.warn(
      service,
      `DM to @${lead.username} could not be confirmed; it will be checked in the thread`,
      {
        reason: result.reason,
      },
    )
    await adjustTrust(db, account.id, -0.02)
    if (stopsAccount(result.signal)) {
      await stopAccount(db, account, result.signal)
      return 'account_stopped'
    }
    return (await tripBreakerIfNeeded(db, account)) ? 'account_stopped' : 'uncertain'
  }
  if (result.outOfTime) {
    // the machine or the network was slow, not the account: no trust change, nothing for the breaker
    await recordDeferred(db, intent, `Not sent yet: ${result.reason}; it is sent on a later tick`)
    await log.info(service, `DM to @${lead.username} waits: the page was slow before anything was typed`, {
      reason: result.reason,
    })
    return 'deferred'
  }
  return recordFailure(deps, intent, lead, result.reason, result.signal)
}

async function siteChanged(
  deps: SendDeps,
  intent: Intent,
  lead: DueLead,
  error: LayoutChangedError,
  pressed: boolean,
): Promise<LeadOutcome> {
  const incident = await recordSiteChange(deps.db, deps.log, error, {
    source: 'job',
    packVersion: deps.packVersion ?? null,
    accountId: deps.account.id,
  })
  await settleAtSiteChange(
    deps.db,
    intent,
    incident,
    pressed,
    pressed
      ? `The page changed after send was pressed ("${error.step}"); the conversation is checked once sending resumes`
      : `Not sent: the page changed before sending ("${error.step}"); it is sent once sending resumes`,
  )
  await deps.log.info(
    serviceOf(deps.account.platform),
    `DM to @${lead.username} ${pressed ? 'is uncertain' : 'was not sent'}: the site changed`,
    { leadId: lead.id, incidentId: incident },
  )
  return 'site_changed'
}

async function recordFailure(
  deps: SendDeps,
  intent: Intent,
  lead: DueLead,
  reason: string,
  signal: StopSignal | undefined,
): Promise<LeadOutcome> {
  const { db, account } = deps
  const service = serviceOf(account.platform)
  const log = deps.log.with({ leadId: lead.id, accountId: account.id, step: intent.step })
  if (signal?.scope === 'lead') {
    await recordSkipped(db, intent, signal.kind, `${reason} (${signal.code})`)
    await log.info(service, `@${lead.username} skipped: ${signal.kind} (${signal.code})`)
    return 'skipped'
  }
  if (stopsAccount(signal)) {
    await recordNotSent(db, intent, 'error', `${reason} (${signal.code})`)
    const status = await stopAccount(db, account, signal)
    await log.warn(service, `@${account.username} ${status} after ${signal.kind} (${signal.code})`, {
      code: signal.code,
      kind: signal.kind,
    })
    return 'account_stopped'
  }
  const outcome = await recordNotSent(db, intent, 'error', reason)
  await log.warn(
    service,
    `DM to @${lead.username} failed before it was sent (${outcome === 'retry' ? 'will retry' : 'gave up'})`,
    {
      reason,
    },
  )
  return (await tripBreakerIfNeeded(db, account)) ? 'account_stopped' : 'not_sent'
}

/** Before a follow-up: a reply in the thread since our last message ends the sequence. */
async function repliedSinceLastMessage(deps: SendDeps, lead: DueLead): Promise<boolean> {
  const threadId = await threadWith(deps.session, lead)
  if (!threadId) return false
  const since = lead.last_sent_at?.getTime() ?? 0
  const incoming = (await deps.session.readThread(threadId)).filter(
    (m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) > since),
  )
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
