// What a reply does: the lead is marked replied (which stops its follow-ups and counts a response
// on the campaign, by trigger), the customer is notified once, and a reply that opts out (the
// customer's opt-out words, by default "stop" and "unsubscribe": _shared/domain/opt-out.ts) puts the
// person on the customer's do-not-contact list; the notification opens the conversation in the
// inbox. Idempotent: a reply already recorded changes nothing.
import { DEFAULT_OPT_OUT_WORDS, isOptOut, type OptOutWords } from '@reachflow/domain'
import { type Db, inTransaction, type Queryable } from '../db.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import type { ThreadMessage } from '../platforms/types.ts'
import { storeThread } from './threads.ts'

/** The opt-out words of the account's workspace (edited on the do-not-contact screen), else the defaults. */
export async function optOutWordsOf(db: Queryable, accountId: string): Promise<OptOutWords> {
  const { rows } = await db.query<{ anywhere: string[]; at_start: string[] }>(
    `select anywhere, at_start from public.opt_out_settings
      where workspace_id = (select workspace_id from public.social_accounts where id = $1)`,
    [accountId],
  )
  const row = rows[0]
  return row ? { anywhere: row.anywhere, atStart: row.at_start } : DEFAULT_OPT_OUT_WORDS
}

export interface ReplyInput {
  accountId: string
  userId: string
  platform: AccountPlatform
  peerUsername: string
  /** Incoming messages, oldest first. */
  messages: ThreadMessage[]
  /**
   * The inbox thread the caller already stored them in (the inbox sync). Without it (a follow-up
   * found the reply) the replies are stored here, unread: the runner just opened the thread.
   */
  inboxThreadId?: string
}

export interface ReplyOutcome {
  leadsReplied: number
  optedOut: boolean
}

export { isOptOut }

export async function recordReply(db: Db, reply: ReplyInput): Promise<ReplyOutcome> {
  const incoming = reply.messages.filter((m) => m.direction === 'incoming' && m.text.trim() !== '')
  const first = incoming[0]
  if (!first) return { leadsReplied: 0, optedOut: false }
  const words = await optOutWordsOf(db, reply.accountId)
  const optedOut = incoming.some((m) => isOptOut(m.text, words))
  const inboxThreadId =
    reply.inboxThreadId ??
    (
      await storeThread(db, {
        accountId: reply.accountId,
        peerUsername: reply.peerUsername,
        platformUnread: null,
        opened: true,
        messages: incoming,
      })
    )?.threadId
  return inTransaction(db, async (client) => {
    // leads this account has messaged (whatever campaign), not yet marked replied
    const { rows: leads } = await client.query<{
      id: string
      campaign_id: string
      campaign_name: string
      workspace_id: string
      state: string
    }>(
      `select l.id, l.campaign_id, c.name as campaign_name, c.workspace_id, l.state
         from public.campaign_leads l
         join public.campaigns c on c.id = l.campaign_id
        where l.workspace_id = (select a.workspace_id from public.social_accounts a where a.id = $2)
          and lower(l.username) = lower($1) and l.replied_at is null
          and exists (select 1 from public.dm_logs d
                       where d.campaign_lead_id = l.id and d.account_id = $2 and d.status in ('sent', 'uncertain'))
        for update of l`,
      [reply.peerUsername, reply.accountId],
    )
    const repliedAt = first.at && !Number.isNaN(Date.parse(first.at)) ? first.at : null
    for (const lead of leads) {
      // a reply proves an unconfirmed first message arrived
      if (lead.state === 'uncertain' || lead.state === 'sending') {
        await client.query(
          `update public.dm_logs set status = 'sent', error = null
            where campaign_lead_id = $1 and status = 'uncertain' and account_id = $2`,
          [lead.id, reply.accountId],
        )
      }
      await client.query(
        `update public.campaign_leads
            set replied_at = coalesce($2::timestamptz, internal.now()), reply_text = left($3, 2000),
                state = case when state in ('uncertain', 'sending') then 'sent' else state end
          where id = $1 and replied_at is null`,
        [lead.id, repliedAt, first.text],
      )
      await client.query(
        `insert into public.notifications (user_id, workspace_id, type, title, message, metadata)
         values ($1, $4, 'lead_replied', 'New reply', $2, $3)`,
        [
          reply.userId,
          `@${reply.peerUsername} replied to "${lead.campaign_name}": ${preview(first.text)}`,
          {
            campaignId: lead.campaign_id,
            leadId: lead.id,
            accountId: reply.accountId,
            ...(inboxThreadId ? { threadId: inboxThreadId } : {}),
          },
          lead.workspace_id,
        ],
      )
    }
    if (optedOut) {
      await client.query(
        `insert into public.do_not_contact (user_id, workspace_id, platform, target_username, reason)
         select $1, a.workspace_id, $2, $3, $4 from public.social_accounts a where a.id = $5
         on conflict do nothing`,
        [
          reply.userId,
          reply.platform,
          reply.peerUsername,
          `Opted out by reply: "${preview(incoming.find((m) => isOptOut(m.text, words))?.text ?? '')}"`,
          reply.accountId,
        ],
      )
    }
    return { leadsReplied: leads.length, optedOut }
  })
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 140 ? `${flat.slice(0, 139)}…` : flat
}
