// X's internal REST endpoints the web app uses: verify_credentials, the X Chat passcode check,
// sending a DM (with the stop-signal errors and send faults), a conversation's messages,
// the legacy inbox state and the people typeahead of "new chat".
import type { ServerResponse } from 'node:http'
import { HttpError, type Request, type Router, sendJson, stringField } from '../social/http.ts'
import type { Messaging, SendRefusal } from '../social/messaging.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import { apiAccount, conversationId, type XErrorCode, xError } from './accounts.ts'
import { handleGraphql, userResult } from './graphql.ts'

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

export function registerXApi(router: Router, messaging: Messaging): void {
  const world = messaging.world

  router.on('GET', '/i/api/1.1/account/verify_credentials.json', (req, res) => {
    const account = apiAccount(world, req)
    const legacy = userResult(account).legacy as Record<string, unknown>
    sendJson(res, 200, { id: Number(account.id), id_str: account.id, ...legacy })
  })

  router.on('POST', '/i/api/1.1/xchat/pin/verify.json', (req, res) => {
    const account = apiAccount(world, req)
    if (account.chatLocked)
      return sendJson(res, 423, {
        errors: [{ code: 'xchat_locked', message: 'Too many incorrect attempts.' }],
      })
    const pin = stringField(req.body, 'pin') ?? ''
    if (account.passcode === undefined || pin === account.passcode) {
      account.passcodeFailures = 0
      world.changed()
      return sendJson(res, 200, { ok: true, identity: `${account.id}:${Date.now().toString(36)}` })
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

  router.on('POST', '/i/api/1.1/dm/new2.json', (req, res) => sendDm(messaging, req, res))

  router.on('GET', '/i/api/1.1/dm/conversation/:file', (req, res) => {
    const account = apiAccount(world, req)
    const id = (req.params.file ?? '').replace(/\.json$/, '')
    const thread = ownThread(messaging, account, id)
    if (thread) thread.readAt = world.now()
    sendJson(res, 200, {
      conversation_id: id,
      messages: thread ? thread.messages.map((m) => messageJson(messaging, thread, m.id)) : [],
    })
  })

  router.on('GET', '/i/api/1.1/dm/inbox_initial_state.json', (req, res) => {
    const account = apiAccount(world, req)
    const threads = world.threadsOf(account.id).filter((t) => t.messages.length > 0)
    const entries = threads.flatMap((t) =>
      t.messages.map((m) => ({
        message: {
          id: m.id,
          time: String(m.at),
          conversation_id: t.id,
          message_data: { id: m.id, time: String(m.at), sender_id: m.senderId, text: m.text },
        },
      })),
    )
    const users = Object.fromEntries(
      threads.map((t) => {
        const peer = messaging.person(t.peerId)
        return [t.peerId, { id_str: t.peerId, screen_name: peer?.username, name: peer?.name }]
      }),
    )
    const conversations = Object.fromEntries(
      threads.map((t) => [
        t.id,
        {
          conversation_id: t.id,
          type: 'ONE_TO_ONE',
          trusted: !isRequest(account, t),
          last_read_event_id: t.messages.filter((m) => m.at <= t.readAt).at(-1)?.id ?? null,
        },
      ]),
    )
    sendJson(res, 200, { inbox_initial_state: { entries, users, conversations } })
  })

  router.on('GET', '/i/api/1.1/search/typeahead.json', (req, res) => {
    apiAccount(world, req)
    const q = (req.url.searchParams.get('q') ?? '').replace(/^@/, '').toLowerCase()
    const users = q
      ? messaging.population.profiles.filter((p) => p.username.toLowerCase().startsWith(q)).slice(0, 8)
      : []
    sendJson(res, 200, { users: users.map((u) => ({ id_str: u.id, screen_name: u.username, name: u.name })) })
  })

  router.on('GET', '/i/api/graphql/:queryId/:operation', (req, res) => handleGraphql(messaging, req, res))
}

/** A thread is a message request while only the peer has written. */
export function isRequest(account: OwnAccount, thread: Thread): boolean {
  return thread.startedByPeer && !thread.messages.some((m) => m.senderId === account.id)
}

/** The thread behind a conversation id, if the account is part of it. */
export function ownThread(messaging: Messaging, account: OwnAccount, id: string): Thread | undefined {
  const thread = messaging.world.threads.get(id)
  return thread?.accountId === account.id ? thread : undefined
}

export function messageJson(messaging: Messaging, thread: Thread, id: string) {
  const message = thread.messages.find((m) => m.id === id)
  if (!message) throw new HttpError(404, 'No such message')
  return {
    id: message.id,
    sender_id: message.senderId,
    text: message.text,
    time: message.at,
    status: messaging.statusOf(thread, message),
  }
}

/** The peer of a one-to-one conversation id, which must include the sender's own id. */
export function peerIdOf(account: OwnAccount, conversation: string): string | undefined {
  const parts = conversation.split('-')
  if (parts.length !== 2 || !parts.every((p) => /^\d+$/.test(p))) return undefined
  if (parts[0] === account.id) return parts[1]
  if (parts[1] === account.id) return parts[0]
  return undefined
}

function hang(res: ServerResponse): void {
  setTimeout(() => res.destroy(), HANG_MS).unref()
}

function sendDm(messaging: Messaging, req: Request, res: ServerResponse): void {
  const account = apiAccount(messaging.world, req)
  const conversation = stringField(req.body, 'conversation_id') ?? ''
  const text = stringField(req.body, 'text') ?? ''
  const requestId = stringField(req.body, 'request_id', false)
  if (text.length > 10_000) throw new HttpError(400, 'Message too long')
  if (requestId !== undefined && !/^[0-9a-f-]{36}$/i.test(requestId))
    throw new HttpError(400, 'Bad request_id')
  const peerId = peerIdOf(account, conversation)
  if (!peerId || !messaging.person(peerId) || conversationId(account.id, peerId) !== conversation)
    throw new HttpError(404, 'Conversation not found')

  const fault = messaging.takeFault(account, 'send')
  if (fault?.mode === 'error') throw xError((fault.code === 429 ? 88 : (fault.code ?? 226)) as XErrorCode)
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
  if (refusal) throw xError(REFUSAL_CODES[refusal])
  const { thread, message } = messaging.deliver(account, peerId, text, requestId ?? undefined)
  if (fault?.mode === 'ack_lost') {
    hang(res)
    return
  }
  if (fault?.mode === 'error_after_delivery')
    throw new HttpError(500, 'Internal error', { errors: [{ code: 131, message: 'Internal error' }] })
  sendJson(res, 200, { event: { ...messageJson(messaging, thread, message.id), conversation_id: thread.id } })
}
