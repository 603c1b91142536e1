// The body of POST /social-accounts (product.md §7: platform, username, authData, proxyUrl) and of
// POST /social-accounts/validate-cookies, checked with the product's texts (product.md §5, §8), and the
// credentials they turn into. X cookies are parsed (every format of platforms.md) before anything
// is stored, so the runner only ever receives cookies that make a session.

import {
  type ParsedXCookies,
  PROXY_MESSAGES,
  type ProxyParts,
  parseProxy,
  parseXCookies,
  proxyAddress,
  proxyProblem,
} from '@reachflow/domain'
import type { AccountCredentials } from '../_shared/credentials.ts'
import { badRequest } from '../_shared/errors.ts'
import { parseWith, z } from '../_shared/validation.ts'

export const ACCOUNT_MESSAGES = {
  missingDetails: 'Please fill in all required account details',
  passwordRequired: 'Password is required for Instagram accounts',
  cookiesRequired: 'Cookies are required for Twitter accounts',
  invalidCookies: 'Invalid cookie format or validation failed',
  username: 'Usernames may use letters, numbers, dots and underscores only (enter them without @)',
  proxy: PROXY_MESSAGES.format,
  secretKey: 'The 2FA secret key must be the base32 key shown when you set up the authenticator app',
  passcode: 'The X Chat passcode must be 4 digits',
  cookiesOnlyForX: 'Cookie validation is only available for Twitter accounts',
} as const

const USERNAME = /^[A-Za-z0-9._]{1,64}$/
const BASE32 = /^[A-Z2-7]{16,128}=*$/

const text = z.string().max(20_000)

const accountBody = z.object({
  platform: z.string().max(50).nullish(),
  username: z.string().max(200).nullish(),
  authData: z
    .object({
      password: text.nullish(),
      secretKey: z.string().max(200).nullish(),
      cookies: z.unknown().optional(),
      chatPasscode: z.string().max(20).nullish(),
    })
    .nullish(),
  proxyUrl: z.string().max(500).nullish(),
})

const cookiesBody = z.object({
  platform: z.string().max(50).nullish(),
  cookies: z.unknown().optional(),
})

export interface AccountInput {
  platform: string
  username: string
  /** What the table keeps: host and port only (its login is sealed in `credentials.proxy`). */
  proxyUrl: string | null
  /** The proxy as given, for the DNS check before anything is stored. */
  proxy: ProxyParts | null
  credentials: AccountCredentials
}

/** A proxy as the customer typed it: parsed, on a proxy port, not a private or local host. */
export function readProxy(value: string | null | undefined): ProxyParts | null {
  const text = value?.trim()
  if (!text) return null
  const parts = parseProxy(text)
  if (!parts) throw badRequest(ACCOUNT_MESSAGES.proxy)
  const problem = proxyProblem(parts)
  if (problem) throw badRequest(problem)
  return parts
}

const proxyLogin = (proxy: ProxyParts | null) =>
  proxy?.username ? { username: proxy.username, password: proxy.password ?? '' } : null

/** `twitter` is the platform's name in the data; `x` is accepted for it. */
function platformName(value: string | null | undefined): string {
  const name = (value ?? '').trim().toLowerCase()
  return name === 'x' ? 'twitter' : name
}

function blank(value: unknown): boolean {
  if (value === undefined || value === null) return true
  if (typeof value === 'string') return value.trim() === ''
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') return Object.keys(value).length === 0
  return false
}

/** The parsed cookies, or a 400 with what is wrong with them. */
export function readXCookies(input: unknown): ParsedXCookies {
  if (blank(input)) throw badRequest(ACCOUNT_MESSAGES.cookiesRequired)
  const parsed = parseXCookies(input)
  if (!parsed.ok) throw badRequest(parsed.error, { reason: ACCOUNT_MESSAGES.invalidCookies })
  return parsed.value
}

export function readAccountInput(json: unknown): AccountInput {
  const body = parseWith(accountBody, json)
  const platform = platformName(body.platform)
  const username = (body.username ?? '').trim().replace(/^@/, '')
  if (!platform || !username) throw badRequest(ACCOUNT_MESSAGES.missingDetails)
  if (!USERNAME.test(username)) throw badRequest(ACCOUNT_MESSAGES.username)
  const proxy = readProxy(body.proxyUrl)
  const proxyUrl = proxy ? proxyAddress(proxy) : null
  const auth = body.authData ?? { password: null, secretKey: null, cookies: undefined, chatPasscode: null }

  if (platform === 'instagram') {
    if (!auth.password) throw badRequest(ACCOUNT_MESSAGES.passwordRequired)
    const secret = (auth.secretKey ?? '').replace(/[\s-]/g, '').toUpperCase()
    if (secret && !BASE32.test(secret)) throw badRequest(ACCOUNT_MESSAGES.secretKey)
    return {
      platform,
      username,
      proxyUrl,
      proxy,
      credentials: {
        v: 1,
        platform,
        password: auth.password,
        totpSecret: secret || null,
        proxy: proxyLogin(proxy),
      },
    }
  }
  if (platform === 'twitter') {
    const cookies = readXCookies(auth.cookies)
    const passcode = auth.chatPasscode?.trim() || null
    if (passcode && !/^\d{4}$/.test(passcode)) throw badRequest(ACCOUNT_MESSAGES.passcode)
    return {
      platform,
      username,
      proxyUrl,
      proxy,
      credentials: {
        v: 1,
        platform,
        cookies: cookies.cookies,
        chatPasscode: passcode,
        proxy: proxyLogin(proxy),
      },
    }
  }
  // Any other name: the database answers "This platform cannot be connected yet" for known ones.
  throw badRequest('This platform cannot be connected yet')
}

export function readCookiesInput(json: unknown): ParsedXCookies {
  const body = parseWith(cookiesBody, json)
  const platform = platformName(body.platform)
  if (!platform) throw badRequest(ACCOUNT_MESSAGES.missingDetails)
  if (platform !== 'twitter') throw badRequest(ACCOUNT_MESSAGES.cookiesOnlyForX)
  return readXCookies(body.cookies)
}

const updateBody = z.object({
  // the same sign-in fields as creating an account; each one absent keeps the stored value
  authData: accountBody.shape.authData,
  proxyUrl: accountBody.shape.proxyUrl,
  dailyMessageLimit: z.number().int('Daily message limit must be a whole number').min(1).max(500).nullish(),
})

/** What PATCH /social-accounts/:id changes; a field that is absent keeps its stored value. */
export interface AccountUpdate {
  credentials: Partial<{
    cookies: ParsedXCookies['cookies']
    chatPasscode: string | null
    password: string
    totpSecret: string | null
  }>
  /** undefined: keep; null: remove the proxy; parts: the new proxy. */
  proxy: ProxyParts | null | undefined
  dailyMessageLimit: number | null
}

export function readAccountUpdate(json: unknown, platform: string): AccountUpdate {
  const body = parseWith(updateBody, json)
  const auth = body.authData ?? {}
  const credentials: AccountUpdate['credentials'] = {}
  if (platform === 'twitter') {
    if (auth.cookies !== undefined && !blank(auth.cookies))
      credentials.cookies = readXCookies(auth.cookies).cookies
    if (auth.chatPasscode !== undefined) {
      const passcode = auth.chatPasscode?.trim() || null
      if (passcode && !/^\d{4}$/.test(passcode)) throw badRequest(ACCOUNT_MESSAGES.passcode)
      credentials.chatPasscode = passcode
    }
  } else if (platform === 'instagram') {
    if (auth.password) credentials.password = auth.password
    if (auth.secretKey !== undefined) {
      const secret = (auth.secretKey ?? '').replace(/[\s-]/g, '').toUpperCase()
      if (secret && !BASE32.test(secret)) throw badRequest(ACCOUNT_MESSAGES.secretKey)
      credentials.totpSecret = secret || null
    }
  }
  const proxy = body.proxyUrl === undefined ? undefined : readProxy(body.proxyUrl)
  return { credentials, proxy, dailyMessageLimit: body.dailyMessageLimit ?? null }
}
