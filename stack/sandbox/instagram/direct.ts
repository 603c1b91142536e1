// Instagram Direct: the home page, /direct/inbox/, /direct/requests/, /direct/new/ and
// /direct/t/<id>/ pages, and the direct_v2 JSON the web app uses (inbox, pending inbox, thread,
// broadcast text with feedback_required / 429 / "can't receive" refusals and send faults).
import type { ServerResponse } from 'node:http'
import {
  escapeHtml as e,
  HttpError,
  type Request,
  type Router,
  redirect,
  sendJson,
  stringField,
} from '../social/http.ts'
import type { Messaging, SendRefusal } from '../social/messaging.ts'
import type { Profile } from '../social/population.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import {
  apiAccount,
  feedbackRequired,
  IG_MESSAGES,
  loginRequired,
  pleaseWait,
  sessionAccount,
} from './accounts.ts'
import { NEW_MESSAGE_JS, THREAD_JS } from './client.ts'
import { igNav, igPage, sendIgPage } from './layout.ts'

const HANG_MS = 120_000

export function igUser(person: Profile | OwnAccount) {
  const verified = 'followers' in person ? person.verified || person.blueVerified : false
  return {
    pk: person.id,
    pk_id: person.id,
    id: person.id,
    username: person.username,
    full_name: person.name,
    is_private: 'followers' in person ? person.protected : false,
    is_verified: verified,
    profile_pic_url: '/__sandbox/avatar.svg',
  }
}

/** A thread is a request while only the peer has written. */
function isRequest(account: OwnAccount, thread: Thread): boolean {
  return thread.startedByPeer && !thread.messages.some((m) => m.senderId === account.id)
}

function threadJson(messaging: Messaging, account: OwnAccount, thread: Thread, limit = 20) {
  const peer = messaging.person(thread.peerId)
  const items = thread.messages
    .slice(-limit)
    .reverse()
    .map((m) => ({
      item_id: m.id,
      user_id: m.senderId,
      timestamp: String(m.at * 1000),
      item_type: 'text',
      text: m.text,
      client_context: m.requestId ?? m.id,
      is_sent_by_viewer: m.senderId === account.id,
    }))
  return {
    thread_id: thread.id,
    thread_v2_id: `17${thread.id.slice(-15)}`,
    thread_type: 'private',
    pending: isRequest(account, thread),
    users: peer ? [igUser(peer)] : [],
    viewer_id: account.id,
    items,
    last_activity_at: String((thread.messages.at(-1)?.at ?? 0) * 1000),
    read_state: messaging.unread(thread) > 0 ? 1 : 0,
    last_seen_at: { [account.id]: { timestamp: String(thread.readAt * 1000) } },
  }
}

/** Page helper: the signed-in account, or a redirect to the login page. */
function pageAccount(messaging: Messaging, req: Request, res: ServerResponse): OwnAccount | undefined {
  const account = sessionAccount(messaging.world, req)
  if (account?.state === 'active') return account
  if (account?.state === 'locked') redirect(res, `/challenge/${account.id}/locked/`)
  else redirect(res, `/accounts/login/?next=${encodeURIComponent(req.url.pathname)}`)
  return undefined
}

const REFUSALS: Record<SendRefusal, () => HttpError> = {
  locked: loginRequired,
  expired: loginRequired,
  blocked: feedbackRequired,
  too_fast: feedbackRequired,
  same_text: feedbackRequired,
  daily_limit: pleaseWait,
  cannot_dm: () =>
    new HttpError(400, IG_MESSAGES.cannotReceive, { message: IG_MESSAGES.cannotReceive, status: 'fail' }),
  verified_only: () =>
    new HttpError(400, IG_MESSAGES.cannotReceive, { message: IG_MESSAGES.cannotReceive, status: 'fail' }),
}

export function registerIgDirect(router: Router, messaging: Messaging): void {
  const world = messaging.world
  const threadRows = (account: OwnAccount, threads: Thread[]) =>
    threads
      .map((t) => {
        const peer = messaging.person(t.peerId)
        const last = t.messages.at(-1)
        const unread = messaging.unread(t) > 0 ? '<span aria-label="Unread"></span>' : ''
        return `<div role="listitem"><a href="/direct/t/${e(t.id)}/" role="link"><span>${e(peer?.username ?? '')}</span>
<span>${e(last ? `${last.senderId === account.id ? 'You: ' : ''}${last.text}` : '')}</span>${unread}</a></div>`
      })
      .join('')

  router.on('GET', '/', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const body = `${igNav(account)}<main><h1>Home</h1><p>Welcome back, ${e(account.username)}.</p></main>`
    sendIgPage(req, res, 200, igPage('Instagram', body))
  })

  router.on('GET', '/direct/inbox/', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const all = world.threadsOf(account.id).filter((t) => t.messages.length > 0)
    const requests = all.filter((t) => isRequest(account, t)).length
    const body = `${igNav(account)}<main><h1>${e(account.username)}</h1><a href="/direct/new/" aria-label="New message">New message</a>
<a href="/direct/requests/">Requests (${requests})</a><div role="list" aria-label="Thread list">${threadRows(
      account,
      all.filter((t) => !isRequest(account, t)),
    )}</div></main>`
    sendIgPage(req, res, 200, igPage('Inbox • Direct', body))
  })

  router.on('GET', '/direct/requests/', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const requests = world.threadsOf(account.id).filter((t) => t.messages.length > 0 && isRequest(account, t))
    const body = `${igNav(account)}<main><h1>Message requests</h1><div role="list">${threadRows(account, requests)}</div></main>`
    sendIgPage(req, res, 200, igPage('Requests • Direct', body))
  })

  router.on('GET', '/direct/new/', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const body = `${igNav(account)}<div class="overlay"><div class="dialog" role="dialog" aria-label="New message">
<h2>New message</h2><label>To: <input name="queryBox" placeholder="Search..." autocomplete="off"></label>
<div id="search-results"></div><div role="button" id="chat-button" aria-disabled="true" tabindex="0">Chat</div></div></div>`
    sendIgPage(req, res, 200, igPage('New message • Direct', body, {}, NEW_MESSAGE_JS))
  })

  router.on('GET', '/direct/t/:id/', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const thread = world.threads.get(req.params.id ?? '')
    if (thread?.accountId !== account.id) {
      const body = `${igNav(account)}<main><h2>Sorry, this page isn't available.</h2></main>`
      return sendIgPage(req, res, 404, igPage('Page not found • Instagram', body))
    }
    thread.readAt = world.now()
    world.changed()
    const peer = messaging.person(thread.peerId)
    const rows = thread.messages
      .map(
        (m) =>
          `<div role="row" data-item-id="${e(m.id)}"><div class="bubble ${m.senderId === account.id ? 'mine' : 'theirs'}" dir="auto">${e(m.text)}</div></div>`,
      )
      .join('')
    const body = `${igNav(account)}<main><header><a href="/${e(peer?.username ?? '')}/">${e(peer?.username ?? '')}</a></header>
<div role="grid" aria-label="Messages in conversation with ${e(peer?.username ?? '')}">${rows}</div>
<div role="textbox" contenteditable="true" aria-label="Message" aria-describedby="Message" spellcheck="true" style="border:1px solid #dbdbdb;border-radius:22px;padding:10px;min-height:20px"></div>
<div role="button" tabindex="0" id="send-button">Send</div></main>`
    sendIgPage(req, res, 200, igPage('Direct • Instagram', body, { threadId: thread.id }, THREAD_JS))
  })

  router.on('GET', '/api/v1/direct_v2/inbox/', (req, res) => {
    const account = apiAccount(world, req)
    const threads = world
      .threadsOf(account.id)
      .filter((t) => t.messages.length > 0 && !isRequest(account, t))
      .sort((a, b) => (b.messages.at(-1)?.at ?? 0) - (a.messages.at(-1)?.at ?? 0))
    sendJson(res, 200, {
      viewer: igUser(account),
      inbox: {
        threads: threads.map((t) => threadJson(messaging, account, t, 10)),
        has_older: false,
        unseen_count: threads.filter((t) => messaging.unread(t) > 0).length,
      },
      pending_requests_total: world
        .threadsOf(account.id)
        .filter((t) => t.messages.length > 0 && isRequest(account, t)).length,
      status: 'ok',
    })
  })

  router.on('GET', '/api/v1/direct_v2/pending_inbox/', (req, res) => {
    const account = apiAccount(world, req)
    const threads = world.threadsOf(account.id).filter((t) => t.messages.length > 0 && isRequest(account, t))
    sendJson(res, 200, {
      inbox: { threads: threads.map((t) => threadJson(messaging, account, t, 10)), has_older: false },
      status: 'ok',
    })
  })

  router.on('GET', '/api/v1/direct_v2/threads/:id/', (req, res) => {
    const account = apiAccount(world, req)
    const thread = world.threads.get(req.params.id ?? '')
    if (thread?.accountId !== account.id)
      throw new HttpError(404, 'Thread not found', { message: 'Thread not found', status: 'fail' })
    const limit = Math.min(100, Number(req.url.searchParams.get('limit') ?? 20) || 20)
    sendJson(res, 200, { thread: threadJson(messaging, account, thread, limit), status: 'ok' })
  })

  // What the thread page posts for a message that arrived while it was open: seen up to that item.
  router.on('POST', '/api/v1/direct_v2/threads/:id/items/:item/seen/', (req, res) => {
    const account = apiAccount(world, req)
    const thread = world.threads.get(req.params.id ?? '')
    const item = thread?.messages.find((m) => m.id === req.params.item)
    if (thread?.accountId !== account.id || !item)
      throw new HttpError(404, 'Item not found', { message: 'Item not found', status: 'fail' })
    thread.readAt = Math.max(thread.readAt, item.at)
    world.changed()
    sendJson(res, 200, { action: 'item_ack', status_code: '200', status: 'ok' })
  })

  router.on('GET', '/api/v1/direct_v2/ranked_recipients/', (req, res) => {
    apiAccount(world, req)
    const query = (req.url.searchParams.get('query') ?? '').toLowerCase()
    const exact = messaging.population.byUsername(query)
    const users = query
      ? [
          ...(exact ? [exact] : []),
          ...messaging.population.profiles.filter(
            (p) => p !== exact && p.username.toLowerCase().startsWith(query),
          ),
        ].slice(0, 10)
      : []
    sendJson(res, 200, { ranked_recipients: users.map((u) => ({ user: igUser(u) })), status: 'ok' })
  })

  router.on('POST', '/api/v1/direct_v2/create_group_thread/', (req, res) => {
    const account = apiAccount(world, req)
    let recipients: unknown
    try {
      recipients = JSON.parse(stringField(req.body, 'recipient_users') ?? '[]')
    } catch {
      throw new HttpError(400, 'recipient_users must be a JSON list')
    }
    const peerId = Array.isArray(recipients) && recipients.length === 1 ? String(recipients[0]) : ''
    if (!messaging.person(peerId))
      throw new HttpError(400, 'Invalid recipient', { message: 'Invalid recipient', status: 'fail' })
    const thread = messaging.openThread(account, peerId)
    world.changed()
    sendJson(res, 200, { ...threadJson(messaging, account, thread), status: 'ok' })
  })

  router.on('POST', '/api/v1/direct_v2/threads/broadcast/text/', (req, res) => broadcast(messaging, req, res))
}

function broadcast(messaging: Messaging, req: Request, res: ServerResponse): void {
  const world = messaging.world
  const account = apiAccount(world, req)
  const text = stringField(req.body, 'text') ?? ''
  const context = stringField(req.body, 'client_context') ?? ''
  if (!/^\d{6,40}$/.test(context)) throw new HttpError(400, 'Bad client_context')
  let ids: unknown
  try {
    ids = JSON.parse(stringField(req.body, 'thread_ids') ?? '[]')
  } catch {
    throw new HttpError(400, 'thread_ids must be a JSON list')
  }
  const thread = Array.isArray(ids) && ids.length === 1 ? world.threads.get(String(ids[0])) : undefined
  if (thread?.accountId !== account.id)
    throw new HttpError(404, 'Thread not found', { message: 'Thread not found', status: 'fail' })
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
    action: 'item_ack',
    status_code: '200',
    payload: {
      client_context: context,
      item_id: message.id,
      thread_id: thread.id,
      timestamp: String(message.at * 1000),
    },
    status: 'ok',
  })
}
