// The browser-side scripts of the X sandbox pages (plain JS strings: the pages are server-rendered,
// these add what x.com does on the client: the X Chat key check, the passcode screen, sending with
// send-status transitions, polling for replies, and the "new chat" search).

/** Shared helpers: the internal-API headers x.com sends (bearer, x-csrf-token from ct0) and toasts. */
export const COMMON_JS = `
const DATA = JSON.parse(document.getElementById('__data').textContent);
function ct0() { const m = document.cookie.match(/(?:^|; )ct0=([^;]*)/); return m ? m[1] : ''; }
function api(path, init) {
  init = init || {};
  const headers = Object.assign({
    'authorization': 'Bearer ' + DATA.bearer,
    'x-csrf-token': ct0(),
    'x-twitter-auth-type': 'OAuth2Session',
    'x-twitter-active-user': 'yes',
    'content-type': 'application/json'
  }, init.headers || {});
  return fetch(path, Object.assign({}, init, { headers, credentials: 'include' }));
}
function toast(text) {
  const el = document.createElement('div');
  el.setAttribute('data-testid', 'toast'); el.setAttribute('role', 'alert'); el.className = 'toast';
  el.textContent = text; document.body.append(el);
  setTimeout(() => el.remove(), 8000);
}
function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16)); b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
  const h = [...b].map(x => x.toString(16).padStart(2, '0')).join('');
  return h.slice(0,8)+'-'+h.slice(8,12)+'-'+h.slice(12,16)+'-'+h.slice(16,20)+'-'+h.slice(20);
}
`

/** X Chat pages render only when this browser holds the chat keys; otherwise → passcode screen. */
export const KEY_CHECK_JS = `
(function () {
  const identity = localStorage.getItem('xchat:identity');
  if (DATA.needsPin && !(identity && identity.split(':')[0] === DATA.viewerId)) {
    location.replace('/i/chat/pin/recovery?next=' + encodeURIComponent(location.pathname));
    return;
  }
  const app = document.getElementById('app');
  document.getElementById('root').append(app.content.cloneNode(true));
  if (window.startChat) window.startChat();
})();
`

export const PIN_JS = `
const inputs = [...document.querySelectorAll('[data-testid="pin-code-input-container"] input')];
const error = document.getElementById('pin-error');
inputs.forEach((input, i) => {
  input.addEventListener('input', () => {
    input.value = input.value.replace(/\\D/g, '').slice(-1);
    if (input.value && inputs[i + 1]) inputs[i + 1].focus();
    if (inputs.every(x => x.value)) submit();
  });
  input.addEventListener('keydown', e => { if (e.key === 'Backspace' && !input.value && inputs[i - 1]) inputs[i - 1].focus(); });
});
let busy = false;
async function submit() {
  if (busy) return; busy = true;
  const pin = inputs.map(x => x.value).join('');
  const r = await api('/i/api/1.1/xchat/pin/verify.json', { method: 'POST', body: JSON.stringify({ pin }) });
  const body = await r.json().catch(() => ({}));
  busy = false;
  if (r.ok) {
    localStorage.setItem('xchat:identity', body.identity);
    const next = new URLSearchParams(location.search).get('next');
    location.replace(next && next.startsWith('/i/chat') ? next : '/i/chat');
    return;
  }
  inputs.forEach(x => { x.value = ''; });
  if (r.status === 423) {
    document.getElementById('pin-form').remove();
    error.textContent = 'X Chat is locked after too many incorrect attempts. Try again later.';
  } else {
    error.textContent = 'Incorrect passcode';
    inputs[0].focus();
  }
}
inputs[0].focus();
`

export const THREAD_JS = `
window.startChat = function () {
  const list = document.querySelector('[data-testid="dm-message-list"]');
  const box = document.querySelector('[data-testid="dm-composer-textarea"]');
  const button = document.querySelector('[data-testid="dm-composer-send-button"]');
  if (!list || !box) return;
  const inflight = new Set();
  const sync = () => { button.disabled = !box.value.trim(); };
  box.addEventListener('input', sync); sync();
  box.addEventListener('keydown', e => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); send(); } });
  button.addEventListener('click', send);
  function row(id, text, direction, status, time) {
    const el = document.createElement('div');
    el.setAttribute('data-dm-message-row', id);
    el.setAttribute('data-send-status', status);
    el.setAttribute('data-message-direction', direction);
    el.className = 'msg ' + direction;
    const t = document.createElement('span'); t.setAttribute('data-testid', 'dm-message-text'); t.textContent = text;
    const when = document.createElement('time'); when.setAttribute('datetime', new Date(time).toISOString());
    el.append(t, when); list.append(el); list.scrollTop = list.scrollHeight;
    return el;
  }
  function fail(el, text) {
    el.setAttribute('data-send-status', 'failed');
    const s = document.createElement('span'); s.setAttribute('data-testid', 'dm-message-error'); s.className = 'error';
    s.textContent = text; el.append(s);
  }
  async function send() {
    const text = box.value;
    if (!text.trim()) return;
    const id = uuid();
    const el = row(id, text, 'outgoing', 'pending', Date.now());
    inflight.add(id);
    box.value = ''; sync();
    el.setAttribute('data-send-status', 'sending');
    let r, body;
    try {
      r = await api('/i/api/1.1/dm/new2.json', { method: 'POST', body: JSON.stringify({ conversation_id: DATA.conversationId, text, request_id: id }) });
      body = await r.json().catch(() => null);
    } catch (e) {
      inflight.delete(id); fail(el, 'Failed to send'); toast('Something went wrong. Try reloading.'); return;
    }
    inflight.delete(id);
    if (r.ok) { el.setAttribute('data-send-status', body.event.status); return; }
    const error = body && body.errors && body.errors[0];
    if (r.status >= 500 || !error) { fail(el, 'Failed to send'); showError(); return; }
    fail(el, 'Message not sent'); toast(error.message);
  }
  function showError() {
    const e = document.createElement('div'); e.setAttribute('role', 'alert'); e.className = 'page-error';
    e.innerHTML = '<span>Something went wrong. Try reloading.</span> <button onclick="location.reload()">Retry</button>';
    document.getElementById('root').prepend(e);
  }
  async function poll() {
    try {
      const r = await api('/i/api/1.1/dm/conversation/' + DATA.conversationId + '.json');
      if (!r.ok) return;
      const body = await r.json();
      for (const m of body.messages) {
        if (inflight.has(m.id)) continue;
        const existing = list.querySelector('[data-dm-message-row="' + m.id + '"]');
        if (existing) { if (existing.getAttribute('data-send-status') !== 'failed') existing.setAttribute('data-send-status', m.status); continue; }
        row(m.id, m.text, m.sender_id === DATA.viewerId ? 'outgoing' : 'incoming', m.status, m.time);
      }
    } catch (e) {}
  }
  setInterval(poll, 1000);
};
`

export const INBOX_JS = `
window.startChat = function () {
  const open = document.querySelector('[data-testid="dm-new-chat-button"]');
  const dialog = document.getElementById('new-chat');
  const input = document.querySelector('[data-testid="dm-new-chat-search-input"]');
  const results = document.getElementById('new-chat-results');
  if (!open) return;
  open.addEventListener('click', () => { dialog.hidden = false; input.focus(); });
  let timer;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const r = await api('/i/api/1.1/search/typeahead.json?q=' + encodeURIComponent(input.value));
      const body = await r.json();
      results.textContent = '';
      for (const u of body.users) {
        const b = document.createElement('button');
        b.setAttribute('data-testid', 'new-dm-user-suggestion'); b.setAttribute('data-user-id', u.id_str);
        b.textContent = u.name + ' @' + u.screen_name;
        b.addEventListener('click', () => {
          const a = BigInt(u.id_str), v = BigInt(DATA.viewerId);
          location.assign('/i/chat/' + (a < v ? a + '-' + v : v + '-' + a));
        });
        results.append(b);
      }
    }, 150);
  });
};
`
