// The x.com pages the runner drives, server-rendered with the real URLs and data-testids:
// /home, /i/flow/login, /account/access, profiles with sendDMFromProfile, and X Chat
// (/i/chat inbox, /i/chat/requests, /i/chat/pin/recovery, /i/chat/<id> threads).
import type { ServerResponse } from 'node:http'
import { escapeHtml as e, type Request, type Router, redirect, sendHtml } from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import { conversationId, sessionOf, WEB_BEARER } from './accounts.ts'
import { isRequest, messageJson, ownThread, peerIdOf } from './api.ts'
import { COMMON_JS, INBOX_JS, KEY_CHECK_JS, PIN_JS, THREAD_JS } from './client.ts'

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;display:flex;color:#0f1419}
nav{width:220px;padding:12px;border-right:1px solid #eee;min-height:100vh;display:flex;flex-direction:column;gap:8px}
main{flex:1;max-width:640px;padding:12px}.msg{margin:6px 0;padding:8px 12px;border-radius:16px;max-width:70%}
.outgoing{background:#1d9bf0;color:#fff;margin-left:auto}.incoming{background:#eff3f4}
[data-testid="dm-message-list"]{display:flex;flex-direction:column;min-height:200px}
.toast{position:fixed;bottom:20px;left:50%;background:#1d9bf0;color:#fff;padding:10px}
.error{display:block;font-size:12px;color:#f4212e}.page-error{background:#fde;padding:8px}
[data-testid="pin-code-input-container"] input{width:2em;font-size:2em;text-align:center}`

const RESERVED = new Set([
  'home',
  'messages',
  'i',
  'account',
  'explore',
  'search',
  'notifications',
  'settings',
  'login',
])

interface PageOptions {
  title: string
  body: string
  data?: Record<string, unknown>
  scripts?: string[]
}

export function page({ title, body, data = {}, scripts = [] }: PageOptions): string {
  const json = JSON.stringify({ bearer: WEB_BEARER, ...data }).replace(/</g, '\\u003c')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(title)}</title>
<style>${STYLE}</style></head><body>${body}
<script id="__data" type="application/json">${json}</script>
<script>${COMMON_JS}${scripts.join('\n')}</script></body></html>`
}

function sideNav(account: OwnAccount): string {
  return `<nav aria-label="Primary">
<a href="/home" data-testid="AppTabBar_Home_Link">Home</a>
<a href="/explore" data-testid="AppTabBar_Explore_Link">Explore</a>
<a href="/messages" data-testid="AppTabBar_DirectMessage_Link">Chat</a>
<a href="/${e(account.username)}" data-testid="AppTabBar_Profile_Link">Profile</a>
<button data-testid="SideNav_AccountSwitcher_Button" aria-label="Account menu">
<span>${e(account.name)}</span> <span>@${e(account.username)}</span></button></nav>`
}

/** The signed-in account for a page, or a redirect as x.com does (login or account access). */
function pageAccount(messaging: Messaging, req: Request, res: ServerResponse): OwnAccount | undefined {
  const session = sessionOf(messaging.world, req)
  if (session.ok) return session.account
  if (session.reason === 'locked') redirect(res, '/account/access')
  else redirect(res, `/i/flow/login?redirect_after_login=${encodeURIComponent(req.url.pathname)}`)
  return undefined
}

function chatPage(
  account: OwnAccount,
  title: string,
  inner: string,
  data: Record<string, unknown>,
  script: string,
) {
  return page({
    title,
    body: `${sideNav(account)}<main id="root"></main><template id="app">${inner}</template>`,
    data: { viewerId: account.id, needsPin: account.passcode !== undefined, ...data },
    scripts: [script, KEY_CHECK_JS],
  })
}

export function registerXPages(router: Router, messaging: Messaging): void {
  const world = messaging.world
  const person = (id: string) => messaging.person(id)

  router.on('GET', '/', (req, res) => redirect(res, sessionOf(world, req).ok ? '/home' : '/i/flow/login'))

  router.on('GET', '/home', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const tweets = messaging.population.profiles
      .slice(0, 5)
      .map(
        (p) =>
          `<article data-testid="tweet"><b>${e(p.name)}</b> @${e(p.username)}<p>${e(p.bio)}</p></article>`,
      )
      .join('')
    sendHtml(
      res,
      200,
      page({
        title: 'Home / X',
        body: `${sideNav(account)}<main data-testid="primaryColumn">${tweets}</main>`,
      }),
    )
  })

  router.on('GET', '/i/flow/login', (_req, res) =>
    sendHtml(
      res,
      200,
      page({
        title: 'Log in to X / X',
        body: `<main><h1>Sign in to X</h1><label>Phone, email, or username
<input autocomplete="username" name="text"></label><button disabled>Next</button></main>`,
      }),
    ),
  )

  router.on('GET', '/account/access', (_req, res) =>
    sendHtml(
      res,
      200,
      page({
        title: 'Account locked / X',
        body: `<main><h1>Your account has been locked.</h1><p>We've temporarily limited some of your
account features. To unlock your account, verify your identity.</p><button>Start</button></main>`,
      }),
    ),
  )

  router.on('GET', '/messages', (req, res) => {
    if (pageAccount(messaging, req, res)) redirect(res, '/i/chat')
  })

  router.on('GET', '/i/chat/pin/recovery', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const inputs = [1, 2, 3, 4]
      .map(
        (n) =>
          `<input type="password" inputmode="numeric" maxlength="1" autocomplete="off" aria-label="Digit ${n}">`,
      )
      .join('')
    const form = account.chatLocked
      ? ''
      : `<div id="pin-form"><p>Enter your passcode to access your messages.</p>
<div data-testid="pin-code-input-container">${inputs}</div><a href="#">Forgot passcode?</a></div>`
    const lockText = account.chatLocked
      ? 'X Chat is locked after too many incorrect attempts. Try again later.'
      : ''
    sendHtml(
      res,
      200,
      page({
        title: 'Enter Passcode / X',
        body: `${sideNav(account)}<main><h1>Enter Passcode</h1>${form}<div role="alert" id="pin-error" data-testid="pin-code-error">${lockText}</div></main>`,
        data: { viewerId: account.id },
        scripts: account.chatLocked ? [] : [PIN_JS],
      }),
    )
  })

  router.on('GET', '/i/chat', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const threads = world.threadsOf(account.id).filter((t) => t.messages.length > 0 && !isRequest(account, t))
    const requests = world.threadsOf(account.id).filter((t) => t.messages.length > 0 && isRequest(account, t))
    const inner = `<h1>Chat</h1><button data-testid="dm-new-chat-button">New chat</button>
<a href="/i/chat/requests" data-testid="dm-inbox-requests-link">Message requests (${requests.length})</a>
<div data-testid="dm-inbox-list">${threads.map((t) => conversationRow(messaging, t, 'dm-conversation-item')).join('')}</div>
<div id="new-chat" role="dialog" aria-label="New chat" hidden><input data-testid="dm-new-chat-search-input" placeholder="Search people"><div id="new-chat-results"></div></div>`
    sendHtml(res, 200, chatPage(account, 'Chat / X', inner, {}, INBOX_JS))
  })

  router.on('GET', '/i/chat/requests', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const requests = world.threadsOf(account.id).filter((t) => t.messages.length > 0 && isRequest(account, t))
    const inner = `<h1>Message requests</h1><div data-testid="dm-requests-list">${requests
      .map((t) => conversationRow(messaging, t, 'dm-message-request-item'))
      .join('')}</div>`
    sendHtml(res, 200, chatPage(account, 'Message requests / X', inner, {}, ''))
  })

  router.on('GET', '/i/chat/:id', (req, res) => {
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const id = req.params.id ?? ''
    const peerId = peerIdOf(account, id)
    const peer = peerId ? person(peerId) : undefined
    if (!peerId || !peer || conversationId(account.id, peerId) !== id) {
      const inner = `<div data-testid="emptyState"><h1>This conversation doesn't exist</h1></div>`
      return sendHtml(res, 200, chatPage(account, 'Chat / X', inner, {}, ''))
    }
    const thread = ownThread(messaging, account, id)
    if (thread) {
      thread.readAt = world.now()
      world.changed()
    }
    const rows = thread
      ? thread.messages.map((m) => messageRow(messaging, thread, account, m.id)).join('')
      : ''
    const inner = `<header data-testid="dm-conversation-header"><b>${e(peer.name)}</b>
<span data-testid="dm-conversation-username">@${e(peer.username)}</span></header>
<div data-testid="dm-message-list" aria-live="polite">${rows}</div>
<form onsubmit="return false"><textarea data-testid="dm-composer-textarea" placeholder="Message" rows="2"></textarea>
<button type="button" data-testid="dm-composer-send-button" aria-label="Send">Send</button></form>`
    sendHtml(res, 200, chatPage(account, `${peer.name} / Chat / X`, inner, { conversationId: id }, THREAD_JS))
  })

  router.on('GET', '/:username', (req, res) => {
    const username = req.params.username ?? ''
    if (RESERVED.has(username))
      return sendHtml(res, 404, page({ title: 'X', body: '<h1>Page not found</h1>' }))
    const account = pageAccount(messaging, req, res)
    if (!account) return
    const profile = messaging.population.byUsername(username)
    const own = world.accountByUsername(username)
    const shown = profile ?? own
    if (!shown) {
      const body = `${sideNav(account)}<main><div data-testid="emptyState"><h1>This account doesn't exist</h1>
<p>Try searching for another.</p></div></main>`
      return sendHtml(res, 200, page({ title: 'Profile / X', body }))
    }
    const canMessage = shown.id !== account.id && (profile ? profile.canDm : true)
    const dmButton = canMessage
      ? `<button data-testid="sendDMFromProfile" aria-label="Message" onclick="location.assign('/i/chat/${conversationId(account.id, shown.id)}')">Message</button>`
      : ''
    const body = `${sideNav(account)}<main data-testid="primaryColumn"><div data-testid="UserName"><b>${e(shown.name)}</b>
<span>@${e(shown.username)}</span></div><div data-testid="UserDescription">${e(profile?.bio ?? '')}</div>
<a href="/${e(shown.username)}/followers">${profile?.followers ?? 0} Followers</a>${dmButton}</main>`
    sendHtml(res, 200, page({ title: `${shown.name} (@${shown.username}) / X`, body }))
  })
}

function conversationRow(messaging: Messaging, thread: Thread, testid: string): string {
  const peer = messaging.person(thread.peerId)
  const last = thread.messages.at(-1)
  const unread = messaging.unread(thread) > 0
  const preview = last ? `${last.senderId === thread.accountId ? 'You: ' : ''}${last.text}` : ''
  return `<a data-testid="${testid}-${e(thread.id)}" href="/i/chat/${e(thread.id)}" data-unread="${unread}">
<b>${e(peer?.name ?? '')}</b> <span data-testid="dm-conversation-username">@${e(peer?.username ?? '')}</span>
<span data-testid="dm-conversation-preview">${e(preview)}</span>${unread ? '<span data-testid="dm-conversation-unread" aria-label="Unread"></span>' : ''}
<time datetime="${new Date(last?.at ?? 0).toISOString()}"></time></a>`
}

function messageRow(messaging: Messaging, thread: Thread, account: OwnAccount, id: string): string {
  const m = messageJson(messaging, thread, id)
  const direction = m.sender_id === account.id ? 'outgoing' : 'incoming'
  return `<div data-dm-message-row="${e(m.id)}" data-send-status="${m.status}" data-message-direction="${direction}" class="msg ${direction}">
<span data-testid="dm-message-text">${e(m.text)}</span><time datetime="${new Date(m.time).toISOString()}"></time></div>`
}
