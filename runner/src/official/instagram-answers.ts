// The customer's answers from the Conversations inbox on an official Instagram account, sent
// through Instagram's Send API instead of a browser, by the send engine (instagram-sending.ts).
// Each is claimed (`sending`, committed) before the call, so it goes at most once. Instagram's
// rules decide how: within 24 hours of the person's last message a normal message; within 7 days
// one tagged HUMAN_AGENT (a person answering is what the tag is for); later, or to someone who never
// wrote, nothing is sent and the reason is shown. An error Instagram answers is a refusal (nothing
// went out); no answer at all, or a 5xx, leaves the answer `uncertain`, never sent a second time;
// a token Instagram no longer accepts turns the account error and fails the answers still queued.
import type { MetaApiError } from '@reachflow/instagram-api'
import type { Db } from '../db.ts'
import type { Logger } from '../log.ts'
import {
  type InstagramApiSend,
  metaErrorCode,
  officialAccessToken,
} from '../platforms/instagram-api/channel.ts'
import { type SendRecorder, sendClaimed } from '../sending/engine.ts'
import type { InboxDeps, OfficialAccount } from './instagram-inbox.ts'
import { type InstagramApiMiss, NO_PAGE, officialSending } from './instagram-sending.ts'

export interface AnswerTally {
  sent: number
  uncertain: number
  failed: number
}

type Window = 'standard' | 'human_agent' | 'closed'

/** The reason shown on an answer Instagram refused, in words. */
export function refusalOf(error: MetaApiError): string {
  const code = metaErrorCode(error)
  if (error.code === 10 && error.subcode === 2534022)
    return `Instagram refused the answer: it is outside the window Instagram allows after the person's last message${code}. Nothing was sent.`
  if (error.code === 551)
    return `Instagram refused the answer: this person isn't available right now (they may have blocked the account)${code}. Nothing was sent.`
  return `Instagram refused the answer: ${error.message}${code}. Nothing was sent.`
}

export const UNCONFIRMED = (error: MetaApiError) =>
  `Instagram did not confirm the answer (${error.message}); it may have gone out, so it is not sent again. Check the conversation in Instagram.`

async function finish(
  db: Db,
  messageId: string,
  status: 'sent' | 'uncertain' | 'failed',
  detail: { mid?: string; error?: string },
): Promise<void> {
  await db.query('select internal.finish_inbox_reply($1, $2, $3, null, $4)', [
    messageId,
    status,
    detail.mid ?? null,
    detail.error ?? null,
  ])
}

/** Sends up to `max` queued answers of the account; stops early when its token no longer works. */
export async function sendInstagramAnswers(
  deps: InboxDeps & { db: Db; log: Logger },
  account: OfficialAccount & { username: string },
  max: number,
): Promise<AnswerTally> {
  const { db } = deps
  const tally: AnswerTally = { sent: 0, uncertain: 0, failed: 0 }
  const sending = officialSending({
    db,
    log: deps.log,
    api: { graphUrl: deps.graphUrl, fetch: deps.fetch },
    accessToken: officialAccessToken(account.ciphertext, deps.keyring),
    account,
    // only connecting again helps: the account turns error (its owner is told)
    tokenRefused: async ({ error }) => {
      await db.query('select internal.instagram_token_failed($1, $2)', [account.id, refusalOf(error)])
      return 'error'
    },
  })
  for (let tried = 0; tried < max; tried++) {
    const { rows } = await db.query<{
      message_id: string
      thread_id: string
      body: string
      peer_platform_id: string | null
    }>('select message_id, thread_id, body, peer_platform_id from internal.claim_inbox_reply($1)', [
      account.id,
    ])
    const answer = rows[0]
    if (!answer) break
    const { rows: windows } = await db.query<{ window: Window; refusal: string | null }>(
      'select internal.instagram_answer_window($1) as window, internal.instagram_answer_refusal($1) as refusal',
      [answer.thread_id],
    )
    const window = windows[0]?.window ?? 'closed'
    if (window === 'closed' || !answer.peer_platform_id) {
      await finish(db, answer.message_id, 'failed', {
        error:
          windows[0]?.refusal ??
          "The person's Instagram id is unknown, so Instagram cannot be asked to deliver it. Nothing was sent.",
      })
      tally.failed++
      continue
    }
    const outcome = await sendClaimed(
      sending,
      { to: { id: answer.peer_platform_id }, tag: window === 'human_agent' ? 'HUMAN_AGENT' : undefined },
      answer.body,
      answerRecorder(db, answer.message_id, tally),
    )
    if (outcome === 'account_stopped') {
      // the rest waits no more
      tally.failed +=
        (
          await db.query<{ failed: number }>('select internal.fail_queued_inbox_replies($1, $2) as failed', [
            account.id,
            `Not sent: @${account.username} must be connected to Instagram again.`,
          ])
        ).rows[0]?.failed ?? 0
      break
    }
  }
  return tally
}

/** How one answer's outcomes are written, tallied for the sync's summary. */
function answerRecorder(db: Db, messageId: string, tally: AnswerTally): SendRecorder<InstagramApiSend> {
  const refused = async ({ error }: InstagramApiMiss) => {
    await finish(db, messageId, 'failed', { error: refusalOf(error) })
    tally.failed++
  }
  return {
    label: 'Answer from the inbox',
    logContext: { inboxMessageId: messageId },
    async sent({ messageId: mid }) {
      await finish(db, messageId, 'sent', { mid })
      tally.sent++
    },
    async uncertain(_reason, _threadId, _seen, { error }) {
      await finishUnconfirmed(db, messageId, error)
      tally.uncertain++
    },
    notSent: (_reason, result) => refused(result).then(() => 'marked failed'),
    refused: (_signal, _reason, result) => refused(result),
    ...NO_PAGE,
  }
}

/**
 * No answer from Instagram: uncertain, unless its echo has meanwhile confirmed the answer (the
 * webhook's echo can arrive before the Send API's answer, and it adopted the message).
 */
async function finishUnconfirmed(db: Db, messageId: string, error: MetaApiError): Promise<void> {
  const { rows } = await db.query<{ platform_message_id: string | null }>(
    'select platform_message_id from public.inbox_messages where id = $1',
    [messageId],
  )
  const echoed = rows[0]?.platform_message_id
  if (echoed) await finish(db, messageId, 'sent', { mid: echoed })
  else await finish(db, messageId, 'uncertain', { error: UNCONFIRMED(error) })
}

/** Longer than any Send API call may take (its timeout is 20 s): a `sending` answer this old was left by a runner that stopped. */
const STALE_SENDING_MS = 5 * 60_000

export const RUNNER_STOPPED =
  'The runner stopped while sending it; it may have gone out, so it is not sent again. Check the conversation in Instagram.'

/** Answers a stopped runner left `sending`: sent if their echo came, else uncertain (never sent again). */
export async function settleStaleAnswers(db: Db, accountId: string): Promise<number> {
  const { rows } = await db.query<{ id: string; platform_message_id: string | null }>(
    `select id, platform_message_id from public.inbox_messages
      where account_id = $1 and status = 'sending' and origin = 'reachflow'
        and sent_at <= internal.now() - make_interval(secs => $2::float8 / 1000)`,
    [accountId, STALE_SENDING_MS],
  )
  for (const row of rows)
    await finish(
      db,
      row.id,
      row.platform_message_id ? 'sent' : 'uncertain',
      row.platform_message_id ? { mid: row.platform_message_id } : { error: RUNNER_STOPPED },
    )
  return rows.length
}
