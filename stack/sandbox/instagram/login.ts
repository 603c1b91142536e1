// Instagram sign-in: /accounts/login/ with its cookie banner (nameless inputs, a role=button submit), the login and two-factor (TOTP)
// endpoints, checkpoints (/challenge/) for flagged accounts and fresh-login floods, the
// "save your login info" screen, and sessionid cookies.
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { HttpError, type Router, redirect, sendJson, serializeCookie, stringField } from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { OwnAccount, World } from '../social/state.ts'
import { checkCsrf, IG_MESSAGES, sessionAccount } from './accounts.ts'
import { LOGIN_JS, TWO_FACTOR_JS } from './client.ts'
import { igNav, igPage, sendIgPage } from './layout.ts'
import { verifyTotp } from './totp.ts'

/** More fresh logins than this within an hour trigger a checkpoint. */
export const MAX_FRESH_LOGINS_PER_HOUR = 5
const pendingTwoFactor = new Map<string, { accountId: string; at: number; tries: number }>()

export function registerIgLogin(router: Router, messaging: Messaging): void {
  const world = messaging.world

  router.on('GET', '/accounts/login/', (req, res) => {
    const account = sessionAccount(world, req)
    if (account?.state === 'active') return redirect(res, '/')
    const banner = req.cookies.ig_nrcb
      ? ''
      : `<div class="overlay" id="cookie-banner"><div class="dialog" role="dialog" aria-label="Allow the use of cookies from Instagram by this browser?">
<h2>Allow the use of cookies from Instagram by this browser?</h2><p>We use cookies to help provide and improve content on Instagram.</p>
<button type="button" data-choice="all">Allow all cookies</button> <button type="button" data-choice="essential">Decline optional cookies</button></div></div>`
    // since February 2026 the fields have no name attributes and the submit is found by role and text
    const body = `${banner}<main><h1>Instagram</h1><form id="loginForm" method="post">
<label><span>Mobile number, username or email</span> <input type="text" aria-label="Mobile number, username or email" autocomplete="username" autocapitalize="off"></label><br>
<label><span>Password</span> <input type="password" aria-label="Password" autocomplete="current-password"></label><br>
<div role="button" tabindex="0" aria-disabled="true">Log in</div></form><p id="slfErrorAlert" role="alert"></p></main>`
    sendIgPage(req, res, 200, igPage('Login • Instagram', body, {}, LOGIN_JS))
  })

  router.on('POST', '/api/v1/web/accounts/login/ajax/', (req, res) => {
    checkCsrf(req)
    const username = stringField(req.body, 'username') ?? ''
    const encoded = stringField(req.body, 'enc_password') ?? ''
    const password = /^#PWD_INSTAGRAM_BROWSER:0:\d+:/.test(encoded)
      ? encoded.replace(/^#PWD_INSTAGRAM_BROWSER:0:\d+:/, '')
      : ''
    const account = world.accountByUsername(username)
    if (!account) return sendJson(res, 200, { user: false, authenticated: false, status: 'ok' })
    if (account.password !== password)
      return sendJson(res, 200, { user: true, authenticated: false, status: 'ok' })
    const now = world.now()
    account.loginTimes = account.loginTimes.filter((t) => t > now - 3_600_000)
    account.loginTimes.push(now)
    world.changed()
    const flood = account.loginTimes.length > MAX_FRESH_LOGINS_PER_HOUR
    if (account.state === 'locked' || account.challenge !== 'never' || flood) {
      if (account.challenge === 'next') account.challenge = 'never'
      return sendJson(res, 400, {
        message: 'checkpoint_required',
        checkpoint_url: `/challenge/${account.id}/${randomBytes(5).toString('hex')}/`,
        lock: false,
        flow_render_type: 0,
        status: 'fail',
      })
    }
    if (account.totpSecret) {
      const identifier = randomBytes(12).toString('base64url')
      pendingTwoFactor.set(identifier, { accountId: account.id, at: now, tries: 0 })
      return sendJson(res, 400, {
        message: '',
        two_factor_required: true,
        two_factor_info: {
          username: account.username,
          two_factor_identifier: identifier,
          totp_two_factor_on: true,
          sms_two_factor_on: false,
        },
        status: 'fail',
        error_type: 'two_factor_required',
      })
    }
    signIn(world, account, res)
  })

  router.on('GET', '/accounts/login/two_factor', (req, res) => {
    const body = `<main><h1>Two-factor authentication</h1><p>Enter the code from your authentication app.</p>
<form id="twoFactorForm"><input type="tel" aria-label="Security Code" inputmode="numeric" autocomplete="one-time-code" maxlength="8">
<button type="submit">Confirm</button></form><p id="twoFactorErrorAlert" role="alert"></p></main>`
    sendIgPage(req, res, 200, igPage('Login • Instagram', body, {}, TWO_FACTOR_JS))
  })

  router.on('POST', '/api/v1/web/accounts/login/ajax/two_factor/', (req, res) => {
    checkCsrf(req)
    const identifier = stringField(req.body, 'identifier') ?? ''
    const code = (stringField(req.body, 'verificationCode') ?? '').replace(/\s/g, '')
    const pending = pendingTwoFactor.get(identifier)
    const account = pending ? world.accounts.get(pending.accountId) : undefined
    if (!pending || !account?.totpSecret || world.now() - pending.at > 10 * 60_000)
      throw new HttpError(400, 'expired', {
        message: 'This page could not be loaded. Please log in again.',
        status: 'fail',
      })
    if (!verifyTotp(account.totpSecret, code, world.now())) {
      pending.tries++
      if (pending.tries >= 5) pendingTwoFactor.delete(identifier)
      throw new HttpError(400, IG_MESSAGES.badCode, {
        message: IG_MESSAGES.badCode,
        status: 'fail',
        error_type: 'invalid_verification_code',
      })
    }
    pendingTwoFactor.delete(identifier)
    signIn(world, account, res)
  })

  router.on('GET', '/challenge/*', (req, res) => {
    const body = `<main><h1>Help us confirm it's you</h1><p>We detected an unusual login attempt. To secure your account,
we'll send you a security code.</p><button type="button">Send Security Code</button></main>`
    sendIgPage(req, res, 200, igPage('Instagram', body))
  })

  router.on('GET', '/accounts/onetap/', (req, res) => {
    const account = sessionAccount(world, req)
    if (!account) return redirect(res, '/accounts/login/')
    const next = safeNext(req.url.searchParams.get('next'))
    const body = `${igNav(account)}<main><h2>Save your login info?</h2><p>We can save your login info on this browser so you don't need to enter it again.</p>
<button type="button" onclick="location.assign(${JSON.stringify(next).replace(/"/g, '&quot;')})">Save info</button>
<div role="button" tabindex="0" onclick="location.assign(${JSON.stringify(next).replace(/"/g, '&quot;')})">Not now</div></main>`
    sendIgPage(req, res, 200, igPage('Instagram', body))
  })

  router.on('POST', '/api/v1/web/accounts/logout/ajax/', (req, res) => {
    checkCsrf(req)
    const account = sessionAccount(world, req)
    if (account) account.sessionIds = account.sessionIds.filter((s) => s !== req.cookies.sessionid)
    sendJson(
      res,
      200,
      { status: 'ok' },
      { 'set-cookie': serializeCookie('sessionid', '', { maxAgeSeconds: 0 }) },
    )
  })
}

export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/'
}

/** A new session id for the account (the last ten stay valid). */
export function newSession(world: World, account: OwnAccount): string {
  const session = `${account.id}%3A${randomBytes(10).toString('base64url')}%3A${Math.floor(world.now() / 1000)}`
  account.sessionIds = [...account.sessionIds.slice(-9), session]
  world.changed()
  return session
}

function signIn(world: World, account: OwnAccount, res: ServerResponse): void {
  const session = newSession(world, account)
  const year = 31_536_000
  sendJson(
    res,
    200,
    { user: true, userId: account.id, authenticated: true, oneTapPrompt: true, status: 'ok' },
    {
      'set-cookie': [
        serializeCookie('sessionid', session, { maxAgeSeconds: year, httpOnly: true }),
        serializeCookie('ds_user_id', account.id, { maxAgeSeconds: 90 * 86_400 }),
        serializeCookie('csrftoken', randomBytes(16).toString('hex'), { maxAgeSeconds: year }),
      ],
    },
  )
}
