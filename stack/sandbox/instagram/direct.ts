// Instagram Direct: the home page, /direct/inbox/, /direct/requests/, /direct/new/ and
// /direct/t/<id>/ pages, and the direct_v2 JSON (inbox, pending inbox, thread) only when switched
// on (behaviour webDirectJson 1): nothing public says the 2026 web still gets it, so by default it
// answers as an unknown endpoint; the pages themselves never need it (thread-graphql.ts).
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
import type { Messaging } from '../social/messaging.ts'
import type { Profile } from '../social/population.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import { apiAccount, sessionAccount } from './accounts.ts'
import { NEW_MESSAGE_JS } from './client.ts'
import { igNav, igPage, sendIgPage } from './layout.ts'
import { registerThreadGraphql } from './thread-graphql.ts'
import { threadPage } from './thread-page.ts'

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

/**
 * The signed-in API account, or a 404 as for an unknown endpoint when the direct_v2 JSON does not
 * answer the web page for it (behaviour webDirectJson 0).
 */
function directJsonAccount(messaging: Messaging, req: Request): OwnAccount {
  const account = apiAccount(messaging.world, req)
  if (!messaging.world.behaviourOf(account).webDirectJson)
    throw new HttpError(404, 'Not found', { error: 'Not found' })
  return account
}

/** Page helper: the signed-in account, or a redirect to the login page. */
function pageAccount(messaging: Messaging, req: Request, res: ServerResponse): OwnAccount | undefined {
  const account = sessionAccount(messaging.world, req)
  if (account?.state === 'active') return account
  if (account?.state === 'locked') redirect(res, `/challenge/${account.id}/locked/`)
  else redirect(res, `/accounts/login/?next=${encodeURIComponent(req.url.pathname)}`)
  return undefined
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
    // newest first, as the inbox lists them
    const all = world
      .threadsOf(account.id)
      .filter((t) => t.messages.length > 0)
      .sort((a, b) => (b.messages.at(-1)?.at ?? 0) - (a.messages.at(-1)?.at ?? 0))
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
<h2>New message</h2><label>To: <input type="text" aria-label="Search" placeholder="Search..." autocomplete="off" spellcheck="false"></label>
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
    const page = threadPage(messaging, account, thread)
    sendIgPage(
      req,
      res,
      200,
      igPage('Direct • Instagram', `${igNav(account)}${page.body}`, page.data, page.script),
    )
  })

  router.on('GET', '/api/v1/direct_v2/inbox/', (req, res) => {
    const account = directJsonAccount(messaging, req)
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
    const account = directJsonAccount(messaging, req)
    const threads = world.threadsOf(account.id).filter((t) => t.messages.length > 0 && isRequest(account, t))
    sendJson(res, 200, {
      inbox: { threads: threads.map((t) => threadJson(messaging, account, t, 10)), has_older: false },
      status: 'ok',
    })
  })

  router.on('GET', '/api/v1/direct_v2/threads/:id/', (req, res) => {
    const account = directJsonAccount(messaging, req)
    const thread = world.threads.get(req.params.id ?? '')
    if (thread?.accountId !== account.id)
      throw new HttpError(404, 'Thread not found', { message: 'Thread not found', status: 'fail' })
    const limit = Math.min(100, Number(req.url.searchParams.get('limit') ?? 20) || 20)
    sendJson(res, 200, { thread: threadJson(messaging, account, thread, limit), status: 'ok' })
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

  registerThreadGraphql(router, messaging)
}
