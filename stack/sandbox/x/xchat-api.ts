// X Chat's endpoints: the passcode check that hands the page its (wrapped) chat key, the key for
// accounts without a passcode, and the inbox, a conversation and sending, whose payloads are all
// encrypted with that key. Sending keeps every refusal and fault: X's stop-signal codes, ack_lost,
// dropped, delayed, error_after_delivery, http_500 and hang.
import type { ServerResponse } from 'node:http'
import { HttpError, type Request, type Router, sendJson, stringField } from '../social/http.ts'
import type { Messaging, SendRefusal } from '../social/messaging.ts'
import type { Message, OwnAccount, Thread } from '../social/state.ts'
import { apiAccount, conversationId, X_ERRORS, type XErrorCode } from './accounts.ts'
import { isRequest, ownThread, peerIdOf } from './api.ts'
import { open, seal, wrappedChatKey } from './xchat-crypto.ts'

/** How many wrong passcodes lock X Chat. */
export const MAX_PASSCODE_TRIES = 5
const HANG_MS = 120_000

const REFUSAL_CODES: Record<SendRefusal, XErrorCode> = {
  locked: 326,
  expired: 32,
  blocked: 226,
  too_fast: 226,
  same_text: 226,
  daily_limit: 88,
  cannot_dm: 349,
  verified_only: 476,
}

function sendSealed(res: ServerResponse, status: number, account: OwnAccount, payload: unknown): void {
  sendJson(res, status, seal(account, payload))
}

function sealedError(res: ServerResponse, account: OwnAccount, code: XErrorCode): void {
  const { status, message } = X_ERRORS[code]
  sendSealed(res, status, account, { errors: [{ code, message }] })
}

export function registerXChatApi(router: Router, messaging: Messaging): void {
  const world = messaging.world

  router.on('POST', '/i/api/1.1/xchat/pin/verify.json', (req, res) => {
    const account = apiAccount(world, req)
    if (account.chatLocked)
      return sendJson(res, 423, {
        errors: [{ code: 'xchat_locked', message: 'Too many incorrect attempts.' }],
      })
    const pin = stringField(req.body, 'pin') ?? ''
    if (account.passcode === undefined || pin === account.passcode) {
      account.passcodeFailures = 0
      const wrapped = wrappedChatKey(account, account.passcode === undefined ? '' : pin)
      world.changed()
      return sendJson(res, 200, { wrapped_key: wrapped })
    }
    account.passcodeFailures++
    if (account.passcodeFailures >= MAX_PASSCODE_TRIES) account.chatLocked = true
    world.changed()
    sendJson(res, account.chatLocked ? 423 : 400, {
      errors: [
        { code: account.chatLocked ? 'xchat_locked' : 'incorrect_pin', message: 'Incorrect passcode' },
      ],
      attempts_left: Math.max(0, MAX_PASSCODE_TRIES - account.passcodeFailures),
    })
  })

  // a device that never set a passcode holds its keys already: no passcode step
  router.on('GET', '/i/api/1.1/xchat/keys.json', (req, res) => {
    const account = apiAccount(world, req)
    if (account.passcode !== undefined || account.chatLocked)
      return sendJson(res, 403, { errors: [{ code: 'passcode_required', message: 'Enter your passcode.' }] })
    const wrapped = wrappedChatKey(account, '')
    world.changed()
    sendJson(res, 200, { wrapped_key: wrapped })
  })

  router.on('GET', '/i/api/1.1/xchat/inbox.json', (req, res) => {
    const account = apiAccount(world, req)
    const folder = req.url.searchParams.get('folder') === 'requests' ? 'requests' : 'primary'
    const threads = world
      .threadsOf(account.id)
      .filter((t) => t.messages.length > 0)
      .sort((a, b) => (b.messages.at(-1)?.at ?? 0) - (a.messages.at(-1)?.at ?? 0))
    const requests = threads.filter((t) => isRequest(account, t))
    const shown = folder === 'requests' ? requests : threads.filter((t) => !isRequest(account, t))
    sendSealed(res, 200, account, {
      conversations: shown.map((t) =>
        conversationJson(messaging, t, world.behaviourOf(account).inboxRowTimes > 0),
      ),
      requests: requests.length,
      now: world.now(),
    })
  })

  router.on('GET', '/i/api/1.1/xchat/conversation/:file', (req, res) => {
    const account = apiAccount(world, req)
    const id = (req.params.file ?? '').replace(/\.json$/, '')
    const peerId = peerIdOf(account, id)
    const peer = peerId ? messaging.person(peerId) : undefined
    if (!peerId || !peer || conversationId(account.id, peerId) !== id)
      return sendSealed(res, 404, account, { errors: [{ code: 34, message: 'Conversation not found.' }] })
    const thread = ownThread(messaging, account, id)
    if (thread) {
      // an open conversation reads what arrives in it
      thread.readAt = world.now()
      world.changed()
    }
    sendSealed(res, 200, account, {
      conversation_id: id,
      peer: { id_str: peer.id, screen_name: peer.username, name: peer.name },
      closed_inbox: messaging.closedTo(account, peerId),
      now: world.now(),
      messages: thread ? thread.messages.map(messageJson) : [],
    })
  })

  router.on('POST', '/i/api/1.1/xchat/send.json', (req, res) => sendDm(messaging, req, res))
}

/** An inbox row as the page gets it; without `rowTimes` its last message has no time to label. */
function conversationJson(messaging: Messaging, thread: Thread, rowTimes: boolean) {
  const peer = messaging.person(thread.peerId)
  const last = thread.messages.at(-1)
  return {
    id: thread.id,
    peer: { id_str: thread.peerId, screen_name: peer?.username ?? '', name: peer?.name ?? '' },
    last: last ? { text: last.text, sender_id: last.senderId, time: rowTimes ? last.at : null } : null,
    unread: messaging.unread(thread) > 0,
  }
}

/** A message as the page gets it: no delivery state (nothing public says X Chat has one). */
function messageJson(message: Message) {
  return {
    id: message.id,
    sender_id: message.senderId,
    text: message.text,
    time: message.at,
  }
}

function hang(res: ServerResponse): void {
  setTimeout(() => res.destroy(), HANG_MS).unref()
}

function sendDm(messaging: Messaging, req: Request, res: ServerResponse): void {
  const account = apiAccount(messaging.world, req)
  const body = open(account, req.body)
  const conversation = stringField(body, 'conversation_id') ?? ''
  const text = stringField(body, 'text') ?? ''
  const requestId = stringField(body, 'request_id', false)
  if (text.length > 10_000) throw new HttpError(400, 'Message too long')
  if (requestId !== undefined && !/^[0-9a-f-]{36}$/i.test(requestId))
    throw new HttpError(400, 'Bad request_id')
  const peerId = peerIdOf(account, conversation)
  if (!peerId || !messaging.person(peerId) || conversationId(account.id, peerId) !== conversation) {
    sendSealed(res, 404, account, { errors: [{ code: 34, message: 'Conversation not found.' }] })
    return
  }

  const fault = messaging.takeFault(account, 'send')
  if (fault?.mode === 'error') {
    sealedError(res, account, (fault.code === 429 ? 88 : (fault.code ?? 226)) as XErrorCode)
    return
  }
  if (fault?.mode === 'delayed') {
    setTimeout(() => {
      if (!messaging.checkSend(account, peerId, text))
        messaging.deliver(account, peerId, text, requestId ?? undefined)
    }, fault.delayMs ?? 6_000).unref()
    hang(res)
    return
  }
  if (fault?.mode === 'dropped' || fault?.mode === 'hang') {
    hang(res)
    return
  }
  if (fault?.mode === 'http_500')
    throw new HttpError(500, 'Internal error', { errors: [{ code: 131, message: 'Internal error' }] })

  const refusal = messaging.checkSend(account, peerId, text)
  if (refusal) {
    sealedError(res, account, REFUSAL_CODES[refusal])
    return
  }
  const { thread, message } = messaging.deliver(account, peerId, text, requestId ?? undefined)
  if (fault?.mode === 'ack_lost') {
    hang(res)
    return
  }
  if (fault?.mode === 'error_after_delivery')
    throw new HttpError(500, 'Internal error', { errors: [{ code: 131, message: 'Internal error' }] })
  sendSealed(res, 200, account, {
    event: { ...messageJson(message), conversation_id: thread.id },
  })
}
