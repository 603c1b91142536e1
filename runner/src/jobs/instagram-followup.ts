// instagram.followup: an automation's one follow-up DM, due its delay after the automation's DM.
// The database claims it (internal.begin_instagram_followup) and decides there, from the webhook
// events, what Instagram's rules allow: nothing when the person wrote again (an answer stops
// follow-ups), a refusal in words when their last message is over 24 hours old, nothing when the
// automation was paused or the account is not working. Only a claimed follow-up is sent, once,
// through the send engine (official/instagram-sending.ts) with POST /me/messages and no tag; what
// Instagram refuses is recorded with its reason, and a network failure or 5xx is recorded failed,
// never sent again.
import type { MetaApiError } from '@reachflow/instagram-api'
import type { Db } from '../db.ts'
import { NO_PAGE, officialSending } from '../official/instagram-sending.ts'
import { metaErrorCode, officialAccessToken } from '../platforms/instagram-api/channel.ts'
import { sendClaimed } from '../sending/engine.ts'
import type { EventJobContext } from './instagram-event.ts'

export type FollowupOutcome =
  | 'sent'
  | 'refused'
  | 'failed'
  | 'skipped'
  | 'cancelled'
  /** not due yet on the database's clock: the minute's sweep queues it again when it is */
  | 'early'
  /** already handled (or the automation, and with it the follow-up, was deleted) */
  | 'done'

export async function instagramFollowup(
  ctx: EventJobContext,
  data: { followupId: string },
): Promise<FollowupOutcome> {
  // the sealed token first: nothing below the claim may fail before Instagram has answered
  const { rows: accounts } = await ctx.db.query<{ id: string; username: string; ciphertext: string }>(
    `select a.id, a.username, c.ciphertext
       from public.instagram_automation_followups f
       join public.social_accounts a on a.id = f.account_id
       join public.social_account_credentials c on c.account_id = f.account_id
      where f.id = $1`,
    [data.followupId],
  )
  const account = accounts[0]
  if (!account) return 'done'
  const accessToken = officialAccessToken(account.ciphertext, ctx.config.keyring)

  const { rows } = await ctx.db.query<{
    action: string
    followup_text: string | null
    person_id: string | null
  }>('select action, followup_text, person_id from internal.begin_instagram_followup($1)', [data.followupId])
  const claim = rows[0]
  if (!claim) return 'done'
  if (claim.action !== 'send') return claim.action as FollowupOutcome
  let finished: FollowupOutcome = 'failed'
  const finish = async (
    status: 'sent' | 'refused' | 'failed',
    reason: string | null,
    messageId: string | null,
  ) => {
    await finishFollowup(ctx.db, data.followupId, status, reason, messageId)
    finished = status
  }
  const refused = (error: MetaApiError) => finish('refused', refusal(error), null)
  try {
    await sendClaimed(
      officialSending({
        db: ctx.db,
        log: ctx.log,
        api: { graphUrl: ctx.config.instagramGraphUrl, fetch: ctx.fetch ?? fetch },
        accessToken,
        account,
      }),
      { to: { id: claim.person_id ?? '' } },
      claim.followup_text ?? '',
      {
        label: `Follow-up to ${claim.person_id ?? 'nobody'}`,
        logContext: { followupId: data.followupId },
        sent: ({ messageId }) => finish('sent', null, messageId),
        // an uncertain follow-up may have gone: it is not retried
        uncertain: (_reason, _threadId, _seen, { error }) =>
          finish(
            'failed',
            `Instagram did not answer clearly, so the follow-up was not sent again: ${error.message}`,
            null,
          ),
        notSent: (_reason, { error }) => refused(error).then(() => 'refused, not tried again'),
        refused: (_signal, _reason, { error }) => refused(error),
        ...NO_PAGE,
      },
    )
  } catch (error) {
    // only a claim still `sending` is finished: one the recorder finished keeps its outcome
    await finish('failed', `The follow-up could not be sent: ${(error as Error).message}`, null)
    throw error
  }
  return finished
}

const refusal = (error: MetaApiError) =>
  `Instagram refused the follow-up: ${error.message}${metaErrorCode(error)}`

const finishFollowup = (
  db: Db,
  id: string,
  status: 'sent' | 'refused' | 'failed',
  reason: string | null,
  messageId: string | null,
) => db.query('select internal.finish_instagram_followup($1, $2, $3, $4)', [id, status, reason, messageId])
