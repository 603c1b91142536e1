// An official Instagram account's sends through the one send engine (sending/engine.ts), with
// Instagram's Send API as the channel. Such an account has no warm-up, trust or circuit breaker, so
// no outcome changes its trust or pauses it; and it holds no lease (no page drives it: the claim on
// the caller's own row keeps each message to one send). What a token Instagram no longer accepts
// does to the account is the caller's to say.
import type { Db } from '../db.ts'
import type { Logger } from '../log.ts'
import {
  type InstagramApi,
  type InstagramApiSend,
  type InstagramApiTarget,
  instagramApiChannel,
} from '../platforms/instagram-api/channel.ts'
import type { AccountConsequences, Answered, Sending, SendRecorder } from '../sending/engine.ts'

/** An answer of Instagram's that is not a message id. */
export type InstagramApiMiss = Answered<InstagramApiSend, 'uncertain'> | Answered<InstagramApiSend, 'failed'>

export interface OfficialSendDeps {
  db: Db
  log: Logger
  api: InstagramApi
  accessToken: string
  account: { id: string; username: string }
  /** What a token Instagram no longer accepts does to the account; answers its status, for the log. */
  tokenRefused?: (result: InstagramApiMiss) => Promise<string>
}

/**
 * Nothing a send answers touches an official account, unless its token was refused and the
 * caller says what that does.
 */
function officialAccount(
  tokenRefused: OfficialSendDeps['tokenRefused'],
): AccountConsequences<InstagramApiSend> {
  const nothing = () => Promise.resolve()
  return {
    delivered: nothing,
    unconfirmed: nothing,
    stop: (_signal, result) => tokenRefused?.(result) ?? Promise.resolve('left as it was'),
    breakerTripped: () => Promise.resolve(false),
  }
}

export function officialSending(deps: OfficialSendDeps): Sending<InstagramApiTarget, InstagramApiSend> {
  return {
    db: deps.db,
    log: deps.log,
    account: { ...deps.account, platform: 'instagram' },
    channel: instagramApiChannel(deps.api, deps.accessToken),
    consequences: officialAccount(deps.tokenRefused),
    mayStillSend: () => true,
  }
}

/**
 * The recorder's parts an Instagram API send never reaches: with no lease to lose and no page to
 * wait for or to change, nothing is deferred and no site changes.
 */
export const NO_PAGE: Pick<SendRecorder<InstagramApiSend>, 'deferred' | 'siteChanged'> = {
  deferred: (reason) => Promise.reject(new Error(`An Instagram API send is never deferred (${reason})`)),
  siteChanged: () => Promise.reject(new Error('An Instagram API send meets no page')),
}
