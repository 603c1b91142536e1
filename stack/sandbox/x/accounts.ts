// X sandbox accounts: creating "our" accounts with browser-extension style cookies, the fixed demo
// accounts, and resolving a request's cookies (auth_token + ct0, x-csrf-token, bearer) to one.
import { randomBytes } from 'node:crypto'
import { HttpError, type Request } from '../social/http.ts'
import { newAccount } from '../social/messaging.ts'
import { hexFrom } from '../social/random.ts'
import type { OwnAccount, World } from '../social/state.ts'

/** The public bearer token the x.com web app sends with every internal API call. */
export const WEB_BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA'

/** Error bodies exactly as X's internal API words them. */
export const X_ERRORS = {
  32: { status: 401, message: 'Could not authenticate you.' },
  88: { status: 429, message: 'Rate limit exceeded.' },
  226: {
    status: 403,
    message:
      "This request looks like it might be automated. To protect our users from spam and other malicious activity, we can't complete this action right now. Please try again later.",
  },
  326: {
    status: 403,
    message:
      'To protect our users from spam and other malicious activity, this account is temporarily locked. Please log in to https://x.com to unlock your account.',
  },
  349: { status: 403, message: 'You cannot send messages to this user.' },
  353: { status: 403, message: 'This request requires a matching csrf cookie and header.' },
  476: {
    status: 403,
    message:
      'You cannot send messages to this user: they only accept message requests from verified accounts.',
  },
} as const

export type XErrorCode = keyof typeof X_ERRORS

export function xError(code: XErrorCode): HttpError {
  const { status, message } = X_ERRORS[code]
  return new HttpError(status, message, { errors: [{ code, message }] })
}

/** Fixed accounts for the demo and for documentation (docs/sandboxes.md lists their cookies). */
export const DEMO_ACCOUNTS = [
  {
    username: 'reachflow_demo',
    name: 'Reachflow Demo',
    state: 'active',
    passcode: '1234',
    blueVerified: true,
  },
  // the demo customer's account in supabase/seed.sql: `npm start` signs it in here (stack/src/demo.ts)
  { username: 'demo_growth', name: 'Demo Growth Co', state: 'active', passcode: '1234', blueVerified: true },
  { username: 'rf_locked_demo', name: 'Locked Demo', state: 'locked', passcode: '1234', blueVerified: false },
  {
    username: 'rf_expired_demo',
    name: 'Expired Demo',
    state: 'expired',
    passcode: '1234',
    blueVerified: false,
  },
] as const

const OWN_ID_PREFIX = '1690000'

export function createXAccount(world: World, body: Record<string, unknown>, fixed = false): OwnAccount {
  const requested = typeof body.username === 'string' ? body.username.replace(/^@/, '') : undefined
  if (requested !== undefined && !/^[A-Za-z0-9_]{1,15}$/.test(requested))
    throw new HttpError(400, 'X usernames are 1–15 letters, digits or underscores')
  const username = requested ?? `sbx_${randomBytes(4).toString('hex')}`
  if (world.accountByUsername(username)) throw new HttpError(409, `Account "${username}" exists already`)
  const state = body.state ?? 'active'
  if (state !== 'active' && state !== 'locked' && state !== 'expired')
    throw new HttpError(400, '"state" must be active, locked or expired')
  const passcode = body.passcode === null ? undefined : String(body.passcode ?? '1234')
  if (passcode !== undefined && !/^\d{4}$/.test(passcode))
    throw new HttpError(400, '"passcode" must be 4 digits')
  // demo accounts get tokens derived from their name, so documented cookies stay valid forever
  const secretSeed = fixed ? `demo:${username}` : randomBytes(16).toString('hex')
  const account = newAccount(
    {
      id: `${OWN_ID_PREFIX}${String(world.accounts.size + 1).padStart(8, '0')}`,
      username,
      name: typeof body.name === 'string' ? body.name : username,
      state,
      blueVerified: body.blueVerified === true,
      authToken: hexFrom(40, secretSeed, 'auth_token'),
      ct0: hexFrom(160, secretSeed, 'ct0'),
      passcode,
    },
    world.now(),
  )
  while ([...world.accounts.values()].some((a) => a.id === account.id))
    account.id = String(BigInt(account.id) + 1n)
  world.accounts.set(account.id, account)
  return account
}

export function ensureDemoAccounts(world: World): void {
  for (const demo of DEMO_ACCOUNTS) {
    if (!world.accountByUsername(demo.username)) createXAccount(world, { ...demo }, true)
  }
}

/** The cookies as a browser extension (EditThisCookie, Cookie-Editor) exports them from x.com. */
export function exportedCookies(account: OwnAccount): Record<string, unknown>[] {
  const expires = Math.floor(account.createdAt / 1000) + 5 * 365 * 86_400
  const cookie = (name: string, value: string, httpOnly: boolean, sameSite: string) => ({
    domain: '.x.com',
    expirationDate: expires,
    hostOnly: false,
    httpOnly,
    name,
    path: '/',
    sameSite,
    secure: true,
    session: false,
    storeId: '0',
    value,
  })
  return [
    cookie('auth_token', account.authToken ?? '', true, 'no_restriction'),
    cookie('ct0', account.ct0 ?? '', false, 'lax'),
    cookie('twid', `u%3D${account.id}`, false, 'no_restriction'),
    cookie('guest_id', `v1%3A${account.createdAt}`, false, 'no_restriction'),
    cookie('lang', 'en', false, 'unspecified'),
  ]
}

export function describeXAccount(account: OwnAccount): Record<string, unknown> {
  const cookies = exportedCookies(account)
  return {
    id: account.id,
    username: account.username,
    name: account.name,
    state: account.state,
    blueVerified: account.blueVerified,
    passcode: account.passcode ?? null,
    chatLocked: account.chatLocked,
    blockedUntil: account.blockedUntil || null,
    behaviour: account.behaviour,
    cookies,
    cookieHeader: `auth_token=${account.authToken}; ct0=${account.ct0}; twid=u%3D${account.id}`,
  }
}

export type SessionCheck =
  | { ok: true; account: OwnAccount }
  | { ok: false; reason: 'signed_out' | 'expired' | 'locked'; account?: OwnAccount }

/** Which account a request's cookies belong to. `ct0` alone is not a session. */
export function sessionOf(world: World, req: Request): SessionCheck {
  const token = req.cookies.auth_token
  const ct0 = req.cookies.ct0
  if (!token || !ct0) return { ok: false, reason: 'signed_out' }
  for (const account of world.accounts.values()) {
    if (account.authToken !== token) continue
    if (account.ct0 !== ct0) return { ok: false, reason: 'signed_out' }
    if (account.state === 'expired') return { ok: false, reason: 'expired', account }
    if (account.state === 'locked') return { ok: false, reason: 'locked', account }
    return { ok: true, account }
  }
  return { ok: false, reason: 'signed_out' }
}

/** For internal API calls: the session plus the x-csrf-token and bearer checks, else X's error. */
export function apiAccount(world: World, req: Request): OwnAccount {
  const auth = req.headers.authorization ?? ''
  if (auth !== `Bearer ${WEB_BEARER}`) throw xError(32)
  const session = sessionOf(world, req)
  if (!session.ok) throw xError(session.reason === 'locked' ? 326 : 32)
  if (req.headers['x-csrf-token'] !== req.cookies.ct0) throw xError(353)
  return session.account
}

/** One-to-one conversation id: the two user ids joined by "-", smaller first. */
export function conversationId(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a}-${b}` : `${b}-${a}`
}
