// The page shell of the Instagram sandbox and the csrftoken cookie every visit gets.
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { escapeHtml as e, type Request, sendHtml, serializeCookie } from '../social/http.ts'
import type { OwnAccount } from '../social/state.ts'
import { IG_APP_ID } from './accounts.ts'
import { THREAD_STYLE } from './thread-page.ts'

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;display:flex;color:#000}
nav{width:220px;padding:12px;border-right:1px solid #dbdbdb;min-height:100vh;display:flex;flex-direction:column;gap:10px}
main{flex:1;max-width:640px;padding:16px}.overlay{position:fixed;inset:0;background:rgba(0,0,0,.65);display:flex;align-items:center;justify-content:center;z-index:10}
.dialog{background:#fff;padding:24px;border-radius:12px;max-width:400px}
#slfErrorAlert{color:#ed4956}[aria-label="Unread"]{display:inline-block;width:8px;height:8px;border-radius:4px;background:#0095f6}`

/** The client helpers: headers instagram.com sends (x-ig-app-id, X-CSRFToken from csrftoken). */
const COMMON_JS = `
const DATA = JSON.parse(document.getElementById('__data').textContent);
function csrf() { const m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/); return m ? m[1] : ''; }
function igFetch(path, init) {
  init = init || {};
  const headers = Object.assign({ 'x-ig-app-id': DATA.appId, 'x-csrftoken': csrf(), 'x-requested-with': 'XMLHttpRequest' }, init.headers || {});
  if (init.form) { headers['content-type'] = 'application/x-www-form-urlencoded'; init.body = new URLSearchParams(init.form).toString(); }
  return fetch(path, Object.assign({}, init, { headers, credentials: 'include' }));
}
function dialog(title, text) {
  const o = document.createElement('div'); o.className = 'overlay';
  o.innerHTML = '<div class="dialog" role="dialog"><h3></h3><p></p><button type="button">OK</button></div>';
  o.querySelector('h3').textContent = title; o.querySelector('p').textContent = text;
  o.querySelector('button').onclick = () => o.remove();
  document.body.append(o);
}
`

export function igPage(title: string, body: string, data: Record<string, unknown> = {}, script = ''): string {
  const json = JSON.stringify({ appId: IG_APP_ID, ...data }).replace(/</g, '\\u003c')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(title)}</title>
<style>${STYLE}${THREAD_STYLE}</style></head><body>${body}
<script id="__data" type="application/json">${json}</script><script>${COMMON_JS}${script}</script></body></html>`
}

export function igNav(account: OwnAccount): string {
  return `<nav aria-label="Primary"><a href="/"><svg aria-label="Home" width="24" height="24"></svg> Home</a>
<a href="/explore/">Explore</a><a href="/direct/inbox/" aria-label="Direct messaging - 0 new notifications">Messages</a>
<a href="/${e(account.username)}/">Profile</a></nav>`
}

/** Sends a page, giving the browser a csrftoken cookie first if it has none (as instagram.com does). */
export function sendIgPage(
  req: Request,
  res: ServerResponse,
  status: number,
  html: string,
  extra: string[] = [],
): void {
  const cookies = [...extra]
  if (!req.cookies.csrftoken)
    cookies.push(serializeCookie('csrftoken', randomBytes(16).toString('hex'), { maxAgeSeconds: 31_449_600 }))
  sendHtml(res, status, html, cookies.length ? { 'set-cookie': cookies } : {})
}
