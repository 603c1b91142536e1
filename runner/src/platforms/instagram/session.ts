// An Instagram session in the browser: reuse saved cookies when they still sign in, otherwise log
// in (cookie banner, the nameless username/password fields found by type, the Log in button by role
// and text, TOTP from the user's 2FA secret, checkpoint detection, "save login info" prompt); then the
// one-operation-at-a-time page the other modules use. Everything it knows comes from `facts`.
import type { Page } from 'puppeteer-core'
import { deepElement } from '../../browser/deep-query.ts'
import { clickByText, pathStartsWith, textOf, waitForFirst } from '../../browser/page-wait.ts'
import type { AccountContext } from '../../browser/pool.ts'
import { REALISTIC_TYPING, type TypingOptions, typeLikeHuman } from '../../browser/typing.ts'
import { regexOf } from '../facts.ts'
import { layoutChanged } from '../layout.ts'
import { newPageSession, PageSession, type PageSessionPlace } from '../page-session.ts'
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
import type { IgPageContext, IgTimeouts } from './context.ts'
import { INSTAGRAM_FACTS, type InstagramFacts } from './facts.ts'
import { readIgInbox, readIgReplies, readIgThread, resolveIgUncertain } from './inbox.ts'
import { scrapeInstagram } from './scrape.ts'
import { sendIgDm } from './send.ts'
import { igSignalFromText } from './signals.ts'
import { msLeftInStep, totpCode } from './totp.ts'

export type { IgTimeouts } from './context.ts'

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

export interface InstagramSessionOptions extends PageSessionPlace<InstagramFacts> {
  typing?: TypingOptions
  timeouts?: Partial<IgTimeouts>
  /** The runner's clock (ms), for TOTP codes under a test clock. */
  now?: () => number
}

export type OpenInstagramResult =
  | { status: 'ok'; session: InstagramSession; reused: boolean }
  | { status: 'bad_credentials' | 'two_factor_failed' | 'two_factor_required' | 'error'; message: string }
  /** A page did not load in time and Instagram said nothing about the account. */
  | { status: 'slow'; message: string }
  | { status: 'challenge' | 'rate_limited'; signal: StopSignal }

/** How long a page that rendered may still take to show what the adapter waits for. */
const SETTLE_MS = 2_500

export async function openInstagramSession(
  credentials: InstagramCredentials,
  options: InstagramSessionOptions,
): Promise<OpenInstagramResult> {
  const session = await newPageSession(
    options,
    INSTAGRAM_FACTS,
    (...made) => new InstagramSession(...made, options),
  )
  const { context, baseUrl, facts } = session
  try {
    const result = await session.run('open session', session.timeouts.operationMs * 2, async (page) => {
      if (credentials.cookies?.length) {
        await context.context.setCookie(...rehome(credentials.cookies, baseUrl))
        await session.goto(page, facts.paths.home)
        const reused = await waitForFirst(
          page,
          {
            ok: { selector: facts.selectors.signedIn },
            login: { url: session.inLogin },
            challenge: { url: session.inChallenge },
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
    return session.closeAfterFailedOpen(error)
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
  const { paths, selectors, texts } = session.facts
  const t = session.timeouts.navigationMs
  await session.goto(page, paths.login)
  const form = await waitForFirst(
    page,
    { username: { selector: selectors.username }, password: { selector: selectors.password } },
    t,
  )
  if (!form) return { status: 'error', message: 'The Instagram login form did not appear.' }
  if (
    form === 'password' &&
    !(await waitForFirst(page, { username: { selector: selectors.username } }, SETTLE_MS))
  )
    throw await layoutChanged(page, 'instagram', 'session', 'log in: username field')
  if (await deepElement(page, selectors.cookieDialog))
    await clickByText(page, `${selectors.cookieDialog} button`, texts.cookieButtons)
  const username = await deepElement(page, selectors.username)
  const password = await deepElement(page, selectors.password)
  if (!username || !password)
    throw await layoutChanged(page, 'instagram', 'session', 'log in: the two fields')
  await typeLikeHuman(page, username, credentials.username, session.typing)
  await typeLikeHuman(page, password, credentials.password, session.typing)
  if (!(await clickByText(page, selectors.button, texts.logIn)))
    throw await layoutChanged(page, 'instagram', 'session', 'log in: Log in button')
  const outcome = await waitForFirst(
    page,
    {
      twoFactor: { url: pathStartsWith([paths.twoFactor]) },
      challenge: { url: session.inChallenge },
      oneTap: { url: pathStartsWith([paths.oneTap]) },
      home: { selector: selectors.signedIn },
      error: { text: /\S/, within: selectors.loginError },
    },
    t,
  )
  if (outcome === 'challenge') return challengeResult(page)
  if (outcome === 'error') {
    const message = (await textOf(page, selectors.loginError)).trim()
    const signal = igSignalFromText(session.facts, message)
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
  const { paths, selectors, texts } = session.facts
  const field = await waitForFirst(
    page,
    { field: { selector: selectors.verificationCode } },
    session.timeouts.navigationMs,
  )
  const input = field ? await deepElement(page, selectors.verificationCode) : null
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
  if (!(await clickByText(page, selectors.button, texts.confirmCode)))
    throw await layoutChanged(page, 'instagram', 'session', 'two-factor: Confirm button')
  const outcome = await waitForFirst(
    page,
    {
      done: { url: (url) => !url.pathname.startsWith(paths.twoFactor) },
      error: { text: /\S/, within: selectors.twoFactorError },
    },
    session.timeouts.navigationMs,
  )
  if (outcome === 'done') return session.inChallenge(new URL(page.url())) ? challengeResult(page) : undefined
  if (outcome === 'error')
    return { status: 'two_factor_failed', message: (await textOf(page, selectors.twoFactorError)).trim() }
  return { status: 'error', message: 'Instagram did not answer the 2FA code in time.' }
}

async function finishLogin(session: InstagramSession, page: Page): Promise<LoginOutcome> {
  const { paths, selectors, texts } = session.facts
  const outcome = await waitForFirst(
    page,
    {
      oneTap: { url: pathStartsWith([paths.oneTap]) },
      home: { selector: selectors.signedIn },
      challenge: { url: session.inChallenge },
    },
    session.timeouts.navigationMs,
  )
  if (outcome === 'challenge') return challengeResult(page)
  if (outcome === 'oneTap') {
    await waitForFirst(page, { prompt: { text: regexOf(texts.notNowPrompt) } }, session.timeouts.navigationMs)
    await clickByText(page, selectors.button, texts.notNow)
    await waitForFirst(page, { home: { selector: selectors.signedIn } }, session.timeouts.navigationMs)
  }
  const cookies = await session.context.context.cookies()
  if (!cookies.some((c) => c.name === session.facts.cookies.session && c.value))
    return { status: 'error', message: 'Instagram did not give a session cookie.' }
  return { status: 'ok', reused: false }
}

export class InstagramSession
  extends PageSession<InstagramFacts, IgTimeouts>
  implements PlatformSession, IgPageContext
{
  readonly platform = 'instagram' as const
  readonly now: () => number
  readonly inLogin: (url: URL) => boolean
  readonly inChallenge: (url: URL) => boolean

  constructor(
    context: AccountContext,
    baseUrl: string,
    facts: InstagramFacts,
    options: InstagramSessionOptions,
  ) {
    super(
      context,
      baseUrl,
      facts,
      { ...DEFAULT_IG_TIMEOUTS, ...options.timeouts },
      options.typing ?? REALISTIC_TYPING,
      'Instagram',
    )
    this.now = options.now ?? Date.now
    this.inLogin = pathStartsWith([facts.paths.login])
    this.inChallenge = pathStartsWith([facts.paths.challenge])
  }

  /** Throws the stop signal when Instagram sent the page to login or a checkpoint. */
  assertSignedIn(page: Page): void {
    const url = new URL(page.url())
    if (this.inChallenge(url)) throw new StopSignalError(challengeResult(page).signal)
    if (this.inLogin(url))
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
    const id = cookies.find((c) => c.name === this.facts.cookies.userId)?.value ?? ''
    this.user = { id, username, name: username }
  }

  sendDm(target: DmTarget, text: string): Promise<SendResult> {
    return sendIgDm(this, target, text)
  }

  readThread(threadId: string, options?: { stay?: boolean }): Promise<ThreadMessage[]> {
    return readIgThread(this, threadId, options)
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
}
