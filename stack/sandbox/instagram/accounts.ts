// Instagram sandbox accounts: "our" accounts with password, optional TOTP secret and checkpoint
// behaviour, the fixed demo accounts, sessions (sessionid cookie) and the API's error bodies.
import { randomBytes } from 'node:crypto'
import { HttpError, type Request } from '../social/http.ts'
import { newAccount } from '../social/messaging.ts'
import { hash32 } from '../social/random.ts'
import type { OwnAccount, World } from '../social/state.ts'
import { newTotpSecret } from './totp.ts'

/** The web app id instagram.com sends as x-ig-app-id. */
export const IG_APP_ID = '936619743392459'

export const DEMO_ACCOUNTS = [
  {
    username: 'reachflow.demo',
    password: 'demo-password',
    totpSecret: 'REACHFLOWDEMO234',
    challenge: 'never',
  },
  { username: 'reachflow.no2fa', password: 'demo-password', totpSecret: null, challenge: 'never' },
  { username: 'reachflow.checkpoint', password: 'demo-password', totpSecret: null, challenge: 'always' },
] as const

export const IG_MESSAGES = {
  wait: 'Please wait a few minutes before you try again.',
  blocked: 'This action was blocked. Please try again later.',
  restrict: 'We restrict certain activity to protect our community. Tell us if you think we made a mistake.',
  cannotReceive:
    "This account can't receive your message because they don't allow new message requests from everyone.",
  badPassword: 'Sorry, your password was incorrect. Please double-check your password.',
  noUser: "The username you entered doesn't belong to an account. Please check your username and try again.",
  badCode: 'Please check the security code and try again.',
} as const

export const loginRequired = () =>
  new HttpError(401, 'login_required', { message: 'login_required', status: 'fail', logout_reason: 2 })
export const pleaseWait = () =>
  new HttpError(429, IG_MESSAGES.wait, { message: IG_MESSAGES.wait, require_login: false, status: 'fail' })
export const feedbackRequired = () =>
  new HttpError(400, 'feedback_required', {
    message: 'feedback_required',
    spam: true,
    feedback_title: IG_MESSAGES.blocked,
    feedback_message: IG_MESSAGES.restrict,
    status: 'fail',
  })

const OWN_ID_PREFIX = '5100000'

export function createIgAccount(world: World, body: Record<string, unknown>): OwnAccount {
  const requested = typeof body.username === 'string' ? body.username.replace(/^@/, '') : undefined
  if (requested !== undefined && !/^[A-Za-z0-9._]{1,30}$/.test(requested))
    throw new HttpError(400, 'Instagram usernames are 1–30 letters, digits, dots or underscores')
  const username = requested ?? `sbx.${randomBytes(4).toString('hex')}`
  if (world.accountByUsername(username)) throw new HttpError(409, `Account "${username}" exists already`)
  const challenge = body.challenge ?? 'never'
  if (challenge !== 'never' && challenge !== 'next' && challenge !== 'always')
    throw new HttpError(400, '"challenge" must be never, next or always')
  const state = body.state ?? 'active'
  if (state !== 'active' && state !== 'locked' && state !== 'expired')
    throw new HttpError(400, '"state" must be active, locked or expired')
  const totpSecret =
    body.totpSecret === null || body.twoFactor === false
      ? null
      : typeof body.totpSecret === 'string'
        ? body.totpSecret
        : newTotpSecret()
  const account = newAccount(
    {
      id: `${OWN_ID_PREFIX}${String(world.accounts.size + 1).padStart(8, '0')}`,
      username,
      name: typeof body.name === 'string' ? body.name : username,
      state,
      password: typeof body.password === 'string' ? body.password : randomBytes(9).toString('base64url'),
      totpSecret,
      challenge,
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
    if (!world.accountByUsername(demo.username)) createIgAccount(world, { ...demo })
  }
}

export function describeIgAccount(account: OwnAccount): Record<string, unknown> {
  return {
    id: account.id,
    username: account.username,
    name: account.name,
    state: account.state,
    password: account.password,
    totpSecret: account.totpSecret ?? null,
    challenge: account.challenge,
    blockedUntil: account.blockedUntil || null,
    behaviour: account.behaviour,
  }
}

/** The account of a request's sessionid cookie (any state), or undefined. */
export function sessionAccount(world: World, req: Request): OwnAccount | undefined {
  const session = req.cookies.sessionid
  if (!session) return undefined
  for (const account of world.accounts.values()) if (account.sessionIds.includes(session)) return account
  return undefined
}

/** For API calls: a live session, the web app id and (for writes) the CSRF token. */
export function apiAccount(world: World, req: Request): OwnAccount {
  if (req.headers['x-ig-app-id'] !== IG_APP_ID)
    throw new HttpError(400, 'useragent mismatch', { message: 'useragent mismatch', status: 'fail' })
  if (req.method !== 'GET') checkCsrf(req)
  const account = sessionAccount(world, req)
  if (account?.state !== 'active') throw loginRequired()
  return account
}

export function checkCsrf(req: Request): void {
  const token = req.cookies.csrftoken
  if (!token || req.headers['x-csrftoken'] !== token)
    throw new HttpError(403, 'CSRF token missing or incorrect', {
      message: 'CSRF token missing or incorrect',
      status: 'fail',
    })
}

/** Instagram-looking numeric thread id for the one-to-one thread of account and peer. */
export function igThreadId(accountId: string, peerId: string): string {
  const a = hash32(`${accountId}>${peerId}`).toString().padStart(10, '0')
  const b = hash32(`${peerId}<${accountId}`).toString().padStart(10, '0')
  return `3402823668417${a}${b}`
}
