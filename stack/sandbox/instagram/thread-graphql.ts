// What the sandbox's thread page itself calls: POST /api/graphql, told apart by
// fb_api_req_friendly_name as instagram.com's web client does. Sending a text (with
// feedback_required / 429 / "can't receive" refusals and the send faults), the newest messages
// of a thread, and marking one seen. The adapter never calls these; it reads the page.
import type { ServerResponse } from 'node:http'
import { HttpError, type Request, type Router, sendJson, stringField } from '../social/http.ts'
import type { Messaging, SendRefusal } from '../social/messaging.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import { apiAccount, feedbackRequired, IG_MESSAGES, loginRequired, pleaseWait } from './accounts.ts'

const HANG_MS = 120_000

const cannotReceive = () =>
  new HttpError(400, IG_MESSAGES.cannotReceive, { message: IG_MESSAGES.cannotReceive, status: 'fail' })

const REFUSALS: Record<SendRefusal, () => HttpError> = {
  locked: loginRequired,
  expired: loginRequired,
  blocked: feedbackRequired,
  too_fast: feedbackRequired,
  same_text: feedbackRequired,
  daily_limit: pleaseWait,
  cannot_dm: cannotReceive,
  verified_only: cannotReceive,
}

function variablesOf(req: Request): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(stringField(req.body, 'variables') ?? '{}')
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>
  } catch {
    // answered below
  }
  throw new HttpError(400, 'variables must be a JSON object')
}

function ownThread(messaging: Messaging, account: OwnAccount, id: unknown): Thread {
  const thread = messaging.world.threads.get(String(id ?? ''))
  if (thread?.accountId !== account.id)
    throw new HttpError(404, 'Thread not found', { message: 'Thread not found', status: 'fail' })
  return thread
}

export function registerThreadGraphql(router: Router, messaging: Messaging): void {
  router.on('POST', '/api/graphql', (req, res) => {
    const account = apiAccount(messaging.world, req)
    const variables = variablesOf(req)
    const name = stringField(req.body, 'fb_api_req_friendly_name')
    if (name === 'IGDirectTextSendMutation') return sendText(messaging, account, variables, res)
    const thread = ownThread(messaging, account, variables.thread_id)
    if (name === 'IGDThreadMessagesQuery') {
      const last = Math.min(100, Number(variables.last) || 20)
      const messages = thread.messages.slice(-last).map((m) => ({
        id: m.id,
        text: m.text,
        mine: m.senderId === account.id,
        context: m.requestId ?? m.id,
      }))
      return sendJson(res, 200, { data: { messages }, status: 'ok' })
    }
    if (name === 'IGDMarkSeenMutation') {
      const item = thread.messages.find((m) => m.id === variables.message_id)
      if (!item) throw new HttpError(404, 'Item not found', { message: 'Item not found', status: 'fail' })
      thread.readAt = Math.max(thread.readAt, item.at)
      messaging.world.changed()
      return sendJson(res, 200, { data: { seen: true }, status: 'ok' })
    }
    throw new HttpError(400, 'Unknown query', { message: 'Unknown query', status: 'fail' })
  })
}

function sendText(
  messaging: Messaging,
  account: OwnAccount,
  variables: Record<string, unknown>,
  res: ServerResponse,
): void {
  const thread = ownThread(messaging, account, variables.thread_id)
  const text = typeof variables.text === 'string' ? variables.text : ''
  const context = String(variables.offline_threading_id ?? '')
  if (!/^\d{6,40}$/.test(context)) throw new HttpError(400, 'Bad offline_threading_id')
  const fault = messaging.takeFault(account, 'send')
  if (fault?.mode === 'error')
    throw fault.code === 429 || fault.code === 88 ? pleaseWait() : feedbackRequired()
  if (fault?.mode === 'delayed') {
    setTimeout(() => {
      if (!messaging.checkSend(account, thread.peerId, text))
        messaging.deliver(account, thread.peerId, text, context)
    }, fault.delayMs ?? 6_000).unref()
  }
  if (fault?.mode === 'dropped' || fault?.mode === 'hang' || fault?.mode === 'delayed')
    return void setTimeout(() => res.destroy(), HANG_MS).unref()
  if (fault?.mode === 'http_500')
    throw new HttpError(500, 'Internal error', { message: 'Internal error', status: 'fail' })
  const refusal = messaging.checkSend(account, thread.peerId, text)
  if (refusal) throw REFUSALS[refusal]()
  const { message } = messaging.deliver(account, thread.peerId, text, context)
  if (fault?.mode === 'ack_lost') return void setTimeout(() => res.destroy(), HANG_MS).unref()
  if (fault?.mode === 'error_after_delivery')
    throw new HttpError(500, 'Internal error', { message: 'Internal error', status: 'fail' })
  sendJson(res, 200, {
    data: { message_id: message.id, thread_id: thread.id, timestamp: String(message.at * 1000) },
    status: 'ok',
  })
}
