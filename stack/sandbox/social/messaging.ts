// What happens when one of "our" accounts sends a DM in a sandbox: the pacing rules that end in
// rate limits or automation blocks, the recipient's DM settings, the delivery log, and recipients
// who answer after a delay. Both platforms share it; each maps refusals to its own errors.
import { randomUUID } from 'node:crypto'
import type { Population, Profile } from './population.ts'
import { unitHash } from './random.ts'
import type { Fault, Message, OwnAccount, Thread, World } from './state.ts'

export type SendRefusal =
  | 'locked'
  | 'expired'
  | 'blocked'
  | 'daily_limit'
  | 'too_fast'
  | 'same_text'
  | 'cannot_dm'
  | 'verified_only'

const DAY = 86_400_000
const REPLIES = [
  'Thanks for reaching out! Tell me more.',
  'Interesting, what does it cost?',
  'Sure, happy to chat. When works for you?',
  'Not interested, thanks.',
  'Can you send more details?',
  'Who is this?',
]
const OPT_OUTS = ['stop', 'Please unsubscribe me', 'STOP']

export interface MessagingOptions {
  /** The thread id of the one-to-one conversation between an account and a peer. */
  threadId(account: OwnAccount, peerId: string): string
  seed: string
}

export class Messaging {
  readonly #pendingReplies = new Set<string>()

  constructor(
    readonly world: World,
    readonly population: Population,
    readonly options: MessagingOptions,
  ) {
    for (const thread of world.threads.values()) if (thread.pendingReply) this.#pendingReplies.add(thread.id)
    for (const named of world.namedProfiles) population.addNamed(named)
  }

  /** A profile of the population or one of our accounts (they can message each other). */
  person(id: string): Profile | OwnAccount | undefined {
    return this.population.byId(id) ?? this.world.accounts.get(id)
  }

  existingThread(account: OwnAccount, peerId: string): Thread | undefined {
    return this.world.threads.get(this.options.threadId(account, peerId))
  }

  /** The thread between account and peer, created empty (and stored) when it did not exist. */
  openThread(account: OwnAccount, peerId: string, startedByPeer = false): Thread {
    const id = this.options.threadId(account, peerId)
    let thread = this.world.threads.get(id)
    if (!thread) {
      thread = {
        id,
        accountId: account.id,
        peerId,
        messages: [],
        readAt: 0,
        startedByPeer,
        replyDecided: startedByPeer,
      }
      this.world.threads.set(id, thread)
    }
    return thread
  }

  /** Why this send would be refused, or undefined when it goes through. Records pacing hits. */
  checkSend(account: OwnAccount, peerId: string, text: string): SendRefusal | undefined {
    const now = this.world.now()
    const rules = this.world.behaviourOf(account)
    if (account.state === 'locked') return 'locked'
    if (account.state === 'expired') return 'expired'
    if (account.blockedUntil > now) return 'blocked'
    account.sendTimes = account.sendTimes.filter((t) => t > now - DAY)
    account.sentTexts = account.sentTexts.filter((t) => t.at > now - DAY)
    if (account.sendTimes.length >= rules.dailyDmLimit) return 'daily_limit'
    const lastMinute = account.sendTimes.filter((t) => t > now - 60_000).length
    const sameText = account.sentTexts.filter((t) => t.text === text).length
    if (lastMinute >= rules.maxSendsPerMinute || sameText >= rules.maxSameText) {
      account.blockedUntil = now + rules.blockMs
      this.world.changed()
      return lastMinute >= rules.maxSendsPerMinute ? 'too_fast' : 'same_text'
    }
    if (this.closedTo(account, peerId)) return 'cannot_dm'
    const peer = this.population.byId(peerId)
    if (peer?.verifiedOnlyRequests && !account.blueVerified && !this.#peerWrote(account, peerId))
      return 'verified_only'
    return undefined
  }

  /** Whether the peer takes no DMs from this account (a closed inbox): none was ever written to it. */
  closedTo(account: OwnAccount, peerId: string): boolean {
    const peer = this.population.byId(peerId)
    return peer !== undefined && !peer.canDm && !this.#peerWrote(account, peerId)
  }

  #peerWrote(account: OwnAccount, peerId: string): boolean {
    return this.existingThread(account, peerId)?.messages.some((m) => m.senderId === peerId) ?? false
  }

  /** Stores a sent DM (idempotent per requestId) and logs its delivery. */
  deliver(
    account: OwnAccount,
    peerId: string,
    text: string,
    requestId?: string,
  ): { thread: Thread; message: Message } {
    const thread = this.openThread(account, peerId)
    const existing = requestId ? thread.messages.find((m) => m.requestId === requestId) : undefined
    if (existing) return { thread, message: existing }
    const now = this.world.now()
    const message: Message = { id: requestId ?? randomUUID(), senderId: account.id, text, at: now, requestId }
    thread.messages.push(message)
    thread.readAt = now
    account.sendTimes.push(now)
    account.sentTexts.push({ text, at: now })
    const peer = this.person(peerId)
    this.world.deliveries.push({
      id: message.id,
      account: account.username,
      accountId: account.id,
      threadId: thread.id,
      recipientId: peerId,
      recipientUsername: peer?.username ?? peerId,
      text,
      at: now,
      requestId,
    })
    if (!thread.replyDecided) {
      thread.replyDecided = true
      this.#maybeScheduleReply(account, thread)
    }
    this.world.changed()
    return { thread, message }
  }

  #maybeScheduleReply(account: OwnAccount, thread: Thread): void {
    const rules = this.world.behaviourOf(account)
    const seed = this.options.seed
    if (unitHash(seed, 'reply', account.id, thread.peerId) >= rules.replyShare) return
    const [min, max] = rules.replyDelayMs
    const delay =
      min + Math.floor(unitHash(seed, 'delay', account.id, thread.peerId) * Math.max(0, max - min))
    const optOut = unitHash(seed, 'optout', account.id, thread.peerId) < rules.optOutShare
    const texts = optOut ? OPT_OUTS : REPLIES
    const text = texts[Math.floor(unitHash(seed, 'text', account.id, thread.peerId) * texts.length)] ?? 'Hi'
    this.scheduleReply(thread, text, this.world.now() + delay)
  }

  scheduleReply(thread: Thread, text: string, at: number): void {
    thread.pendingReply = { at, text }
    this.#pendingReplies.add(thread.id)
    this.world.changed()
  }

  /**
   * A message from the peer, now (replies and message requests). It arrived after the thread was
   * last read, so it is unread even when both fall in the same millisecond of the clock (a reply
   * right after the account's own DM, which marks the thread read): its time is after readAt.
   */
  receive(thread: Thread, text: string): Message {
    const at = Math.max(this.world.now(), thread.readAt + 1)
    const message: Message = { id: randomUUID(), senderId: thread.peerId, text, at }
    thread.messages.push(message)
    this.world.changed()
    return message
  }

  /** Turns replies that are due (on the sandbox clock) into messages. */
  deliverDueReplies(): void {
    const now = this.world.now()
    for (const id of this.#pendingReplies) {
      const thread = this.world.threads.get(id)
      if (!thread?.pendingReply) {
        this.#pendingReplies.delete(id)
        continue
      }
      if (thread.pendingReply.at > now) continue
      this.receive(thread, thread.pendingReply.text)
      thread.pendingReply = undefined
      this.#pendingReplies.delete(id)
    }
  }

  unread(thread: Thread): number {
    return thread.messages.filter((m) => m.senderId !== thread.accountId && m.at > thread.readAt).length
  }

  /** Takes one use of the first matching fault, if any. */
  takeFault(account: OwnAccount | undefined, target: Fault['target'], path?: string): Fault | undefined {
    const fault = this.world.faults.find(
      (f) =>
        f.target === target &&
        (!f.account || f.account.toLowerCase() === account?.username.toLowerCase()) &&
        (!f.path || (path ?? '').startsWith(f.path)),
    )
    if (!fault) return undefined
    fault.remaining--
    if (fault.remaining <= 0) this.world.faults.splice(this.world.faults.indexOf(fault), 1)
    return fault
  }

  /** Counts one scraping request against the account's window; says whether it is allowed. */
  scrapeAllowance(account: OwnAccount): {
    allowed: boolean
    limit: number
    remaining: number
    resetAt: number
  } {
    const now = this.world.now()
    const rules = this.world.behaviourOf(account)
    account.scrapeTimes = account.scrapeTimes.filter((t) => t > now - rules.scrapeWindowMs)
    const resetAt = (account.scrapeTimes[0] ?? now) + rules.scrapeWindowMs
    if (account.scrapeTimes.length >= rules.scrapeLimit) {
      return { allowed: false, limit: rules.scrapeLimit, remaining: 0, resetAt }
    }
    account.scrapeTimes.push(now)
    this.world.changed()
    return {
      allowed: true,
      limit: rules.scrapeLimit,
      remaining: rules.scrapeLimit - account.scrapeTimes.length,
      resetAt,
    }
  }
}

/** A fresh account record with the pacing fields empty. */
export function newAccount(
  fields: Pick<OwnAccount, 'id' | 'username' | 'name'> & Partial<OwnAccount>,
  now: number,
): OwnAccount {
  return {
    state: 'active',
    blueVerified: false,
    createdAt: now,
    behaviour: {},
    sendTimes: [],
    sentTexts: [],
    scrapeTimes: [],
    blockedUntil: 0,
    passcodeFailures: 0,
    chatLocked: false,
    loginTimes: [],
    sessionIds: [],
    ...fields,
  }
}
