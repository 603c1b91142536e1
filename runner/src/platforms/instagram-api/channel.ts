// The Instagram API channel: every message the runner sends with Instagram's Send API (an
// automation's DM, its follow-up, the inbox's answers) goes out here, through the send engine
// (official/instagram-sending.ts), and Meta's answers become the engine's results
// (platforms/types.ts), as the X API session does for X. The at-most-once rule lives here once:
// Instagram's message id is `sent`; no answer at all, or a 5xx, is `uncertain` (it may have gone
// out, so no caller sends it again); any other error is `failed` with nothing sent, a refusal of
// this person, or a token only connecting again can mend.
import { MetaApiError, type Recipient, sendMessage } from '@reachflow/instagram-api'
import { decryptSecret, type Keyring } from '../../crypto.ts'
import { CredentialsError } from '../../sessions/credentials.ts'
import { type SendResult, stopSignal } from '../types.ts'

export interface InstagramApi {
  graphUrl: string
  fetch: typeof fetch
}

/** A send Instagram did not confirm, with Meta's error for the caller's wording. */
export type InstagramApiSend =
  | Extract<SendResult, { status: 'sent' }>
  | (Extract<SendResult, { status: 'uncertain' | 'failed' }> & { error: MetaApiError })

/** Whom to send to (a person by id, or a comment to answer privately), and Instagram's tag if any. */
export interface InstagramApiTarget {
  to: Recipient
  tag?: 'HUMAN_AGENT'
}

/** The access token sealed in an official Instagram account's credentials. */
export function officialAccessToken(ciphertext: string, keyring: Keyring): string {
  const sealed: unknown = JSON.parse(decryptSecret(ciphertext, keyring))
  const token = typeof sealed === 'object' && sealed !== null && 'accessToken' in sealed && sealed.accessToken
  if (typeof token !== 'string' || !token)
    throw new CredentialsError('The stored Instagram API access is incomplete.')
  return token
}

/** Meta's error code in words for a reason: ` (code 10/2534022)`, or nothing without one. */
export const metaErrorCode = (error: MetaApiError): string =>
  error.code ? ` (code ${error.code}${error.subcode ? `/${error.subcode}` : ''})` : ''

/** The Send API as the engine's channel, with one account's token. */
export function instagramApiChannel(api: InstagramApi, accessToken: string) {
  return {
    sendDm: (target: InstagramApiTarget, text: string) =>
      sendWithInstagramApi(api, accessToken, target, text),
  }
}

/** Sends one message; an error that is not Meta's (a bug, not an answer) is thrown as it is. */
async function sendWithInstagramApi(
  api: InstagramApi,
  accessToken: string,
  { to, tag }: InstagramApiTarget,
  text: string,
): Promise<InstagramApiSend> {
  const threadId = 'id' in to ? to.id : null
  try {
    const messageId = await sendMessage(api, accessToken, to, text, api.fetch, tag)
    return { status: 'sent', threadId: threadId ?? messageId, messageId, sentAt: new Date().toISOString() }
  } catch (error) {
    if (!(error instanceof MetaApiError)) throw error
    if (error.status === 0 || error.status >= 500)
      return { status: 'uncertain', threadId, reason: error.message, error }
    const code = String(error.code ?? error.status)
    const signal = error.tokenInvalid
      ? stopSignal('instagram', 'unauthenticated', code, error.message)
      : stopSignal('instagram', 'cannot_message', code, error.message)
    return { status: 'failed', threadId, reason: `${error.message}${metaErrorCode(error)}`, signal, error }
  }
}
