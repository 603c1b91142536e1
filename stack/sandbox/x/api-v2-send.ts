// POST /2/dm_conversations/with/:participant_id/messages on the shared world: the same refusals as
// the web path (the recipient's DM settings, the daily ceiling, automation blocks, a locked
// account) and the same send faults, answered in X API v2's problem-details shapes.
import type { ServerResponse } from 'node:http'
import type { Request } from '../social/http.ts'
import type { SendRefusal } from '../social/messaging.ts'
import type { Fault } from '../social/state.ts'
import { X_ERRORS } from './accounts.ts'
import { caller, eventIdOf, SCOPES, send, type XApiContext } from './api-v2-auth.ts'
import { invalidRequest, problem } from './api-v2-limits.ts'

const HANG_MS = 120_000

/** What X answers when a DM is refused (HTTP 403 unless said), by the world's reason. */
export const DM_REFUSALS: Record<SendRefusal, { status: number; detail: string }> = {
  cannot_dm: { status: 403, detail: X_ERRORS[349].message },
  verified_only: { status: 403, detail: X_ERRORS[476].message },
  blocked: { status: 403, detail: X_ERRORS[226].message },
  too_fast: { status: 403, detail: X_ERRORS[226].message },
  same_text: { status: 403, detail: X_ERRORS[226].message },
  locked: { status: 403, detail: X_ERRORS[326].message },
  expired: { status: 401, detail: 'Unauthorized' },
  daily_limit: { status: 429, detail: 'Too Many Requests' },
}
const CODE_REFUSALS: Record<number, SendRefusal> = {
  349: 'cannot_dm',
  476: 'verified_only',
  226: 'blocked',
  326: 'locked',
  32: 'expired',
  88: 'daily_limit',
  429: 'daily_limit',
}

function refuse(res: ServerResponse, refusal: SendRefusal, headers: Record<string, string>): void {
  const { status, detail } = DM_REFUSALS[refusal]
  const title = status === 429 ? 'Too Many Requests' : status === 401 ? 'Unauthorized' : 'Forbidden'
  problem(res, status, title, detail, headers)
}

export function sendDm(ctx: XApiContext, req: Request, res: ServerResponse) {
  const { messaging } = ctx
  const who = caller(ctx, req, res, 'dm_send', SCOPES.dmWrite)
  if (!who) return
  const { account, headers } = who
  const peerId = req.params.participant_id ?? ''
  const text = req.body.text
  if (!(req.headers['content-type'] ?? '').includes('application/json'))
    return problem(
      res,
      400,
      'Invalid Request',
      'One or more parameters to your request was invalid.',
      headers,
      'https://api.twitter.com/2/problems/invalid-request',
    )
  if (typeof text !== 'string' || text.trim() === '' || text.length > 10_000)
    return invalidRequest(res, 'text', 'text must be between 1 and 10000 characters', String(text ?? ''))
  const peer = /^\d{1,19}$/.test(peerId) && peerId !== account.id ? messaging.person(peerId) : undefined
  if (!peer)
    return invalidRequest(
      res,
      'participant_id',
      `participant_id [${peerId}] is not a user you can message`,
      peerId,
    )

  const fault: Fault | undefined = messaging.takeFault(account, 'send')
  if (fault?.mode === 'error') return refuse(res, CODE_REFUSALS[fault.code ?? 226] ?? 'blocked', headers)
  if (fault?.mode === 'http_500')
    return problem(res, 503, 'Service Unavailable', 'Service Unavailable', headers)
  if (fault?.mode === 'dropped' || fault?.mode === 'hang' || fault?.mode === 'delayed') {
    if (fault.mode === 'delayed')
      setTimeout(() => {
        if (!messaging.checkSend(account, peerId, text)) messaging.deliver(account, peerId, text)
      }, fault.delayMs ?? 6_000).unref()
    setTimeout(() => res.destroy(), HANG_MS).unref()
    return
  }
  const refusal = messaging.checkSend(account, peerId, text)
  if (refusal) return refuse(res, refusal, headers)
  const { thread, message } = messaging.deliver(account, peerId, text)
  if (fault?.mode === 'ack_lost') {
    setTimeout(() => res.destroy(), HANG_MS).unref()
    return
  }
  if (fault?.mode === 'error_after_delivery')
    return problem(res, 503, 'Service Unavailable', 'Service Unavailable', headers)
  send(res, 201, { data: { dm_conversation_id: thread.id, dm_event_id: eventIdOf(message) } }, headers)
}
