// An Instagram session in the browser: reuse saved cookies when they still sign in, otherwise log
// in (cookie banner, username/password, TOTP from the user's 2FA secret, checkpoint detection,
// "save login info" prompt); then the one-operation-at-a-time page the other modules use.
import type { Page } from 'puppeteer-core'
import { navigate } from '../../browser/navigate.ts'
import { SessionPages } from '../../browser/operations.ts'
import { clickByText, pathStartsWith, textOf, waitForFirst } from '../../browser/page-wait.ts'
import type { AccountContext, BrowserPool } from '../../browser/pool.ts'
import { REALISTIC_TYPING, type TypingOptions, typeLikeHuman } from '../../browser/typing.ts'
import {
  type DmTarget,
  type InboxConversation,
  type PlatformSession,
  type Reply,
  type ScrapePage,
  type ScrapeRequest,
  type SendResult,
  type SessionCookie,
  type StopSignal,
  StopSignalError,
  stopSignal,
  type ThreadMessage,
  type UncertainResolution,
} from '../types.ts'
import { readIgInbox, readIgReplies, readIgThread, resolveIgUncertain } from './inbox.ts'
import { scrapeInstagram } from './scrape.ts'
import { IG_PATHS, IG_SELECTORS, INSTAGRAM_BASE_URL } from './selectors.ts'
import { sendIgDm } from './send.ts'
import { igSignalFromText } from './signals.ts'
import { msLeftInStep, totpCode } from './totp.ts'

export interface IgTimeouts {
  navigationMs: number
  operationMs: number
  confirmMs: number
}

export const DEFAULT_IG_TIMEOUTS: IgTimeouts = {
  navigationMs: 30_000,
  operationMs: 90_000,
  confirmMs: 20_000,
}

export interface InstagramCredentials {
  username: string
  password: string
  /** The base32 2FA secret, when the account uses an authenticator app. */
  totpSecret?: string | null
  /** Cookies saved from the last session; reused when they still sign in. */
  cookies?: SessionCookie[] | null
}

export interface InstagramSessionOptions {
  pool: BrowserPool
  baseUrl?: string
  proxy?: string | null
  typing?: TypingOptions
  timeouts?: Partial<IgTimeouts>
  /** The runner's clock (ms), for TOTP codes under a test clock. */
  now?: () => number
}

export type OpenInstagramResult =
  | { status: 'ok'; session: InstagramSession; reused: boolean }
  | { status: 'bad_credentials' | 'two_factor_failed' | 'two_factor_required' | 'error'; message: string }
  | { status: 'challenge' | 'rate_limited'; signal: StopSignal }

const inLogin = pathStartsWith([IG_PATHS.login])
const inChallenge = pathStartsWith([IG_PATHS.challenge])

export async function openInstagramSession(
  credentials: InstagramCredentials,
  options: InstagramSessionOptions,
): Promise<OpenInstagramResult> {
  const baseUrl = (options.baseUrl ?? INSTAGRAM_BASE_URL).replace(/\/$/, '')
  const context = await options.pool.newContext(options.proxy)
  const session = new InstagramSession(context, baseUrl, options)
  try {
    const result = await session.run('open session', session.timeouts.operationMs * 2, async (page) => {
      if (credentials.cookies?.length) {
        await context.context.setCookie(...rehome(credentials.cookies, baseUrl))
        await session.goto(page, IG_PATHS.home)
        const reused = await waitForFirst(
          page,
          {
            ok: { selector: IG_SELECTORS.signedIn },
            login: { url: inLogin },
            challenge: { url: inChallenge },
          },
          session.timeouts.navigationMs,
        )
        if (reused === 'ok') return { status: 'ok', reused: true } as const
        if (reused === 'challenge') return challengeResult(page)
      }
      return logIn(session, page, credentials)
    })
    if (result.status === 'ok') {
      await session.readIdentity(credentials.username)
      return { status: 'ok', session, reused: result.reused }
    }
    await session.close()
    return result
  } catch (error) {
    await session.close()
    return { status: 'error', message: error instanceof Error ? error.message : String(error) }
  }
}

function rehome(cookies: SessionCookie[], baseUrl: string) {
  const url = new URL(baseUrl)
  const real = url.hostname.endsWith('instagram.com')
  return cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: real ? c.domain : url.hostname,
    path: c.path,
    httpOnly: c.httpOnly,
    secure: real ? c.secure : url.protocol === 'https:' && c.secure,
    ...(c.expires !== undefined ? { expires: c.expires } : {}),
    ...(c.sameSite && (real || c.sameSite !== 'None') ? { sameSite: c.sameSite } : {}),
  }))
}

function challengeResult(page: Page): OpenInstagramResult & { status: 'challenge' } {
  return {
    status: 'challenge',
    signal: stopSignal(
      'instagram',
      'challenge',
      'checkpoint_required',
      `Instagram asks to confirm it's you (${new URL(page.url()).pathname}).`,
    ),
  }
}

type LoginOutcome =
  | Exclude<OpenInstagramResult, { session: InstagramSession }>
  | { status: 'ok'; reused: false }

async function logIn(
  session: InstagramSession,
  page: Page,
  credentials: InstagramCredentials,
): Promise<LoginOutcome> {
  const t = session.timeouts.navigationMs
  await session.goto(page, IG_PATHS.login)
  if (!(await waitForFirst(page, { form: { selector: IG_SELECTORS.username } }, t)))
    return { status: 'error', message: 'The Instagram login form did not appear.' }
  if (await page.$(IG_SELECTORS.cookieDialog))
    await clickByText(page, `${IG_SELECTORS.cookieDialog} button`, IG_SELECTORS.cookieButtons)
  const username = await page.$(IG_SELECTORS.username)
  const password = await page.$(IG_SELECTORS.password)
  if (!username || !password) return { status: 'error', message: 'The Instagram login form is incomplete.' }
  await typeLikeHuman(page, username, credentials.username, session.typing)
  await typeLikeHuman(page, password, credentials.password, session.typing)
  await page.click(IG_SELECTORS.submit)
  const outcome = await waitForFirst(
    page,
    {
      twoFactor: { url: pathStartsWith([IG_PATHS.twoFactor]) },
      challenge: { url: inChallenge },
      oneTap: { url: pathStartsWith([IG_PATHS.oneTap]) },
      home: { selector: IG_SELECTORS.signedIn },
      error: { text: /\S/, within: IG_SELECTORS.loginError },
    },
    t,
  )
  if (outcome === 'challenge') return challengeResult(page)
  if (outcome === 'error') {
    const message = (await textOf(page, IG_SELECTORS.loginError)).trim()
    const signal = igSignalFromText(message)
    if (signal?.kind === 'rate_limit') return { status: 'rate_limited', signal }
    return { status: 'bad_credentials', message }
  }
  if (outcome === 'twoFactor') {
    const secret = credentials.totpSecret
    if (!secret)
      return {
        status: 'two_factor_required',
        message: 'Instagram asks for a 2FA code and no 2FA secret is stored.',
      }
    const failed = await enterTotp(session, page, secret)
    if (failed) return failed
  }
  if (!outcome) return { status: 'error', message: 'Instagram did not answer the login in time.' }
  return finishLogin(session, page)
}

async function enterTotp(
  session: InstagramSession,
  page: Page,
  secret: string,
): Promise<LoginOutcome | undefined> {
  const field = await waitForFirst(
    page,
    { field: { selector: IG_SELECTORS.verificationCode } },
    session.timeouts.navigationMs,
  )
  const input = field ? await page.$(IG_SELECTORS.verificationCode) : null
  if (!input) return { status: 'error', message: 'The two-factor form did not appear.' }
  // a code about to expire may be stale by the time it arrives: wait for a fresh one
  const left = msLeftInStep(session.now())
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 250))
  let code: string
  try {
    code = totpCode(secret, session.now())
  } catch (error) {
    return { status: 'two_factor_failed', message: error instanceof Error ? error.message : String(error) }
  }
  await typeLikeHuman(page, input, code, session.typing)
  await page.click(IG_SELECTORS.submit)
  const outcome = await waitForFirst(
    page,
    {
      done: { url: (url) => !url.pathname.startsWith(IG_PATHS.twoFactor) },
      error: { text: /\S/, within: IG_SELECTORS.twoFactorError },
    },
    session.timeouts.navigationMs,
  )
  if (outcome === 'done') return inChallenge(new URL(page.url())) ? challengeResult(page) : undefined
  if (outcome === 'error')
    return { status: 'two_factor_failed', message: (await textOf(page, IG_SELECTORS.twoFactorError)).trim() }
  return { status: 'error', message: 'Instagram did not answer the 2FA code in time.' }
}

async function finishLogin(session: InstagramSession, page: Page): Promise<LoginOutcome> {
  const outcome = await waitForFirst(
    page,
    {
      oneTap: { url: pathStartsWith([IG_PATHS.oneTap]) },
      home: { selector: IG_SELECTORS.signedIn },
      challenge: { url: inChallenge },
    },
    session.timeouts.navigationMs,
  )
  if (outcome === 'challenge') return challengeResult(page)
  if (outcome === 'oneTap') {
    await waitForFirst(page, { prompt: { text: /not now/i } }, session.timeouts.navigationMs)
    await clickByText(page, 'button, div[role="button"]', IG_SELECTORS.notNow)
    await waitForFirst(page, { home: { selector: IG_SELECTORS.signedIn } }, session.timeouts.navigationMs)
  }
  const cookies = await session.context.context.cookies()
  if (!cookies.some((c) => c.name === 'sessionid' && c.value))
    return { status: 'error', message: 'Instagram did not give a session cookie.' }
  return { status: 'ok', reused: false }
}

export class InstagramSession implements PlatformSession {
  readonly platform = 'instagram' as const
  readonly timeouts: IgTimeouts
  readonly typing: TypingOptions
  readonly now: () => number
  user = { id: '', username: '', name: '' }
  readonly pages: SessionPages

  constructor(
    readonly context: AccountContext,
    readonly baseUrl: string,
    options: InstagramSessionOptions,
  ) {
    this.timeouts = { ...DEFAULT_IG_TIMEOUTS, ...options.timeouts }
    this.pages = new SessionPages(context, 'Instagram', this.timeouts.navigationMs)
    this.typing = options.typing ?? REALISTIC_TYPING
    this.now = options.now ?? Date.now
  }

  /** Runs one operation on the session's page under a hard deadline; a hung page is replaced. */
  run<T>(operation: string, ms: number, work: (page: Page) => Promise<T>): Promise<T> {
    return this.pages.run(operation, ms, work)
  }

  page(): Promise<Page> {
    return this.pages.page()
  }

  park(): Promise<void> {
    return this.pages.park()
  }

  async goto(page: Page, path: string): Promise<void> {
    await navigate(page, `${this.baseUrl}${path}`, this.timeouts.navigationMs)
  }

  /** Throws the stop signal when Instagram sent the page to login or a checkpoint. */
  assertSignedIn(page: Page): void {
    const url = new URL(page.url())
    if (inChallenge(url)) throw new StopSignalError(challengeResult(page).signal)
    if (inLogin(url))
      throw new StopSignalError(
        stopSignal(
          'instagram',
          'unauthenticated',
          'login_required',
          'Instagram sent the session to the login page.',
        ),
      )
  }

  async readIdentity(username: string): Promise<void> {
    const cookies = await this.context.context.cookies()
    const id = cookies.find((c) => c.name === 'ds_user_id')?.value ?? ''
    this.user = { id, username, name: username }
  }

  sendDm(target: DmTarget, text: string): Promise<SendResult> {
    return sendIgDm(this, target, text)
  }

  readThread(threadId: string): Promise<ThreadMessage[]> {
    return readIgThread(this, threadId)
  }

  resolveUncertain(sent: { threadId: string; text: string; since: Date }): Promise<UncertainResolution> {
    return resolveIgUncertain(this, sent)
  }

  readInbox(options?: { includeRequests?: boolean }): Promise<InboxConversation[]> {
    return readIgInbox(this, options)
  }

  readReplies(since: Date): Promise<Reply[]> {
    return readIgReplies(this, since)
  }

  /** `enrich: false` skips web_profile_info per author (no counts, bio or business flag). */
  scrape(request: ScrapeRequest & { enrich?: boolean }): Promise<ScrapePage> {
    return scrapeInstagram(this, request)
  }

  /** The session's cookies, to save encrypted and reuse next run (fresh logins draw checkpoints). */
  async exportCookies(): Promise<SessionCookie[]> {
    return (await this.context.context.cookies()).map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      ...(c.expires > 0 ? { expires: Math.floor(c.expires) } : {}),
      httpOnly: c.httpOnly ?? false, // optional in puppeteer 25's Cookie type; BiDi always reports it
      secure: c.secure,
      ...(c.sameSite && c.sameSite !== 'Default' ? { sameSite: c.sameSite } : {}), // 'Default': none set
    }))
  }

  close(): Promise<void> {
    return this.pages.close()
  }
}
