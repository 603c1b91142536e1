// X Chat's own bundle (served as /responsive-web/client-web/xchat.<build>.js with BUILD prepended:
// the site-change drill's renamed test ids). It mounts into open shadow roots under the main app's
// [data-testid="xchatEmbedRoute"] (overlays: dialogs, toasts under "xchatEmbedOverlays"), so
// document.querySelector from the page finds none of it. Payloads are end-to-end encrypted with a
// key the page obtains after the passcode; the composer behaves like a React-controlled textarea.
/* global BUILD */
const BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA'
const WRAP_ITERATIONS = 20000
const STATUS_LABEL = { sending: 'Sending', sent: 'Sent', delivered: 'Delivered', read: 'Seen' }
const STYLE = `:host{all:initial;display:block;font-family:system-ui,sans-serif;color:#0f1419}
.flex{display:flex;gap:6px;align-items:flex-end;margin:6px 0}.justify-end{justify-content:flex-end}
.justify-start{justify-content:flex-start}.bubble{padding:8px 12px;border-radius:16px;max-width:70%;white-space:pre-wrap}
.justify-end .bubble{background:#1d9bf0;color:#fff}.justify-start .bubble{background:#eff3f4}
.meta{font-size:12px;color:#536471}.error{color:#f4212e;font-size:12px}.row{display:block;padding:10px;border-bottom:1px solid #eff3f4;color:inherit;text-decoration:none}
[role=alert]{background:#fde;padding:8px}textarea{width:100%;font:inherit}.toast{position:fixed;bottom:20px;left:40%;background:#1d9bf0;color:#fff;padding:10px}
input{width:2em;font-size:2em;text-align:center}`

const STATE = JSON.parse(document.getElementById('__INITIAL_STATE__').textContent)
const viewerId = STATE.viewer.id
const T = (id) => BUILD.renames[id] ?? id
const host = document.querySelector(`[data-testid="${T('xchatEmbedRoute')}"]`)
const overlayHost = document.querySelector(`[data-testid="${T('xchatEmbedOverlays')}"]`)
const root = host.attachShadow({ mode: 'open' })
const overlays = overlayHost.attachShadow({ mode: 'open' })
const enc = new TextEncoder()

function h(tag, attrs, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value)
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child)
  return el
}

function mount(...children) {
  root.replaceChildren(h('style', {}, STYLE), ...children)
}
overlays.append(h('style', {}, STYLE))
mount(
  h('div', {
    'data-testid': T('dm-message-list-spinner-slot'),
    role: 'progressbar',
    'aria-label': 'Loading',
  }),
)

const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

function ct0() {
  return /(?:^|; )ct0=([^;]*)/.exec(document.cookie)?.[1] ?? ''
}

async function api(path, init = {}) {
  return fetch(path, {
    ...init,
    credentials: 'include',
    headers: {
      authorization: `Bearer ${BEARER}`,
      'x-csrf-token': ct0(),
      'x-twitter-auth-type': 'OAuth2Session',
      'x-twitter-active-user': 'yes',
      'content-type': 'application/json',
    },
  })
}

// Keys ----------------------------------------------------------------------------------------

const KEY_ITEM = `xchat:key:${viewerId}`
let chatKey

async function unwrap(wrapped, passcode) {
  const base = await crypto.subtle.importKey('raw', enc.encode(`xchat-device:${passcode}`), 'PBKDF2', false, [
    'deriveKey',
  ])
  const wrapKey = await crypto.subtle.deriveKey(
    { name: 'PBKDF2', salt: enc.encode(`xchat:${viewerId}`), iterations: WRAP_ITERATIONS, hash: 'SHA-256' },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  )
  const raw = unb64(wrapped)
  return crypto.subtle.decrypt({ name: 'AES-GCM', iv: raw.slice(0, 12) }, wrapKey, raw.slice(12))
}

async function useKey(raw) {
  chatKey = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])
}

async function seal(payload) {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    chatKey,
    enc.encode(JSON.stringify(payload)),
  )
  return { v: 1, iv: b64(iv), ct: b64(ct) }
}

async function unseal(envelope) {
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: unb64(envelope.iv) },
    chatKey,
    unb64(envelope.ct),
  )
  return JSON.parse(new TextDecoder().decode(plain))
}

/** A chat call: the payload sealed, the answer opened; `body` null when there is nothing to open. */
async function chat(path, payload) {
  const response = await api(
    path,
    payload === undefined ? {} : { method: 'POST', body: JSON.stringify(await seal(payload)) },
  )
  const text = await response.text()
  let body = null
  try {
    const parsed = JSON.parse(text)
    if (parsed?.v === 1) body = await unseal(parsed)
  } catch {
    body = null
  }
  return { status: response.status, ok: response.ok, body }
}

/** The chat key of this browser, fetched once when no passcode guards it; false: go to the passcode. */
async function ensureKey() {
  const stored = localStorage.getItem(KEY_ITEM)
  if (stored) {
    await useKey(unb64(stored))
    return true
  }
  if (STATE.needsPin) return false
  const response = await api('/i/api/1.1/xchat/keys.json')
  if (!response.ok) return false
  const raw = await unwrap((await response.json()).wrapped_key, '')
  localStorage.setItem(KEY_ITEM, b64(raw))
  await useKey(raw)
  return true
}

// Shared pieces ---------------------------------------------------------------------------------

function toast(text) {
  const el = h('div', { role: 'alert', class: 'toast' }, text)
  overlays.append(el)
  setTimeout(() => el.remove(), 8000)
}

function pageError(panel) {
  if (panel.querySelector('.page-error')) return
  panel.prepend(
    h(
      'div',
      { role: 'alert', class: 'page-error' },
      h('span', {}, 'Something went wrong. Try reloading.'),
      ' ',
      h('button', { type: 'button', onclick: () => location.reload() }, 'Retry'),
    ),
  )
}

const clock = (ms) => new Date(ms).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })

function threadPath(id) {
  return `/i/chat/${id}`
}

// Passcode ----------------------------------------------------------------------------------------

function passcodePage() {
  const error = h('div', { role: 'alert', 'aria-live': 'assertive' })
  if (STATE.chatLocked) {
    error.textContent = 'X Chat is locked after too many incorrect attempts. Try again later.'
    return mount(h('section', { 'aria-label': 'Enter Passcode' }, h('h1', {}, 'Enter Passcode'), error))
  }
  const inputs = [1, 2, 3, 4].map((n) =>
    h('input', {
      type: 'password',
      inputmode: 'numeric',
      maxlength: 1,
      autocomplete: 'off',
      'aria-label': `Digit ${n}`,
    }),
  )
  const form = h(
    'div',
    {},
    h('p', {}, 'Enter your passcode to access your messages.'),
    h('div', { 'data-testid': T('pin-code-input-container') }, inputs),
    h('button', { type: 'button' }, 'Forgot passcode?'),
  )
  mount(h('section', { 'aria-label': 'Enter Passcode' }, h('h1', {}, 'Enter Passcode'), form, error))
  let busy = false
  async function submit() {
    if (busy) return
    busy = true
    const pin = inputs.map((x) => x.value).join('')
    const response = await api('/i/api/1.1/xchat/pin/verify.json', {
      method: 'POST',
      body: JSON.stringify({ pin }),
    })
    const body = await response.json().catch(() => ({}))
    busy = false
    if (response.ok) {
      const raw = await unwrap(body.wrapped_key, pin)
      localStorage.setItem(KEY_ITEM, b64(raw))
      const next = new URLSearchParams(location.search).get('next')
      location.replace(next?.startsWith('/i/chat') ? next : '/i/chat')
      return
    }
    for (const input of inputs) input.value = ''
    if (response.status === 423) {
      form.remove()
      error.textContent = 'X Chat is locked after too many incorrect attempts. Try again later.'
    } else {
      error.textContent = 'Incorrect passcode'
      inputs[0].focus()
    }
  }
  inputs.forEach((input, i) => {
    input.addEventListener('input', () => {
      input.value = input.value.replace(/\D/g, '').slice(-1)
      if (input.value && inputs[i + 1]) inputs[i + 1].focus()
      if (inputs.every((x) => x.value)) void submit()
    })
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Backspace' && !input.value && inputs[i - 1]) inputs[i - 1].focus()
    })
  })
  inputs[0].focus()
}

// Inbox and message requests ------------------------------------------------------------------------

function conversationRow(conversation, index) {
  const peer = conversation.peer
  const last = conversation.last
  const mine = last?.sender_id === viewerId
  const [a, b] = conversation.id.split('-')
  return h(
    'div',
    {
      'data-testid': `${T('dm-conversation-item-')}${a}:${b}`,
      'data-index': index,
      role: 'listitem',
      'aria-description': conversation.unread ? 'Unread messages' : null,
    },
    h(
      'a',
      { href: threadPath(conversation.id), role: 'link', class: 'row' },
      h(
        'div',
        {},
        h('span', { dir: 'auto' }, peer.name),
        ' ',
        h('span', { dir: 'ltr' }, `@${peer.screen_name}`),
        ' · ',
        last ? h('time', { datetime: new Date(last.time).toISOString() }, clock(last.time)) : null,
      ),
      h('div', {}, h('span', { dir: 'auto' }, last ? `${mine ? 'You: ' : ''}${last.text}` : '')),
    ),
  )
}

function openNewChat() {
  const results = h('div', { role: 'listbox', 'aria-label': 'People' })
  const input = h('input', {
    type: 'text',
    'aria-label': 'Search people',
    placeholder: 'Search people',
    style: 'width:auto;font-size:1em;text-align:left',
  })
  const dialog = h(
    'div',
    { role: 'dialog', 'aria-label': 'New chat', 'aria-modal': 'true' },
    h('h2', {}, 'New chat'),
    input,
    results,
    h('button', { type: 'button', onclick: () => dialog.remove() }, 'Close'),
  )
  let timer
  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      const response = await api(`/i/api/1.1/search/typeahead.json?q=${encodeURIComponent(input.value)}`)
      const body = await response.json()
      results.replaceChildren(
        ...body.users.map((user) =>
          h(
            'div',
            {
              role: 'option',
              tabindex: 0,
              onclick: () => {
                const a = BigInt(user.id_str)
                const v = BigInt(viewerId)
                location.assign(threadPath(a < v ? `${a}-${v}` : `${v}-${a}`))
              },
            },
            `${user.name} @${user.screen_name}`,
          ),
        ),
      )
    }, 150)
  })
  overlays.append(dialog)
  input.focus()
}

async function inboxPage(folder) {
  const answer = await chat(`/i/api/1.1/xchat/inbox.json?folder=${folder}`)
  if (!answer.ok || !answer.body) {
    const panel = h('div', {})
    mount(panel)
    return pageError(panel)
  }
  const { conversations, requests } = answer.body
  const heading =
    folder === 'requests'
      ? [h('h2', {}, 'Message requests'), h('a', { href: '/i/chat', role: 'link' }, 'Back to Chat')]
      : [
          h('h2', {}, 'Chat'),
          h('button', { type: 'button', 'aria-label': 'New chat', onclick: openNewChat }, 'New chat'),
          h('a', { href: '/i/chat/requests', role: 'link' }, `Message requests (${requests})`),
        ]
  mount(
    h(
      'div',
      { 'data-testid': T('dm-inbox-panel') },
      h('header', {}, heading),
      h(
        'div',
        { 'data-testid': T('dm-conversation-scroller'), role: 'list' },
        conversations.length === 0
          ? h('p', {}, folder === 'requests' ? 'No message requests' : 'No messages yet')
          : null,
        conversations.map(conversationRow),
      ),
    ),
  )
}

// A conversation ------------------------------------------------------------------------------------

/** A React-controlled textarea: the DOM value follows the state; only input events change the state. */
function controlledTextarea(attrs, onChange) {
  const el = h('textarea', attrs)
  const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')
  let tracked = ''
  Object.defineProperty(el, 'value', {
    configurable: true,
    get() {
      return native.get.call(this)
    },
    set(value) {
      tracked = String(value)
      native.set.call(this, value)
    },
  })
  el.addEventListener('input', () => {
    const value = native.get.call(el)
    if (value === tracked) return // React sees no change: a value set without its own setter
    tracked = value
    onChange(value)
  })
  return {
    el,
    render(value) {
      if (native.get.call(el) !== value) native.set.call(el, value)
      tracked = value
    },
  }
}

async function conversationPage(id) {
  const first = await chat(`/i/api/1.1/xchat/conversation/${id}.json`)
  if (first.status === 404 || !first.body?.peer) {
    if (first.ok || first.status === 404)
      return mount(
        h(
          'div',
          {},
          h('h2', {}, "This conversation doesn't exist"),
          h('a', { href: '/i/chat', role: 'link' }, 'Back to Chat'),
        ),
      )
    const panel = h('div', {})
    mount(panel)
    return pageError(panel)
  }
  const peer = first.body.peer
  const state = { text: '', messages: new Map(), failed: new Map() }
  const inflight = new Set()
  const scroller = h('div', { 'data-testid': T('dm-message-scroller'), role: 'log', 'aria-live': 'polite' })
  const rows = new Map()
  const composer = controlledTextarea(
    {
      'data-testid': T('dm-composer-textarea'),
      placeholder: 'Start a new message',
      'aria-label': 'Start a new message',
      rows: 1,
    },
    (value) => {
      state.text = value
      render()
    },
  )
  const sendButton = h(
    'button',
    {
      type: 'button',
      'data-testid': T('dm-composer-send-button'),
      'aria-label': 'Send',
      onclick: () => void send(),
    },
    'Send',
  )
  const voiceButton = h('button', { type: 'button', 'aria-label': 'Record voice message' }, 'Voice')
  const form = h(
    'form',
    { 'data-testid': T('dm-composer-form'), onsubmit: (e) => e.preventDefault() },
    composer.el,
    voiceButton,
  )
  composer.el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      void send()
    }
  })
  const panel = h(
    'div',
    { 'data-testid': T('dm-conversation-panel') },
    h(
      'div',
      { 'data-testid': T('dm-conversation-header') },
      h(
        'a',
        { href: `/${peer.screen_name}`, role: 'link' },
        h('span', { 'data-testid': T('dm-conversation-username') }, peer.name),
        ' ',
        h('span', { dir: 'ltr' }, `@${peer.screen_name}`),
      ),
    ),
    scroller,
    form,
  )
  mount(panel)

  function rowOf(message) {
    const outgoing = message.sender_id === viewerId
    const time = h(
      'time',
      { id: `${T('message-')}${message.id}-time`, datetime: new Date(message.time).toISOString() },
      clock(message.time),
    )
    const status = outgoing ? h('span', { role: 'img' }) : null
    const row = h(
      'div',
      {
        'data-dm-message-row': message.id,
        'data-testid': `${T('message-')}${message.id}`,
        class: `flex ${outgoing ? 'justify-end' : 'justify-start'}`,
      },
      h(
        'div',
        { class: 'bubble' },
        h(
          'div',
          { 'data-testid': `${T('message-text-')}${message.id}` },
          h('span', { dir: 'auto' }, message.text),
        ),
      ),
      h('div', { class: 'meta' }, time, ' ', status),
    )
    scroller.append(row)
    scroller.scrollTop = scroller.scrollHeight
    return { row, status }
  }

  function render() {
    composer.render(state.text)
    const wantSend = state.text.length > 0
    if (wantSend && voiceButton.isConnected) voiceButton.replaceWith(sendButton)
    if (!wantSend && sendButton.isConnected) sendButton.replaceWith(voiceButton)
    for (const message of state.messages.values()) {
      let view = rows.get(message.id)
      if (!view) {
        view = rowOf(message)
        rows.set(message.id, view)
      }
      const failure = state.failed.get(message.id)
      if (view.status) {
        if (failure) view.status.remove()
        else view.status.setAttribute('aria-label', STATUS_LABEL[message.status] ?? 'Sent')
      }
      if (failure && !view.row.querySelector('.error'))
        view.row.append(
          h('div', { class: 'error' }, h('span', {}, failure), ' ', h('button', { type: 'button' }, 'Retry')),
        )
    }
  }

  function merge(messages) {
    for (const message of messages) {
      if (inflight.has(message.id)) continue
      const known = state.messages.get(message.id)
      if (known && state.failed.has(message.id)) continue
      state.messages.set(message.id, { ...known, ...message })
    }
  }

  async function send() {
    const text = state.text
    if (!text.trim()) return
    const requestId = crypto.randomUUID()
    state.messages.set(requestId, {
      id: requestId,
      sender_id: viewerId,
      text,
      time: Date.now(),
      status: 'sending',
    })
    inflight.add(requestId)
    state.text = ''
    render()
    let answer
    try {
      answer = await chat('/i/api/1.1/xchat/send.json', { conversation_id: id, text, request_id: requestId })
    } catch {
      answer = null
    }
    inflight.delete(requestId)
    const error = answer?.body?.errors?.[0]
    if (answer?.ok && answer.body?.event) {
      state.messages.set(requestId, { ...state.messages.get(requestId), ...answer.body.event })
    } else if (answer && answer.status < 500 && error) {
      state.failed.set(requestId, 'Message not sent')
      toast(error.message)
    } else {
      state.failed.set(requestId, 'Failed to send')
      pageError(panel)
    }
    render()
  }

  merge(first.body.messages)
  render()
  setInterval(async () => {
    try {
      const answer = await chat(`/i/api/1.1/xchat/conversation/${id}.json`)
      if (answer.ok && answer.body) merge(answer.body.messages)
    } catch {
      // a poll that fails is retried by the next one
    }
    render()
  }, 1000)
}

async function start() {
  const path = location.pathname
  if (path === '/i/chat/pin/recovery') return passcodePage()
  if (!(await ensureKey())) {
    location.replace(`/i/chat/pin/recovery?next=${encodeURIComponent(path)}`)
    return
  }
  if (path === '/i/chat' || path === '/i/chat/') return inboxPage('primary')
  if (path === '/i/chat/requests') return inboxPage('requests')
  const id = /^\/i\/chat\/([^/]+)$/.exec(path)?.[1]
  if (id) return conversationPage(id)
  mount(h('div', {}, h('h2', {}, 'Page not found')))
}

void start()
