// The world of the Meta sandbox (Instagram API with Instagram Login): one Meta app (its id,
// secret, redirect URIs and webhook subscription), Instagram professional accounts that log in on
// the consent screen, the people who comment and write to them, media, comments, DMs, tokens,
// webhook deliveries and a log of every API call. Times are on the sandbox clock.
import { randomBytes, randomInt } from 'node:crypto'
import { JsonStore } from '../official/store.ts'
import { SandboxClock } from '../social/clock.ts'
import { hash32 } from '../social/random.ts'

export type AccountType = 'BUSINESS' | 'MEDIA_CREATOR' | 'PERSONAL'

export interface MetaApp {
  appId: string
  appSecret: string
  name: string
  redirectUris: string[]
  /** The webhook callback set in the App Dashboard; verified with a hub.challenge GET. */
  webhookUrl: string | null
  verifyToken: string | null
  verifiedAt: number | null
  /** Whether App Review granted the Human Agent feature: without it the HUMAN_AGENT tag is refused. */
  humanAgentApproved: boolean
  /** Business login settings: where Meta tells the app a person removed it, or asked for their data to go. */
  deauthorizeUrl: string | null
  dataDeletionUrl: string | null
}

export interface IgAccount {
  /** The Instagram professional account id (webhooks' entry.id, `user_id` of /me). */
  id: string
  /** The app-scoped user id (`id` of /me). */
  appScopedId: string
  username: string
  name: string
  password: string
  accountType: AccountType
  followers: number
  /** Webhook fields this account subscribed the app to (POST /me/subscribed_apps). */
  subscribedFields: string[]
  /** Graph calls in the last hour (sandbox ms), for the usage headers and the rate limit. */
  calls: number[]
  privateReplies: number[]
  createdAt: number
}

/** Someone who comments on or writes to an account (Instagram-scoped id per app). */
export interface Person {
  igsid: string
  username: string
  name: string
  /** false: blocked the account or deactivated (error 551). */
  available: boolean
}

export interface Media {
  id: string
  accountId: string
  caption: string
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM'
  productType: 'FEED' | 'REELS' | 'STORY'
  permalink: string
  timestamp: number
}

export interface Comment {
  id: string
  accountId: string
  mediaId: string
  fromId: string
  fromUsername: string
  text: string
  timestamp: number
  /** A reply to another comment: that comment's id. */
  parentId: string | null
  /** The private reply sent for it (one per comment). */
  privateReplyMid: string | null
  replies: { id: string; text: string; timestamp: number }[]
}

export type MessageKind = 'message' | 'story_reply' | 'story_mention' | 'postback' | 'private_reply'

export interface DirectMessage {
  mid: string
  accountId: string
  peerId: string
  direction: 'in' | 'out'
  text: string
  timestamp: number
  kind: MessageKind
  /** Outgoing: HUMAN_AGENT when sent with that tag. */
  tag: string | null
  commentId: string | null
}

export interface Token {
  token: string
  accountId: string
  kind: 'short' | 'long'
  scopes: string[]
  issuedAt: number
  expiresAt: number
}

export interface AuthCode {
  code: string
  accountId: string
  redirectUri: string
  scopes: string[]
  expiresAt: number
  used: boolean
}

export interface DeliveryAttempt {
  at: number
  status: number | null
  ms: number
  error: string | null
}

export interface Delivery {
  id: string
  accountId: string
  field: string
  /** The exact body sent, and its signature (a redelivery sends both unchanged). */
  body: string
  signature: string
  attempts: DeliveryAttempt[]
  delivered: boolean
  /** When the next try is due on the sandbox clock (null: delivered or given up). */
  nextAttemptAt: number | null
  /** Created on the sandbox clock; retries stop 36 hours after it. */
  createdAt: number
}

export interface LoggedCall {
  id: number
  at: number
  method: string
  path: string
  accountId: string | null
  body: unknown
  status: number
  error: { code: number; subcode: number | null; message: string } | null
}

export interface Fault {
  account: string | null
  /** Which calls: `messages` (sends and private replies), `comments` (public replies), or `any`. */
  target: 'messages' | 'comments' | 'any'
  /** http_500: nothing done, 500; ack_lost: done, then the connection dropped; error: a Graph error. */
  mode: 'http_500' | 'ack_lost' | 'error'
  code: number | null
  subcode: number | null
  count: number
}

export interface MetaState {
  app: MetaApp
  accounts: IgAccount[]
  people: Person[]
  media: Media[]
  comments: Comment[]
  messages: DirectMessage[]
  tokens: Token[]
  codes: AuthCode[]
  deliveries: Delivery[]
  calls: LoggedCall[]
  faults: Fault[]
  /** Calls per account and hour before Instagram's rate limit (code 80002). */
  callsPerHour: number
  clockOffsetMs: number
  sequence: number
}

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

export class MetaWorld {
  readonly clock = new SandboxClock()
  readonly store: JsonStore<MetaState>
  /** Browser sessions of the consent screen (cookie → account id); not persisted. */
  readonly logins = new Map<string, string>()

  constructor(
    file: string | undefined,
    app: Pick<MetaApp, 'appId' | 'appSecret' | 'redirectUris'> & Partial<MetaApp>,
  ) {
    this.store = new JsonStore<MetaState>(file, {
      app: {
        name: 'Reachflow',
        webhookUrl: null,
        verifyToken: null,
        verifiedAt: null,
        humanAgentApproved: true,
        deauthorizeUrl: null,
        dataDeletionUrl: null,
        ...app,
      },
      accounts: [],
      people: [],
      media: [],
      comments: [],
      messages: [],
      tokens: [],
      codes: [],
      deliveries: [],
      calls: [],
      faults: [],
      callsPerHour: 4800,
      clockOffsetMs: 0,
      // ids are unique across fresh worlds too: tests start worlds of their own against one database
      sequence: randomInt(1, 1_000_000) * 1_000_000,
    })
    // the environment decides the app's credentials and redirect URIs, whatever a saved state said
    Object.assign(this.store.state.app, app)
    this.clock.setOffset(this.store.state.clockOffsetMs)
  }

  get state(): MetaState {
    return this.store.state
  }

  now(): number {
    return this.clock.now()
  }

  changed(): void {
    this.state.clockOffsetMs = this.clock.offsetMs
    this.store.changed()
  }

  /** A numeric id of `digits` digits, unique in this world. */
  numericId(prefix: string, digits = 17): string {
    this.state.sequence += 1
    return `${prefix}${String(this.state.sequence).padStart(digits - prefix.length, '0')}`
  }

  accountById(id: string): IgAccount | undefined {
    return this.state.accounts.find((a) => a.id === id || a.appScopedId === id)
  }

  accountByUsername(username: string): IgAccount | undefined {
    const wanted = username.replace(/^@/, '').toLowerCase()
    return this.state.accounts.find((a) => a.username.toLowerCase() === wanted)
  }

  /** The person with this username, created on first mention with a stable Instagram-scoped id. */
  person(username: string, name?: string): Person {
    const wanted = username.replace(/^@/, '')
    let person = this.state.people.find((p) => p.username.toLowerCase() === wanted.toLowerCase())
    if (!person) {
      const igsid = `${2_000_000_000_000_000 + (hash32(`${this.state.app.appId}:${wanted.toLowerCase()}`) % 900_000_000) * 1000 + this.state.people.length}`
      person = { igsid, username: wanted, name: name ?? wanted, available: true }
      this.state.people.push(person)
    }
    return person
  }

  personById(igsid: string): Person | undefined {
    return this.state.people.find((p) => p.igsid === igsid)
  }

  newMid(accountId: string): string {
    this.state.sequence += 1
    return Buffer.from(`ig_message_item:1:IGMessageThread:${accountId}:${this.state.sequence}`).toString(
      'base64url',
    )
  }

  newToken(accountId: string, kind: Token['kind'], scopes: string[]): Token {
    const issuedAt = this.now()
    const token: Token = {
      token: `IGAA${randomBytes(30).toString('base64url')}`,
      accountId,
      kind,
      scopes,
      issuedAt,
      expiresAt: issuedAt + (kind === 'short' ? HOUR : 60 * DAY),
    }
    this.state.tokens.push(token)
    this.changed()
    return token
  }

  /** A new Instagram account that can log in on the consent screen (the control API and the seed). */
  createAccount(input: {
    username: string
    password: string
    name?: string
    accountType?: AccountType
    followers?: number
  }): IgAccount {
    if (this.accountByUsername(input.username)) throw new Error(`@${input.username} exists`)
    const account: IgAccount = {
      id: this.numericId('1784', 17),
      appScopedId: this.numericId('2', 17),
      username: input.username.replace(/^@/, ''),
      name: input.name ?? input.username,
      password: input.password,
      accountType: input.accountType ?? 'BUSINESS',
      followers: input.followers ?? 1200,
      subscribedFields: [],
      calls: [],
      privateReplies: [],
      createdAt: this.now(),
    }
    this.state.accounts.push(account)
    this.changed()
    return account
  }

  addMedia(accountId: string, caption: string, productType: Media['productType'] = 'FEED', ageMs = 0): Media {
    const id = this.numericId('179', 17)
    const media: Media = {
      id,
      accountId,
      caption,
      mediaType: productType === 'REELS' ? 'VIDEO' : 'IMAGE',
      productType,
      permalink: `https://www.instagram.com/${productType === 'REELS' ? 'reel' : 'p'}/${Buffer.from(id).toString('base64url').slice(0, 11)}/`,
      timestamp: this.now() - ageMs,
    }
    this.state.media.push(media)
    this.changed()
    return media
  }

  /** The demo's accounts (on first start): two professional accounts with posts, one personal. */
  seed(): void {
    if (this.state.accounts.length) return
    const studio = this.createAccount({
      username: 'lumen.studio',
      password: 'lumen-password',
      name: 'Lumen Studio',
      followers: 18400,
    })
    this.addMedia(
      studio.id,
      'Our spring collection is here. Comment GUIDE for the lookbook 🌿',
      'FEED',
      3 * DAY,
    )
    this.addMedia(
      studio.id,
      'Behind the scenes of the shoot. Comment PRICE and we DM you the list',
      'REELS',
      DAY,
    )
    this.addMedia(studio.id, 'Studio tour 🎥', 'FEED', 2 * HOUR)
    const creator = this.createAccount({
      username: 'maya.makes',
      password: 'maya-password',
      name: 'Maya Makes',
      accountType: 'MEDIA_CREATOR',
      followers: 5200,
    })
    this.addMedia(creator.id, 'New tutorial: comment LINK for the pattern', 'REELS', 5 * HOUR)
    this.createAccount({
      username: 'jonas.private',
      password: 'jonas-password',
      name: 'Jonas',
      accountType: 'PERSONAL',
      followers: 310,
    })
  }

  /** Back to a fresh world with the same app (tests). */
  reset(): void {
    const app = this.state.app
    Object.assign(this.state, {
      accounts: [],
      people: [],
      media: [],
      comments: [],
      messages: [],
      tokens: [],
      codes: [],
      deliveries: [],
      calls: [],
      faults: [],
    })
    this.state.app = app
    this.logins.clear()
    this.seed()
    this.changed()
  }

  /** Messages between an account and a person, oldest first. */
  conversation(accountId: string, peerId: string): DirectMessage[] {
    return this.state.messages
      .filter((m) => m.accountId === accountId && m.peerId === peerId)
      .sort((a, b) => a.timestamp - b.timestamp)
  }

  /** When the person last wrote to the account (a DM, story reply or mention, a postback). */
  lastIncomingAt(accountId: string, peerId: string): number | null {
    const incoming = this.conversation(accountId, peerId).filter((m) => m.direction === 'in')
    return incoming.at(-1)?.timestamp ?? null
  }
}
