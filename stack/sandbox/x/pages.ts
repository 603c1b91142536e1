// The x.com pages the runner drives. As on x.com, a signed-in page is an HTML shell (the initial
// state, the page's transaction verification key and the release's main bundle) that the bundle
// renders client-side: /home, profiles, followers/following, search and X Chat (/i/chat inbox,
// /i/chat/requests, /i/chat/pin/recovery, /i/chat/<id>). Signed-out and locked sessions are sent to
// /i/flow/login and /account/access by the server, which renders those two pages itself.
import type { ServerResponse } from 'node:http'
import { escapeHtml as e, type Request, type Router, redirect, sendHtml } from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { OwnAccount } from '../social/state.ts'
import { sessionOf } from './accounts.ts'
import type { Bundles } from './bundles.ts'
import type { Releases } from './release.ts'
import type { SiteChange } from './site-admin.ts'

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#0f1419}
#react-root{display:flex}nav{width:220px;padding:12px;border-right:1px solid #eee;min-height:100vh;display:flex;flex-direction:column;gap:8px}
main{flex:1;max-width:640px;padding:12px}[data-testid="cellInnerDiv"]{padding:12px;border-bottom:1px solid #eff3f4;min-height:56px}
.page-error{background:#fde;padding:8px}`

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

export interface XSite {
  messaging: Messaging
  releases: Releases
  bundles: Bundles
  siteChange: SiteChange
}

/** A page the server renders whole (signed-out and locked pages, errors). */
export function staticPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`
}

/** The signed-in shell: what x.com's server sends before its bundle renders anything. */
function shell(site: XSite, title: string, account: OwnAccount, extra: Record<string, unknown> = {}): string {
  const build = site.bundles.build(site.releases.current, site.siteChange.renamesFor(account.username))
  const state = JSON.stringify({
    viewer: { id: account.id, screen_name: account.username, name: account.name },
    ...extra,
  }).replace(/</g, '\\u003c')
  return `<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8">
<meta name="twitter-site-verification" content="${site.releases.pageKey()}">
<title>${e(title)}</title><style>${STYLE}</style></head><body><div id="react-root"></div>
<script id="__INITIAL_STATE__" type="application/json">${state}</script>
<script src="${build.mainPath}"></script></body></html>`
}

/** The signed-in account for a page, or a redirect as x.com does (login or account access). */
function pageAccount(messaging: Messaging, req: Request, res: ServerResponse): OwnAccount | undefined {
  const session = sessionOf(messaging.world, req)
  if (session.ok) return session.account
  if (session.reason === 'locked') redirect(res, '/account/access')
  else redirect(res, `/i/flow/login?redirect_after_login=${encodeURIComponent(req.url.pathname)}`)
  return undefined
}

export function registerXPages(router: Router, site: XSite): void {
  const { messaging } = site
  const world = messaging.world
  const signedIn = (
    title: (req: Request) => string,
    extra: (account: OwnAccount, req: Request) => Record<string, unknown> = () => ({}),
  ) => {
    return (req: Request, res: ServerResponse) => {
      const account = pageAccount(messaging, req, res)
      if (account) sendHtml(res, 200, shell(site, title(req), account, extra(account, req)))
    }
  }
  const chatState = (account: OwnAccount) => ({
    needsPin: account.passcode !== undefined,
    chatLocked: account.chatLocked,
  })

  router.on('GET', '/responsive-web/client-web/:file', (req, res) => {
    if (!site.bundles.answer(req.url.pathname, res)) sendHtml(res, 404, staticPage('X', '<h1>Not found</h1>'))
  })

  router.on('GET', '/', (req, res) => redirect(res, sessionOf(world, req).ok ? '/home' : '/i/flow/login'))

  router.on(
    'GET',
    '/home',
    signedIn(
      () => 'Home / X',
      () => ({
        home: messaging.population.profiles
          .slice(0, 5)
          .map((p) => ({ name: p.name, screen_name: p.username, text: p.bio })),
      }),
    ),
  )
  router.on(
    'GET',
    '/search',
    signedIn((req) => `${req.url.searchParams.get('q') ?? ''} - Search / X`),
  )

  router.on('GET', '/i/flow/login', (_req, res) =>
    sendHtml(
      res,
      200,
      staticPage(
        'Log in to X / X',
        `<main><h1>Sign in to X</h1><label>Phone, email, or username
<input autocomplete="username" name="text"></label><button disabled>Next</button></main>`,
      ),
    ),
  )

  router.on('GET', '/account/access', (_req, res) =>
    sendHtml(
      res,
      200,
      staticPage(
        'Account locked / X',
        `<main><h1>Your account has been locked.</h1><p>We've temporarily limited some of your
account features. To unlock your account, verify your identity.</p><button>Start</button></main>`,
      ),
    ),
  )

  router.on('GET', '/messages', (req, res) => {
    if (pageAccount(messaging, req, res)) redirect(res, '/i/chat')
  })
  router.on(
    'GET',
    '/i/chat',
    signedIn(() => 'Chat / X', chatState),
  )
  router.on(
    'GET',
    '/i/chat/requests',
    signedIn(() => 'Message requests / X', chatState),
  )
  router.on(
    'GET',
    '/i/chat/pin/recovery',
    signedIn(() => 'Enter Passcode / X', chatState),
  )
  router.on(
    'GET',
    '/i/chat/:id',
    signedIn(() => 'Chat / X', chatState),
  )

  const profileRoute = (req: Request, res: ServerResponse) => {
    const username = req.params.username ?? ''
    if (RESERVED.has(username)) return sendHtml(res, 404, staticPage('X', '<h1>Page not found</h1>'))
    signedIn(() => `@${username} / X`)(req, res)
  }
  router.on('GET', '/:username', profileRoute)
  router.on('GET', '/:username/followers', profileRoute)
  router.on('GET', '/:username/following', profileRoute)
}
