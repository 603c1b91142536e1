// The at-most-once record of a DM. Before anything is typed, one transaction claims the lead's
// step: the lead goes to `sending` and the step's dm_logs row is written as `uncertain` (it may
// go out from here on), and a first message claims the person in the customer's contact ledger.
// dm_logs holds one row per lead and step, so a step can only be claimed again when its row says
// it was not sent (failed / error): never when it is uncertain or sent. Outcomes then move the
// row and the lead on; a runner that dies mid-send leaves `sending` behind, which the next holder
// of the account treats as uncertain and checks in the thread (uncertain.ts).

import type pg from 'pg'
import { type Db, inTransaction, type Queryable } from '../db.ts'
import type { TableRow } from '../db-rows.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import type { TemplateChoice } from './compose.ts'
import { variantIdOf } from './variants.ts'

export type DueLead = TableRow<
  'campaign_leads',
  'id' | 'campaign_id' | 'username' | 'profile_data' | 'state' | 'current_step' | 'last_sent_at' | 'attempts',
  { profile_data: Record<string, unknown>; state: 'pending' | 'sent'; last_sent_at: Date | null }
>

/** The campaign's lead whose next step has been due longest, if any. */
export async function nextDueLead(db: Queryable, campaignId: string): Promise<DueLead | undefined> {
  const { rows } = await db.query<DueLead>(
    `select l.id, l.campaign_id, l.username, l.profile_data, l.state, l.current_step, l.last_sent_at, l.attempts
       from public.campaign_leads l
      where l.campaign_id = $1 and l.next_send_at <= internal.now()
        and l.state in ('pending', 'sent') and l.replied_at is null
      order by l.next_send_at, l.id
      limit 1`,
    [campaignId],
  )
  return rows[0]
}

export interface Intent {
  logId: string
  leadId: string
  campaignId: string
  step: number
  text: string
  /** The lead's state before the claim, to return to when nothing was sent. */
  previousState: 'pending' | 'sent'
}

export type ClaimResult =
  | { status: 'claimed'; intent: Intent }
  | { status: 'skipped'; reason: string }
  /** The lead moved on since it was read (another job, a reply): nothing to do. */
  | { status: 'stale' }

export interface ClaimRequest {
  lead: DueLead
  accountId: string
  userId: string
  platform: AccountPlatform
  text: string
  /** The message text the DM was made from, recorded with it (per-variant results). */
  variant?: TemplateChoice | null
}

export function claimIntent(db: Db, request: ClaimRequest): Promise<ClaimResult> {
  return inTransaction(db, (client) => claim(client, request))
}

async function claim(
  client: pg.PoolClient,
  { lead, accountId, userId, platform, text, variant }: ClaimRequest,
) {
  const current = (
    await client.query<{ state: string; current_step: number; due: boolean }>(
      `select state, current_step, next_send_at <= internal.now() and replied_at is null as due
         from public.campaign_leads where id = $1 for update`,
      [lead.id],
    )
  ).rows[0]
  if (!current?.due || current.state !== lead.state || current.current_step !== lead.current_step)
    return { status: 'stale' } as const
  const step = lead.current_step

  const blocked = await client.query(
    `select 1 from public.do_not_contact
      where workspace_id = (select workspace_id from public.campaigns where id = $1)
        and platform = $2 and lower(target_username) = lower($3)`,
    [lead.campaign_id, platform, lead.username],
  )
  if (blocked.rowCount)
    return skip(client, lead.id, 'do_not_contact', 'The person is on the do-not-contact list.')

  if (step === 0) {
    // the ledger's unique key makes the claim atomic across accounts, campaigns and runners
    await client.query(
      `insert into public.contact_ledger (user_id, workspace_id, platform, target_username, first_contacted_at, campaign_id, account_id)
       select $1, c.workspace_id, $2, $3, internal.now(), c.id, $5 from public.campaigns c where c.id = $4
       on conflict do nothing`,
      [userId, platform, lead.username, lead.campaign_id, accountId],
    )
    const owner = await client.query<{ campaign_id: string | null }>(
      `select campaign_id from public.contact_ledger
        where workspace_id = (select workspace_id from public.campaigns where id = $1)
          and platform = $2 and lower(target_username) = lower($3)`,
      [lead.campaign_id, platform, lead.username],
    )
    if (owner.rows[0]?.campaign_id !== lead.campaign_id)
      return skip(
        client,
        lead.id,
        'already_contacted',
        'Another campaign or account already messaged this person.',
      )
  }

  const variantId = variant ? await variantIdOf(client, lead.campaign_id, step, variant) : null
  const inserted = await client.query<{ id: string }>(
    `insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at,
                                 variant_id, variant_index)
     values ($1, $2, $3, $4, 'uncertain', $5, $6, internal.now(), $7, $8)
     on conflict (campaign_lead_id, step) do nothing
     returning id`,
    [
      lead.campaign_id,
      lead.id,
      accountId,
      step,
      lead.username,
      text,
      variantId,
      variantId ? variant?.slot : null,
    ],
  )
  let logId = inserted.rows[0]?.id
  let finalText = text
  if (!logId) {
    const existing = (
      await client.query<{ id: string; status: string; message_sent: string | null }>(
        'select id, status, message_sent from public.dm_logs where campaign_lead_id = $1 and step = $2',
        [lead.id, step],
      )
    ).rows[0]
    if (!existing) return { status: 'stale' } as const
    if (existing.status === 'sent' || existing.status === 'uncertain') {
      // the step may already have gone out: never send it again, let the record say so
      await client.query(
        `update public.campaign_leads set state = $2, last_error = 'This step was already attempted' where id = $1`,
        [lead.id, existing.status === 'sent' ? 'sent' : 'uncertain'],
      )
      return { status: 'stale' } as const
    }
    // a retry of a step known not to have gone out: the same text, this account, this attempt's time
    finalText = existing.message_sent ?? text
    await client.query(
      `update public.dm_logs set status = 'uncertain', error = null, account_id = $2, message_sent = $3,
              sent_at = internal.now()
        where id = $1`,
      [existing.id, accountId, finalText],
    )
    logId = existing.id
  }
  await client.query(`update public.campaign_leads set state = 'sending', last_error = null where id = $1`, [
    lead.id,
  ])
  return {
    status: 'claimed',
    intent: {
      logId,
      leadId: lead.id,
      campaignId: lead.campaign_id,
      step,
      text: finalText,
      previousState: lead.state,
    },
  } as const
}

async function skip(client: Queryable, leadId: string, reason: string, detail: string) {
  await client.query(
    `update public.campaign_leads set state = 'skipped', skip_reason = $2, last_error = $3 where id = $1`,
    [leadId, reason, detail],
  )
  return { status: 'skipped', reason } as const
}

/** Skips a lead before any attempt (DMs closed, nothing to send). */
export async function skipLead(db: Queryable, leadId: string, reason: string, detail: string): Promise<void> {
  await skip(db, leadId, reason, detail)
}

// Outcomes -------------------------------------------------------------------------------------

/** The page confirmed delivery. The lead's trigger advances its step and dates its follow-up. */
export async function recordSent(
  db: Db,
  intent: Pick<Intent, 'logId' | 'leadId'>,
  sentAt?: Date,
): Promise<void> {
  await inTransaction(db, async (client) => {
    await client.query(`update public.dm_logs set status = 'sent', error = null where id = $1`, [
      intent.logId,
    ])
    await client.query(
      `update public.campaign_leads set state = 'sent', last_sent_at = coalesce($2, internal.now()), last_error = null
        where id = $1 and state in ('sending', 'uncertain')`,
      [intent.leadId, sentAt ?? null],
    )
  })
}

/**
 * Send was pressed but delivery not confirmed: both rows say uncertain until the thread is read.
 * The ids of the rows the send saw before typing go with the log: none of them is this send.
 */
export async function recordUncertain(
  db: Db,
  intent: Pick<Intent, 'logId' | 'leadId'>,
  reason: string,
  seenBefore?: string[],
): Promise<void> {
  await inTransaction(db, async (client) => {
    await client.query(
      'update public.dm_logs set error = left($2, 1000), seen_before = coalesce($3, seen_before) where id = $1',
      [intent.logId, reason, seenBefore ?? null],
    )
    await client.query(
      `update public.campaign_leads set state = 'uncertain', last_error = left($2, 1000) where id = $1 and state = 'sending'`,
      [intent.leadId, reason],
    )
  })
}

/**
 * The platform refused this lead (DMs closed, verified-only, gone): skipped for good. The log says
 * `skipped`, not failed: nothing went out and the lead's refusal is no one's fault, so it counts in
 * no failure figure, delivery rate or breaker, and its attempt is given back.
 */
export async function recordSkipped(
  db: Db,
  intent: Pick<Intent, 'logId' | 'leadId'>,
  skipReason: string,
  detail: string,
): Promise<void> {
  await inTransaction(db, async (client) => {
    await client.query(`update public.dm_logs set status = 'skipped', error = left($2, 1000) where id = $1`, [
      intent.logId,
      detail,
    ])
    await client.query(
      `update public.campaign_leads set state = 'skipped', skip_reason = $2, last_error = left($3, 1000) where id = $1`,
      [intent.leadId, skipReason, detail],
    )
  })
}

/** Attempts after which a lead whose sends keep failing (nothing sent) is given up. */
export const MAX_ATTEMPTS = 5

/**
 * Nothing went out (the send failed before the message left, or the thread shows it never
 * arrived): the lead goes back to where it was, and the lead's trigger, seeing the step's log say
 * so, keeps its step and makes it due again after a backoff; unless the lead failed too often.
 * `logStatus` says why: error (platform or page trouble), failed (checked: not delivered).
 */
export async function recordNotSent(
  db: Db,
  intent: Pick<Intent, 'logId' | 'leadId' | 'previousState'>,
  logStatus: 'error' | 'failed',
  reason: string,
): Promise<'retry' | 'failed'> {
  return inTransaction(db, async (client) => {
    await client.query('update public.dm_logs set status = $2, error = left($3, 1000) where id = $1', [
      intent.logId,
      logStatus,
      reason,
    ])
    const { rows } = await client.query<{ attempts: number }>(
      'select attempts from public.campaign_leads where id = $1',
      [intent.leadId],
    )
    const gaveUp = (rows[0]?.attempts ?? 0) >= MAX_ATTEMPTS
    await client.query(
      `update public.campaign_leads set state = $2, last_error = left($3, 1000)
        where id = $1 and state in ('sending', 'uncertain')`,
      [
        intent.leadId,
        gaveUp ? 'failed' : intent.previousState,
        gaveUp ? `Gave up after ${MAX_ATTEMPTS} attempts: ${reason}` : reason,
      ],
    )
    return gaveUp ? 'failed' : 'retry'
  })
}

/**
 * The DM page ran out of time before send was pressed: nothing was attempted. The log says
 * `deferred` (left out of the failed figures and the circuit breaker) and the lead's trigger makes
 * the step due again at once with its attempt given back.
 */
export async function recordDeferred(
  db: Db,
  intent: Pick<Intent, 'logId' | 'leadId' | 'previousState'>,
  reason: string,
): Promise<void> {
  await inTransaction(db, async (client) => {
    await client.query(
      `update public.dm_logs set status = 'deferred', error = left($2, 1000) where id = $1`,
      [intent.logId, reason],
    )
    await client.query(
      `update public.campaign_leads set state = $2, last_error = left($3, 1000)
        where id = $1 and state in ('sending', 'uncertain')`,
      [intent.leadId, intent.previousState, reason],
    )
  })
}
