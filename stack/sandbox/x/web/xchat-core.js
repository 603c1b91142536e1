// X Chat's own bundle, part 1 of 3 (bundles.ts serves xchat-core.js, xchat-inbox.js and
// xchat-conversation.js as one /responsive-web/client-web/xchat.<build>.js, with BUILD prepended:
// the site-change drill's renamed test ids). It mounts into open shadow roots under the main app's
// [data-testid="xchatEmbedRoute"] (overlays: dialogs, toasts under "xchatEmbedOverlays"), so
// document.querySelector from the page finds none of it. Payloads are end-to-end encrypted with a
// key the page obtains after the passcode. This part: set-up, keys and encryption, shared pieces.
/* global BUILD */
const BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA'
const WRAP_ITERATIONS = 20000
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

/**
 * A message's time as X Chat labels it, against the sandbox's now: "10:09 AM" today, "Yesterday",
 * else "Nov 3". No machine-readable time goes with it.
 */
function timeLabel(ms, now) {
  const day = (t) => new Date(t).toDateString()
  if (day(ms) === day(now))
    return new Date(ms).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
  if (day(ms) === day(now - 86_400_000)) return 'Yesterday'
  return new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })
}

function threadPath(id) {
  return `/i/chat/${id}`
}
