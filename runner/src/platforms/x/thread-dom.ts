/// <reference lib="dom" />
// Reading X Chat's DOM inside its shadow root, by what the page shows: message rows (id, who sent
// them from the layout class, the words, error texts, the time label, a status icon's label where
// the page draws one), inbox rows (the test id or link gives the thread, labels say unread, the
// visible text gives the @handle and the preview, a time label), the composer's current value and
// the closed-inbox notice shown in its place. Everything located through the session's facts.
import type { Page } from 'puppeteer-core'
import { deepEval } from '../../browser/deep-query.ts'
import { regexOf, within } from '../facts.ts'
import { layoutChanged, type PlatformAction } from '../layout.ts'
import type { InboxConversation, ThreadMessage } from '../types.ts'
import type { XPageContext } from './context.ts'
import { timeOfLabel } from './time-label.ts'

interface RawRow {
  id: string
  text: string
  sent: boolean
  received: boolean
  label: string
  errorText: string | null
  timeLabel: string
}

/** The thread's message rows; a row whose sender the layout no longer tells is a site change. */
export async function readRows(
  session: XPageContext,
  page: Page,
  action: PlatformAction,
): Promise<ThreadMessage[]> {
  const { chat, texts } = session.facts
  const readAt = new Date(Date.now() + session.clockOffsetMs)
  const raw = await deepEval(
    page,
    within(chat.host, `${chat.messageScroller} ${chat.messageRow}`),
    (rows, f) =>
      rows.map((row): RawRow => {
        const id = row.getAttribute(f.idAttribute) ?? ''
        const holder = row.querySelector(f.text.split('{id}').join(CSS.escape(id)))
        const words = holder?.querySelector(f.words) ?? holder
        const time = row.querySelector(f.time)
        const visible = (row as HTMLElement).innerText ?? ''
        return {
          id,
          text: words?.textContent ?? '',
          sent: row.classList.contains(f.sentClass),
          received: row.classList.contains(f.receivedClass),
          label: row.querySelector(f.status)?.getAttribute('aria-label') ?? '',
          errorText: f.errors.find((e: string) => visible.includes(e)) ?? null,
          timeLabel: time?.textContent ?? '',
        }
      }),
    {
      idAttribute: chat.messageRowIdAttribute,
      text: chat.messageText,
      words: chat.messageWords,
      time: chat.messageTime,
      sentClass: chat.sentClass,
      receivedClass: chat.receivedClass,
      status: chat.messageStatus,
      errors: texts.sendErrors,
    },
  )
  if (raw.some((r) => r.sent === r.received))
    throw await layoutChanged(page, 'x', action, 'read thread: who sent a message row')
  const { delivered, pending } = texts.sendStatus
  return raw.map((r) => ({
    id: r.id,
    text: r.text,
    direction: r.sent ? 'outgoing' : 'incoming',
    status: r.received
      ? 'received'
      : r.errorText
        ? 'failed'
        : delivered.includes(r.label)
          ? 'delivered'
          : pending.includes(r.label)
            ? 'pending'
            : '',
    at: timeOfLabel(session.facts, r.timeLabel, readAt),
  }))
}

/** Everything X Chat shows now (its shadow tree's visible text), for error texts anywhere in it. */
export async function chatText(session: XPageContext, page: Page): Promise<string> {
  return deepEval(
    page,
    session.facts.chat.host,
    (hosts) =>
      hosts
        .flatMap((host) => Array.from((host.shadowRoot ?? host).children))
        .map((child) => (child as HTMLElement).innerText ?? '')
        .join('\n'),
    null,
  ).catch(() => '')
}

export async function composerText(session: XPageContext, page: Page): Promise<string | null> {
  const { chat } = session.facts
  return deepEval(
    page,
    within(chat.host, chat.composer),
    (elements) => (elements[0] ? (elements[0] as HTMLTextAreaElement).value : null),
    null,
  ).catch(() => null)
}

export async function readConversationRows(
  session: XPageContext,
  page: Page,
  request: boolean,
): Promise<InboxConversation[]> {
  const { chat, texts } = session.facts
  const readAt = new Date(Date.now() + session.clockOffsetMs)
  const raw = await deepEval(
    page,
    within(chat.host, `${chat.conversationScroller} ${chat.conversationRow}`),
    (rows, f) =>
      rows.map((row) => ({
        testid: row.getAttribute('data-testid') ?? '',
        href: row.querySelector(f.link)?.getAttribute('href') ?? '',
        labels: `${row.getAttribute('aria-label') ?? ''} ${row.getAttribute('aria-description') ?? ''}`,
        text: (row as HTMLElement).innerText ?? '',
        timeLabel: row.querySelector(f.time)?.textContent ?? '',
      })),
    { link: chat.conversationRowLink, time: chat.conversationRowTime },
  )
  const threadPath = regexOf(session.facts.threadPath)
  const handle = regexOf(texts.handle)
  const unread = regexOf(texts.unread)
  return raw.map((row) => {
    const fromTestId = row.testid.startsWith(chat.conversationRowPrefix)
      ? row.testid.slice(chat.conversationRowPrefix.length).replace(':', '-')
      : ''
    const threadId = threadPath.exec(row.href)?.[1] ?? fromTestId
    const lines = row.text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    const preview = lines.length > 1 ? (lines.at(-1) ?? '') : ''
    const outgoing = preview.startsWith(texts.ownPreviewPrefix)
    return {
      threadId,
      peer: {
        id: threadId.split('-').find((id) => id !== session.user.id) ?? null,
        username: handle.exec(row.text)?.[1] ?? '',
      },
      unread: unread.test(row.labels),
      request,
      lastMessage: {
        text: outgoing ? preview.slice(texts.ownPreviewPrefix.length) : preview,
        direction: preview ? (outgoing ? 'outgoing' : 'incoming') : null,
        at: timeOfLabel(session.facts, row.timeLabel, readAt),
      },
    }
  })
}

/**
 * The closed-inbox notice X shows in place of the composer ("@handle has a closed inbox. …" with
 * its "Not Now" / "Use X Number" buttons), read by its words and buttons; null when not shown.
 */
export async function closedInboxNotice(session: XPageContext, page: Page): Promise<string | null> {
  const { chat, texts } = session.facts
  const found = await deepEval(
    page,
    within(chat.host, chat.button),
    (buttons, f) => {
      const names = buttons.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim())
      if (!f.actions.every((action: string) => names.includes(action))) return null
      const notice = new RegExp(f.notice.source, f.notice.flags)
      // the smallest element holding the notice's words: the notice itself, not the whole chat
      const holder = buttons[0]?.getRootNode() as ParentNode | undefined
      const texts = Array.from(holder?.querySelectorAll('*') ?? [])
        .map((el) => (el as HTMLElement).innerText ?? '')
        .filter((text) => notice.test(text))
      return texts.sort((a, b) => a.length - b.length)[0]?.trim() ?? null
    },
    texts.closedInbox,
  ).catch(() => null)
  return found || null
}
