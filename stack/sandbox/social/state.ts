// The mutable world of a social sandbox: "our" accounts (the ones customers connect), DM threads,
// the delivery log, behaviour settings and the clock offset. Kept in memory and mirrored to a
// JSON file so a sandbox restart keeps the log.

import { SandboxClock } from './clock.ts'
import type { NamedProfile } from './population.ts'
import { readSaved, SavedFile } from './saved-file.ts'

export type AccountState = 'active' | 'locked' | 'expired'

export interface BehaviourConfig {
  /** Share of recipients (0–1) who answer a first message. */
  replyShare: number
  /** A reply arrives this long after the first message (min, max; sandbox clock). */
  replyDelayMs: [number, number]
  /** Share of replies that are opt-outs ("stop", "unsubscribe"). */
  optOutShare: number
  /** More sends than this within 60 s trip the automation block (X 226 / Instagram feedback_required). */
  maxSendsPerMinute: number
  /** The same text sent to more than this many people within 24 h trips the automation block. */
  maxSameText: number
  /** How long an automation block lasts. */
  blockMs: number
  /** DMs per sandbox day before the rate limit (X 88 / Instagram 429). */
  dailyDmLimit: number
  /** Scraping requests (followers, following, search) per window before 429 / code 88. */
  scrapeLimit: number
  scrapeWindowMs: number
  /**
   * Instagram: 1 when www.instagram.com/api/v1/direct_v2/ (inbox, pending inbox, thread) answers the
   * web page; 0 when it answers as an unknown endpoint (404), the harder reading of the 2026 web.
   */
  webDirectJson: number
  /** X Chat's inbox rows: 1 draws the last message's time label, 0 none (the live list may draw none). */
  inboxRowTimes: number
}

export const DEFAULT_BEHAVIOUR: BehaviourConfig = {
  replyShare: 0.3,
  replyDelayMs: [60_000, 300_000],
  optOutShare: 0.1,
  maxSendsPerMinute: 20,
  maxSameText: 100,
  blockMs: 60 * 60_000,
  dailyDmLimit: 500,
  scrapeLimit: 50,
  scrapeWindowMs: 15 * 60_000,
  webDirectJson: 0,
  inboxRowTimes: 1,
}

export interface OwnAccount {
  id: string
  username: string
  name: string
  state: AccountState
  blueVerified: boolean
  createdAt: number
  /** Per-account overrides of the behaviour settings. */
  behaviour: Partial<BehaviourConfig>
  /** Sends and scrape requests (sandbox times) for the pacing rules. */
  sendTimes: number[]
  sentTexts: { text: string; at: number }[]
  scrapeTimes: number[]
  blockedUntil: number
  /** X: session cookies and the X Chat passcode. */
  authToken?: string
  ct0?: string
  passcode?: string
  passcodeFailures: number
  chatLocked: boolean
  /** X Chat's key (base64), made on first use; pages get it wrapped with the passcode. */
  chatKey?: string
  /** Instagram: password, TOTP secret (base32) and checkpoint behaviour. */
  password?: string
  totpSecret?: string | null
  challenge?: 'never' | 'next' | 'always'
  loginTimes: number[]
  sessionIds: string[]
}

export interface Message {
  id: string
  senderId: string
  text: string
  at: number
  requestId?: string
}

export interface Thread {
  id: string
  accountId: string
  peerId: string
  messages: Message[]
  /** The account has read everything up to this time (for unread markers). */
  readAt: number
  /** The peer wrote first: the thread is a message request until the account answers. */
  startedByPeer: boolean
  replyDecided: boolean
  pendingReply?: { at: number; text: string }
}

export interface Delivery {
  id: string
  account: string
  accountId: string
  threadId: string
  recipientId: string
  recipientUsername: string
  text: string
  at: number
  requestId?: string
}

export interface Fault {
  account?: string
  /** send: the next DM sends; page: HTML pages; api: JSON endpoints (optionally under `path`). */
  target: 'send' | 'page' | 'api'
  /**
   * error: answer with `code`; ack_lost: deliver, never answer; dropped: neither; delayed: answer
   * nothing and deliver after `delayMs`; error_after_delivery: deliver, then 500; http_500; hang.
   */
  mode: 'error' | 'ack_lost' | 'dropped' | 'delayed' | 'error_after_delivery' | 'http_500' | 'hang'
  /** For mode "error": the platform error to answer with (X codes 88/226/326/349/476, 429). */
  code?: number
  path?: string
  delayMs?: number
  remaining: number
}

export interface SavedWorld {
  accounts: OwnAccount[]
  threads: Thread[]
  deliveries: Delivery[]
  behaviour: BehaviourConfig
  clockOffsetMs: number
  /** People added by name (Population.addNamed), re-added in this order on load. */
  namedProfiles?: NamedProfile[]
}

export class World {
  accounts = new Map<string, OwnAccount>()
  threads = new Map<string, Thread>()
  deliveries: Delivery[] = []
  behaviour: BehaviourConfig = { ...DEFAULT_BEHAVIOUR }
  faults: Fault[] = []
  namedProfiles: NamedProfile[] = []
  readonly clock = new SandboxClock()
  readonly #saved: SavedFile

  constructor(readonly file: string | undefined) {
    this.#saved = new SavedFile(
      file,
      (): SavedWorld => ({
        accounts: [...this.accounts.values()],
        threads: [...this.threads.values()],
        deliveries: this.deliveries,
        behaviour: this.behaviour,
        clockOffsetMs: this.clock.offsetMs,
        namedProfiles: this.namedProfiles,
      }),
    )
  }

  accountByUsername(username: string): OwnAccount | undefined {
    const wanted = username.replace(/^@/, '').toLowerCase()
    for (const account of this.accounts.values())
      if (account.username.toLowerCase() === wanted) return account
    return undefined
  }

  behaviourOf(account: OwnAccount): BehaviourConfig {
    return { ...this.behaviour, ...account.behaviour }
  }

  threadsOf(accountId: string): Thread[] {
    return [...this.threads.values()].filter((t) => t.accountId === accountId)
  }

  now(): number {
    return this.clock.now()
  }

  /** Loads the saved world, if any. */
  load(): void {
    const saved = readSaved<SavedWorld>(this.file)
    if (!saved) return
    this.accounts = new Map(saved.accounts.map((a) => [a.id, a]))
    this.threads = new Map(saved.threads.map((t) => [t.id, t]))
    this.deliveries = saved.deliveries
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...saved.behaviour }
    this.clock.setOffset(saved.clockOffsetMs ?? 0)
    this.namedProfiles = saved.namedProfiles ?? []
  }

  /** Saves soon (coalescing bursts of changes). */
  changed(): void {
    this.#saved.changed()
  }

  saveNow(): void {
    this.#saved.saveNow()
  }
}
