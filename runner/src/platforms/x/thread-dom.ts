/// <reference lib="dom" />
// Reading X Chat's DOM: message rows of a thread (id, direction, text, send status, time),
// inbox/request rows, and the composer's current text.
import type { Page } from 'puppeteer-core'
import type { InboxConversation, ThreadMessage } from '../types.ts'
import { X_SELECTORS } from './selectors.ts'

export async function readRows(page: Page): Promise<ThreadMessage[]> {
  const s = X_SELECTORS
  return page.$$eval(
    s.messageRow,
    (rows, s) =>
      rows.map((row) => ({
        id: row.getAttribute(s.messageRowId) ?? '',
        text: row.querySelector(s.messageText)?.textContent ?? '',
        direction:
          row.getAttribute(s.messageDirection) === 'incoming' ? ('incoming' as const) : ('outgoing' as const),
        status: row.getAttribute(s.sendStatus) ?? '',
        at: row.querySelector('time')?.getAttribute('datetime') ?? null,
      })),
    s,
  )
}

export async function composerText(page: Page): Promise<string | null> {
  return page
    .$eval(X_SELECTORS.composer, (el) =>
      el instanceof HTMLTextAreaElement ? el.value : (el as HTMLElement).innerText,
    )
    .catch(() => null)
}

export async function readConversationRows(
  page: Page,
  selfId: string,
  request: boolean,
): Promise<InboxConversation[]> {
  const s = X_SELECTORS
  const raw = await page.$$eval(
    request ? s.requestRow : s.inboxRow,
    (rows, s) =>
      rows.map((row) => ({
        testid: row.getAttribute('data-testid') ?? '',
        username: row.querySelector(s.rowUsername)?.textContent ?? '',
        preview: row.querySelector(s.rowPreview)?.textContent ?? '',
        unread: row.getAttribute('data-unread') === 'true' || row.querySelector(s.rowUnread) !== null,
        at: row.querySelector('time')?.getAttribute('datetime') ?? null,
      })),
    s,
  )
  const prefix = request ? s.requestRowPrefix : s.inboxRowPrefix
  return raw.map((row) => {
    const threadId = row.testid.slice(prefix.length)
    const outgoing = row.preview.startsWith('You: ')
    return {
      threadId,
      peer: {
        id: threadId.split('-').find((id) => id !== selfId) ?? null,
        username: row.username.replace(/^@/, '').trim(),
      },
      unread: row.unread,
      request,
      lastMessage: {
        text: outgoing ? row.preview.slice(5) : row.preview,
        direction: row.preview ? (outgoing ? 'outgoing' : 'incoming') : null,
        at: row.at,
      },
    }
  })
}
