// instagram.event: answers one comment, DM or story mention/reply delivered to an official Instagram
// account with the automation it matches. The comment or message is claimed first (one run per
// account and key), so a second delivery, a retried job or a second runner sends nothing more. A
// private reply is only tried within 7 days of the comment; it goes through the send engine
// (official/instagram-sending.ts), and what Instagram refuses (outside the window, already
// answered, the person unavailable) is recorded with its reason and not retried.
// Every message, answered or not, and every DM sent also lands in the person's inbox thread
// (official/instagram-inbox.ts).
import { MetaApiError, replyToComment } from '@reachflow/instagram-api'
import type { Keyring } from '../crypto.ts'
import { type Db, dbNow } from '../db.ts'
import type { Logger } from '../log.ts'
import { scheduleFollowup } from '../official/instagram-followup-schedule.ts'
import { inboxMessageOf, type OfficialAccount, recordInstagramMessage } from '../official/instagram-inbox.ts'
import {
  type Automation,
  type IncomingEvent,
  matchingAutomation,
  readEvent,
} from '../official/instagram-match.ts'
import { NO_PAGE, officialSending } from '../official/instagram-sending.ts'
import { type InstagramApi, metaErrorCode, officialAccessToken } from '../platforms/instagram-api/channel.ts'
import { sendClaimed } from '../sending/engine.ts'

const PRIVATE_REPLY_WINDOW_MS = 7 * 86_400_000

export interface EventJobContext {
  db: Db
  log: Logger
  config: { keyring: Keyring; instagramGraphUrl: string }
  fetch?: typeof fetch
}

export type EventOutcome =
  | 'sent'
  | 'refused'
  | 'no_automation'
  | 'ignored'
  | 'no_account'
  | 'already_answered'

export const REFUSALS = {
  tooOld: 'The comment is more than 7 days old: Instagram allows a private reply only within 7 days of it.',
  instagram: (error: MetaApiError) => `Instagram refused the reply: ${error.message}${metaErrorCode(error)}`,
} as const

export async function instagramEvent(ctx: EventJobContext, data: { eventId: string }): Promise<EventOutcome> {
  const { rows: events } = await ctx.db.query<{
    event_key: string
    kind: string
    payload: unknown
    occurred_at: Date
    instagram_account_id: string
  }>(
    'select event_key, kind, payload, occurred_at, instagram_account_id from internal.instagram_webhook_events where id = $1',
    [data.eventId],
  )
  const row = events[0]
  if (!row) return 'ignored'
  const { rows: accounts } = await ctx.db.query<{
    id: string
    username: string
    status: string
    ciphertext: string
  }>(
    `select a.id, a.username, a.status, c.ciphertext
       from public.social_accounts a
       join public.platforms p on p.id = a.platform_id and p.name = 'instagram'
       join public.social_account_credentials c on c.account_id = a.id
      where a.connection = 'official' and a.platform_user_id = $1`,
    [row.instagram_account_id],
  )
  const account = accounts[0]
  if (account?.status !== 'active') return 'no_account'
  await recordInInbox(ctx, account, row)
  const event = readEvent(row, row.instagram_account_id)
  if (!event) return 'ignored'
  const { rows: automations } = await ctx.db.query<Automation>(
    `select id, trigger, media_id, keywords, reply_text, public_reply_text, created_at
       from public.instagram_automations where account_id = $1 and enabled`,
    [account.id],
  )
  const automation = matchingAutomation(automations, event)
  if (!automation) return 'no_automation'
  const { rows: claimed } = await ctx.db.query<{ run: string | null }>(
    'select internal.begin_instagram_automation_run($1, $2, $3, $4) as run',
    [automation.id, event.key, event.personId, event.personUsername],
  )
  const runId = claimed[0]?.run
  if (!runId) return 'already_answered'
  const finish = async (
    status: 'sent' | 'refused' | 'failed',
    reason: string | null,
    messageId: string | null,
    replyId: string | null,
  ) => {
    await ctx.db.query('select internal.finish_instagram_automation_run($1, $2, $3, $4, $5)', [
      runId,
      status,
      reason,
      messageId,
      replyId,
    ])
  }

  if (
    event.commentId &&
    (await dbNow(ctx.db)).getTime() - event.occurredAt.getTime() > PRIVATE_REPLY_WINDOW_MS
  ) {
    await finish('refused', REFUSALS.tooOld, null, null)
    return 'refused'
  }
  const accessToken = officialAccessToken(account.ciphertext, ctx.config.keyring)
  const api = { graphUrl: ctx.config.instagramGraphUrl, fetch: ctx.fetch ?? fetch }
  const refused = (error: MetaApiError) => finish('refused', REFUSALS.instagram(error), null, null)
  const outcome = await sendClaimed(
    officialSending({ db: ctx.db, log: ctx.log, api, accessToken, account }),
    { to: event.commentId ? { comment_id: event.commentId } : { id: event.personId } },
    automation.reply_text,
    {
      label: `Automation DM to ${event.personUsername ?? event.personId}`,
      logContext: { automationId: automation.id, runId },
      async sent({ messageId }) {
        await recordAutomationDm(ctx, account, event, automation.reply_text, messageId)
        const reply = await publicReply(api, accessToken, event, automation.public_reply_text)
        if ('error' in reply) {
          await finish(
            'sent',
            `The DM was sent; the public reply was not: ${reply.error.message}`,
            messageId,
            null,
          )
          return
        }
        await finish('sent', null, messageId, reply.id)
        await scheduleFollowup(ctx.db, runId)
      },
      // an uncertain send may have gone out: the run stays failed rather than being tried again into
      // a second message
      uncertain: (_reason, _threadId, _seen, { error }) =>
        finish('failed', REFUSALS.instagram(error), null, null),
      notSent: (_reason, { error }) => refused(error).then(() => 'refused, not tried again'),
      refused: (_signal, _reason, { error }) => refused(error),
      ...NO_PAGE,
    },
  )
  return outcome === 'sent' ? 'sent' : 'refused'
}

/** The comment's public reply, if the automation has one (else its id is null), or Instagram's refusal. */
async function publicReply(
  api: InstagramApi,
  accessToken: string,
  event: IncomingEvent,
  text: string | null,
): Promise<{ id: string | null } | { error: MetaApiError }> {
  if (!event.commentId || !text) return { id: null }
  try {
    return { id: await replyToComment(api, accessToken, event.commentId, text, api.fetch) }
  } catch (error) {
    if (!(error instanceof MetaApiError)) throw error
    return { error }
  }
}

const inboxDeps = (ctx: EventJobContext) => ({
  db: ctx.db,
  keyring: ctx.config.keyring,
  graphUrl: ctx.config.instagramGraphUrl,
  fetch: ctx.fetch ?? fetch,
})

/** Every message (a DM, a story reply or mention, an echo) lands in the person's inbox thread, automation or not. */
async function recordInInbox(
  ctx: EventJobContext,
  account: OfficialAccount,
  row: { kind: string; payload: unknown; occurred_at: Date; instagram_account_id: string },
): Promise<void> {
  const message = inboxMessageOf(row, row.instagram_account_id)
  if (message) await recordInstagramMessage(inboxDeps(ctx), account, message)
}

/** The automation's DM in the person's thread, keyed by its mid as its echo will be: it shows once. */
async function recordAutomationDm(
  ctx: EventJobContext,
  account: OfficialAccount,
  event: IncomingEvent,
  text: string,
  messageId: string,
): Promise<void> {
  await recordInstagramMessage(
    inboxDeps(ctx),
    account,
    {
      personId: event.personId,
      direction: 'outgoing',
      mid: messageId,
      body: text,
      sentAt: await dbNow(ctx.db),
    },
    event.personUsername,
  )
}
