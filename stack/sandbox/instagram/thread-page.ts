// The /direct/t/<id>/ page as public readers describe Instagram's 2026 web: no role=row or grid, the
// messages in [data-pagelet="IGDMessagesList"] laid out column-reverse (newest first in the DOM,
// shown at the bottom), one's own told apart only by a flex-end layout, no message ids or times in
// the page, only the newest messages rendered (the rest come and go as the list scrolls), no
// aria-label "Conversation…". The composer is a contenteditable textbox labelled "Message" sent by
// its Send button; a lead who takes no messages gets a notice in its place.
import { escapeHtml as e } from '../social/http.ts'
import type { Messaging, SendRefusal } from '../social/messaging.ts'
import { hash32 } from '../social/random.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import { IG_MESSAGES } from './accounts.ts'
import { THREAD_JS } from './thread-client.ts'

/** How many of the newest messages the page renders at first (and at most, per direction scrolled). */
export const RENDERED_MESSAGES = 20

/** Class names as a build tool mangles them: the adapter must not rely on them. */
export const THREAD_STYLE = `.x78zum5{display:flex;margin:2px 0}.x13a6bvl{justify-content:flex-end}.x1nhvcw1{justify-content:flex-start}
.x1n2onr6{padding:8px 12px;border-radius:18px;max-width:70%;white-space:pre-wrap}.x13a6bvl .x1n2onr6{background:#3797f0;color:#fff}
.x1nhvcw1 .x1n2onr6{background:#efefef}.xpending{opacity:.6}
[data-pagelet="IGDMessagesList"]{display:flex;flex-direction:column-reverse;overflow-y:auto;height:60vh}`

/** The notices Instagram shows in place of the composer when a person takes no messages from us. */
const NOTICES = [
  IG_MESSAGES.cannotReceive,
  "Messages from this account can't be received.",
  "This account isn't accepting message requests.",
] as const

/** Which notice a refusing person shows: fixed per person, so a test can name the reason it expects. */
export function refusalNotice(peerId: string, refusal: SendRefusal): string {
  if (refusal === 'verified_only') return NOTICES[2]
  return NOTICES[hash32(`notice:${peerId}`) % NOTICES.length] ?? NOTICES[0]
}

/** A person who never wrote and takes no messages (or only from verified senders) refuses the thread. */
export function threadRefusal(
  messaging: Messaging,
  account: OwnAccount,
  thread: Thread,
): SendRefusal | undefined {
  const peer = messaging.person(thread.peerId)
  if (!peer || !('canDm' in peer) || thread.messages.some((m) => m.senderId === thread.peerId))
    return undefined
  if (!peer.canDm) return 'cannot_dm'
  if (peer.verifiedOnlyRequests && !account.blueVerified) return 'verified_only'
  return undefined
}

export function messageRow(text: string, mine: boolean): string {
  return `<div role="none" class="x78zum5 ${mine ? 'x13a6bvl' : 'x1nhvcw1'}"><div dir="auto" class="x1n2onr6">${e(text)}</div></div>`
}

/** The page body and the data its script keeps (every message, for the list to render on scroll). */
export function threadPage(
  messaging: Messaging,
  account: OwnAccount,
  thread: Thread,
): { body: string; data: Record<string, unknown>; script: string } {
  const peer = messaging.person(thread.peerId)
  const username = peer?.username ?? ''
  const messages = thread.messages.map((m) => ({
    id: m.id,
    text: m.text,
    mine: m.senderId === account.id,
    context: m.requestId ?? m.id,
  }))
  const newestFirst = messages
    .slice(-RENDERED_MESSAGES)
    .reverse()
    .map((m) => messageRow(m.text, m.mine))
    .join('')
  const refusal = threadRefusal(messaging, account, thread)
  const composer = refusal
    ? `<div role="status" class="x9f619"><span dir="auto">${e(refusalNotice(thread.peerId, refusal))}</span></div>`
    : `<div role="textbox" contenteditable="true" aria-label="Message" aria-describedby="Message" spellcheck="true" style="border:1px solid #dbdbdb;border-radius:22px;padding:10px;min-height:20px"></div>
<div role="button" tabindex="0" id="send-button">Send</div>`
  const body = `<main><div role="presentation"><a href="/${e(username)}/" role="link">${e(username)}</a></div>
<div data-pagelet="IGDMessagesList">${newestFirst}</div>${composer}</main>`
  return {
    body,
    data: { threadId: thread.id, messages, rendered: RENDERED_MESSAGES },
    script: refusal ? '' : THREAD_JS,
  }
}
