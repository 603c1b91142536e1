/// <reference lib="dom" />
// Opening X Chat, which renders client-side inside an open shadow root: wait for the page's ready
// marker, the passcode screen (the stored passcode is entered once, never guessed), a locked X Chat,
// a signed-out session, or X's own error. When the chat finished rendering without the marker the
// adapter knows, the site changed: that is a LayoutChangedError, not a slow page.
import type { Page } from 'puppeteer-core'
import { deepElement, deepElements } from '../../browser/deep-query.ts'
import { textOf, waitForFirst } from '../../browser/page-wait.ts'
import { typeLikeHuman } from '../../browser/typing.ts'
import { regexOf, within } from '../facts.ts'
import { layoutChanged, type PlatformAction } from '../layout.ts'
import { type StopSignal, StopSignalError, stopSignal } from '../types.ts'
import { type ChatOpening, SETTLE_MS, type XPageContext } from './context.ts'
import { xSignalFromText } from './signals.ts'

export type UnlockResult =
  | { status: 'unlocked' | 'not_needed' }
  | { status: 'wrong_passcode' | 'chat_locked' | 'passcode_required'; signal: StopSignal }

function chatSignal(message: string): StopSignal {
  return stopSignal('x', 'chat_locked', 'xchat_passcode', message)
}

type Seen = 'ready' | 'missing' | 'pin' | 'chatLocked' | 'signedOut' | 'locked' | 'trouble' | 'rendered'

/** Waits for the first sign of what the chat page is; a render without the marker is a site change. */
async function awaitChat(
  session: XPageContext,
  page: Page,
  ready: string,
  action: PlatformAction,
  step: string,
): Promise<Exclude<Seen, 'rendered'> | undefined> {
  const { chat, texts } = session.facts
  const outcomes = {
    ready: { selector: within(chat.host, ready) },
    missing: { text: regexOf(texts.missingConversation), within: chat.host },
    pin: { selector: within(chat.host, chat.pinContainer) },
    chatLocked: { text: regexOf(texts.passcodeLocked), within: chat.host },
    signedOut: { url: session.signedOut },
    locked: { url: session.locked },
    trouble: { text: /\S/, within: within(chat.host, chat.alert) },
    rendered: { settled: chat.host, loading: chat.loading },
  }
  const seen = await waitForFirst(page, outcomes, session.timeouts.navigationMs)
  if (seen !== 'rendered') {
    if (
      seen === undefined &&
      (await deepElement(page, session.facts.app.signedIn)) &&
      !(await deepElement(page, chat.host))
    )
      throw await layoutChanged(page, 'x', action, `${step}: X Chat host`)
    return seen
  }
  const { rendered: _, ...rest } = outcomes
  const late = await waitForFirst(page, rest, SETTLE_MS)
  if (late) return late
  throw await layoutChanged(page, 'x', action, step)
}

/** X's error on a chat page (its "Something went wrong", a refusal): a stop signal or page trouble. */
async function troubleOf(session: XPageContext, page: Page): Promise<Error> {
  const text = await textOf(page, within(session.facts.chat.host, session.facts.chat.alert))
  const signal = xSignalFromText(session.facts, text)
  return signal ? new StopSignalError(signal) : new Error(`X Chat shows an error: ${text.slice(0, 200)}`)
}

/** Whether the page already shows `path` rendered (its ready marker, no loading slot). */
async function showing(session: XPageContext, page: Page, path: string, ready: string): Promise<boolean> {
  const { chat } = session.facts
  return (
    new URL(page.url()).pathname === path &&
    (await deepElement(page, within(chat.host, ready))) !== null &&
    (await deepElement(page, within(chat.host, chat.loading))) === null
  )
}

export async function openChat(
  session: XPageContext,
  page: Page,
  path: string,
  ready: string,
  action: PlatformAction,
  step: string,
  options: { reuse?: boolean } = {},
): Promise<ChatOpening> {
  // a follow-up's reply check just read this thread and left the page on it: the send types into
  // it as it is (only then: a page that merely navigated there has not been waited for)
  const kept = session.keptThread === path
  session.keptThread = undefined
  if (options.reuse && kept && (await showing(session, page, path, ready))) return 'ready'
  await session.goto(page, path)
  for (let attempt = 0; attempt < 2; attempt++) {
    const seen = await awaitChat(session, page, ready, action, step)
    if (seen === 'ready' || seen === 'missing') return seen
    if (seen === 'signedOut' || seen === 'locked') session.assertSignedIn(page)
    if (seen === 'trouble') throw await troubleOf(session, page)
    if (seen === 'pin') {
      const result = await enterPasscode(session, page)
      if ('signal' in result) throw new StopSignalError(result.signal)
      await session.goto(page, path)
      continue
    }
    if (seen === 'chatLocked')
      throw new StopSignalError(chatSignal('X Chat is locked after too many passcode attempts.'))
    throw new Error(`X Chat page ${path} did not load in time`)
  }
  throw new Error(`X Chat kept asking for the passcode on ${path}`)
}

export async function unlockChat(session: XPageContext, passcode?: string): Promise<UnlockResult> {
  if (passcode !== undefined) {
    session.passcode = passcode
    session.passcodeRejected = false
  }
  return session.run('unlock chat', session.timeouts.operationMs, async (page) => {
    await session.goto(page, session.path('messages'))
    const seen = await awaitChat(
      session,
      page,
      session.facts.chat.inboxPanel,
      'session',
      'unlock chat: inbox',
    )
    if (seen === 'ready') return { status: 'not_needed' } as const
    if (seen === 'signedOut' || seen === 'locked') session.assertSignedIn(page)
    if (seen === 'trouble') throw await troubleOf(session, page)
    if (seen === 'chatLocked')
      return {
        status: 'chat_locked',
        signal: chatSignal('X Chat is locked after too many passcode attempts.'),
      } as const
    if (seen === 'pin') return enterPasscode(session, page)
    throw new Error('X Chat did not load in time')
  })
}

async function enterPasscode(session: XPageContext, page: Page): Promise<UnlockResult> {
  const { chat, texts } = session.facts
  if (!session.passcode || session.passcodeRejected)
    return {
      status: 'passcode_required',
      signal: chatSignal(
        session.passcodeRejected
          ? 'The stored X Chat passcode was rejected.'
          : 'X Chat asks for a passcode and none is stored.',
      ),
    }
  if (!/^\d{4}$/.test(session.passcode))
    return {
      status: 'passcode_required',
      signal: chatSignal('The stored X Chat passcode is not 4 digits.'),
    }
  const inputs = await deepElements(page, within(chat.host, `${chat.pinContainer} ${chat.pinInput}`))
  if (inputs.length !== 4)
    throw await layoutChanged(page, 'x', 'session', `passcode: ${inputs.length} digit inputs, expected 4`)
  for (const [i, input] of inputs.entries()) {
    await typeLikeHuman(page, input, session.passcode.charAt(i), session.typing)
  }
  const chatPin = session.path('chatPin')
  const outcome = await waitForFirst(
    page,
    {
      unlocked: { url: (url) => !url.pathname.startsWith(chatPin) },
      incorrect: { text: regexOf(texts.passcodeIncorrect), within: chat.host },
      chatLocked: { text: regexOf(texts.passcodeLocked), within: chat.host },
    },
    session.timeouts.navigationMs,
  )
  if (outcome === 'unlocked') return { status: 'unlocked' }
  session.passcodeRejected = true // never guess: a wrong passcode is not tried again by itself
  if (outcome === 'incorrect')
    return { status: 'wrong_passcode', signal: chatSignal('X Chat says the stored passcode is incorrect.') }
  if (outcome === 'chatLocked')
    return {
      status: 'chat_locked',
      signal: chatSignal('X Chat is locked after too many passcode attempts.'),
    }
  throw new Error('X Chat did not answer the passcode in time')
}
