/// <reference lib="dom" />
// Reading X Chat's DOM inside its shadow root, by what the page shows: message rows (id, who sent
// them from the layout class, the words, the status icon's label, error texts, the time), inbox rows
// (the test id or link gives the thread, labels say unread, the visible text gives the @handle and
// the preview) and the composer's current value. Everything located through the session's facts.
import type { Page } from 'puppeteer-core'
import { deepEval } from '../../browser/deep-query.ts'
import { regexOf, within } from '../facts.ts'
import { layoutChanged, type PlatformAction } from '../layout.ts'
import type { InboxConversation, ThreadMessage } from '../types.ts'
import type { XSession } from './session.ts'

interface RawRow {
  id: string
  text: string
  sent: boolean
  received: boolean
  label: string
  errorText: string | null
  at: string | null
}

/** The thread's message rows; a row whose sender the layout no longer tells is a site change. */
export async function readRows(
  session: XSession,
  page: Page,
  action: PlatformAction,
): Promise<ThreadMessage[]> {
  const { chat, texts } = session.facts
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
          at: time?.getAttribute('datetime') ?? time?.getAttribute('title') ?? null,
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
    at: r.at,
  }))
}

/** Everything X Chat shows now (its shadow tree's visible text), for error texts anywhere in it. */
export async function chatText(session: XSession, page: Page): Promise<string> {
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

export async function composerText(session: XSession, page: Page): Promise<string | null> {
  const { chat } = session.facts
  return deepEval(
    page,
    within(chat.host, chat.composer),
    (elements) => (elements[0] ? (elements[0] as HTMLTextAreaElement).value : null),
    null,
  ).catch(() => null)
}

export async function readConversationRows(
  session: XSession,
  page: Page,
  request: boolean,
): Promise<InboxConversation[]> {
  const { chat, texts } = session.facts
  const raw = await deepEval(
    page,
    within(chat.host, `${chat.conversationScroller} ${chat.conversationRow}`),
    (rows, f) =>
      rows.map((row) => ({
        testid: row.getAttribute('data-testid') ?? '',
        href: row.querySelector(f.link)?.getAttribute('href') ?? '',
        labels: `${row.getAttribute('aria-label') ?? ''} ${row.getAttribute('aria-description') ?? ''}`,
        text: (row as HTMLElement).innerText ?? '',
        at: row.querySelector(f.time)?.getAttribute('datetime') ?? null,
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
        at: row.at,
      },
    }
  })
}
