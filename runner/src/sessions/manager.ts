// Browser sessions per account, kept warm between jobs: a least-recently-used set bounded by how
// many parked contexts the runner's memory holds (maxWarm), each closed after idleMs without a
// job. Warm between an account's jobs, a DM or an inbox read skips the cold open (new context,
// cookies, the home page, identity), which is most of a job's CPU at real pacing. A job uses an
// account through `use`: one job at a time per account in this runner (a mutex), and the
// account's lease (an advisory lock) so no other runner drives it while this one holds a session.
// The lease is kept as long as the session stays warm and released when it closes, so an account
// stays with the runner that has it warm; an evicted or idle one is free for any runner. A session
// opens with its platform's current facts pack; once another pack is published, the next job
// signs in afresh with it (a warm session keeps the facts it opened with).

import type { BrowserPool } from '../browser/pool.ts'
import type { Keyring } from '../crypto.ts'
import type { Db } from '../db.ts'
import type { AccountLeases, Lease } from '../leases.ts'
import { type Gate, GateWaitTimeoutError } from '../ops/gate.ts'
import { CODE_DEFAULT_FACTS } from '../packs/code-defaults.ts'
import { codePack, type PackInUse, type PackSource, packKey } from '../packs/registry.ts'
import type { PlatformSession, SessionCookie } from '../platforms/types.ts'
import { loadSecrets, saveSession } from './credentials.ts'
import { Mutex, WaitTimeoutError } from './mutex.ts'
import { type AccountRow, type OpenOptions, type OpenOutcome, openAccountSession } from './open.ts'
import { restorableSession } from './restore.ts'

interface Entry {
  mutex: Mutex
  lease: Lease | null
  session: PlatformSession | null
  /** The pack the session opened with (packKey). */
  pack: string | null
  lastUsed: number
}

/** What a job gets while it holds an account. */
export interface AccountHandle {
  readonly lease: Lease
  /**
   * The signed-in session, opened on first call and reused while warm, with the platform's current
   * pack, or with `pack` (the canary trying a draft): a warm session on other facts is reopened.
   * A saved session is restored without a full sign-in when restore.ts allows it, unless `check`
   * is 'full' (the account test and the canary: the home page and the account menu are the check).
   */
  open(account: AccountRow, pack?: PackInUse, check?: 'full'): Promise<OpenOutcome>
  /** Closes the session (e.g. after the platform signed it out); the next job signs in again. */
  discard(): Promise<void>
}

export type UseResult<T> = { status: 'done'; value: T } | { status: 'busy'; where: 'here' | 'elsewhere' }

export interface SessionManagerOptions {
  db: Db
  pool: BrowserPool
  leases: AccountLeases
  keyring: Keyring
  openOptions: Omit<OpenOptions, 'pool' | 'pack'>
  idleMs: number
  /** How many sessions may stay warm at once (unbounded when absent). */
  maxWarm?: number
  /** The platform facts in use (the code defaults when absent). */
  packs?: PackSource
  /** Admission control's open slots: a sign-in waits for one (no limit when absent). */
  opens?: Gate
  /** How long a sign-in waits for an open slot before the job is put off as slow. */
  openWaitMs?: number
}

export class SessionManager {
  readonly #entries = new Map<string, Entry>()
  readonly #sweeper: ReturnType<typeof setInterval>
  #closed = false
  /** Warm sessions closed to stay within maxWarm (for heartbeats and benchmarks). */
  evicted = 0
  /** Cold opens (a new context signed in), successful or not: what an open costs is the bench's question. */
  opened = 0
  /** Saved sessions restored without a full sign-in (restore.ts): a context and its cookies, no page. */
  restored = 0
  /** This runner's share of the fleet's accounts (fleet-share.ts); unbounded until first told. */
  #share = Number.POSITIVE_INFINITY

  constructor(readonly options: SessionManagerOptions) {
    this.#sweeper = setInterval(() => void this.closeIdle(), Math.min(10_000, options.idleMs))
    this.#sweeper.unref()
  }

  /**
   * Runs work holding the account; busy when another job (here or on another runner) has it. A
   * sign-in the work needs waits for its slot at `priority` (SEND_PRIORITY: before the reads).
   */
  async use<T>(
    accountId: string,
    waitMs: number,
    work: (handle: AccountHandle) => Promise<T>,
    priority = 0,
  ): Promise<UseResult<T>> {
    if (this.#closed) throw new Error('The runner is shutting down.')
    const entry = this.#entry(accountId)
    let release: () => void
    try {
      release = await entry.mutex.acquire(waitMs)
    } catch (error) {
      if (error instanceof WaitTimeoutError) return { status: 'busy', where: 'here' }
      throw error
    }
    try {
      if (entry.lease && !entry.lease.valid) await this.#close(accountId, entry)
      if (!entry.lease) {
        entry.lease = await this.options.leases.tryAcquire(accountId)
        if (!entry.lease) return { status: 'busy', where: 'elsewhere' }
      }
      const lease = entry.lease
      const handle: AccountHandle = {
        lease,
        open: (account, pack, check) => this.#open(entry, account, priority, pack, check),
        discard: () => this.#closeSession(entry),
      }
      const value = await work(handle)
      // waiting warm for the next job: signed in, but no page (no site scripts, no renderer) meanwhile
      await entry.session?.park().catch(() => undefined)
      return { status: 'done', value }
    } finally {
      entry.lastUsed = Date.now()
      release()
    }
  }

  /** Whether the account has a signed-in session here that a job can use without a sign-in. */
  isWarm(accountId: string): boolean {
    const session = this.#entries.get(accountId)?.session
    return session != null && !contextLost(session)
  }

  /**
   * Whether a job of the account would sign in in full here: no warm session, and no saved session
   * restore.ts allows (a restore loads no page of its own, so it is no sign-in to wait for).
   */
  async needsSignIn(accountId: string): Promise<boolean> {
    if (this.isWarm(accountId)) return false
    const secrets = await loadSecrets(this.options.db, accountId, this.options.keyring).catch(() => null)
    return secrets === null || restorableSession(secrets, this.options.openOptions.now()) === null
  }

  /** Whether a job of this runner holds the account now (or waits for it). */
  inUse(accountId: string): boolean {
    const entry = this.#entries.get(accountId)
    return entry !== undefined && (entry.mutex.locked || entry.mutex.waiting > 0)
  }

  /**
   * Accounts with a warm browser session (for the memory bound, heartbeats and benchmarks): an
   * official API session holds no browser memory, so it neither counts nor is evicted for room.
   */
  get warmCount(): number {
    return [...this.#entries.values()].filter((e) => e.session && !e.session.browserless).length
  }

  /** How many warm sessions this runner may hold now: its memory bound and its fleet share. */
  get warmLimit(): number {
    return Math.min(this.options.maxWarm ?? Number.POSITIVE_INFINITY, this.#share)
  }

  /** Sets this runner's share of the fleet and closes the least recently used beyond it. */
  async setShare(share: number): Promise<void> {
    this.#share = Math.max(1, share)
    await this.#evictOverCapacity(null)
  }

  /** Closes sessions nobody used for idleMs, releasing their leases. */
  async closeIdle(now = Date.now()): Promise<void> {
    for (const [accountId, entry] of this.#entries) {
      const idle = now - entry.lastUsed >= this.options.idleMs
      if ((!idle && entry.lease?.valid !== false) || entry.mutex.locked || entry.mutex.waiting > 0) continue
      const release = await entry.mutex.acquire(0).catch(() => undefined)
      if (!release) continue
      try {
        await this.#close(accountId, entry)
        if (!entry.mutex.waiting) this.#entries.delete(accountId)
      } finally {
        release()
      }
    }
  }

  /** Closes every session (saving it) once running jobs let go of their accounts. */
  async closeAll(waitMs = 30_000): Promise<void> {
    this.#closed = true
    clearInterval(this.#sweeper)
    await Promise.all(
      [...this.#entries].map(async ([accountId, entry]) => {
        const release = await entry.mutex.acquire(waitMs).catch(() => undefined)
        try {
          await this.#close(accountId, entry)
        } finally {
          release?.()
        }
      }),
    )
  }

  #entry(accountId: string): Entry {
    let entry = this.#entries.get(accountId)
    if (!entry) {
      entry = { mutex: new Mutex(), lease: null, session: null, pack: null, lastUsed: Date.now() }
      this.#entries.set(accountId, entry)
    }
    return entry
  }

  /** The pack a job's session opens with now. */
  packFor(platform: AccountRow['platform']): PackInUse {
    return this.options.packs?.current(platform) ?? codePack(platform, CODE_DEFAULT_FACTS)
  }

  async #open(
    entry: Entry,
    account: AccountRow,
    priority: number,
    wanted?: PackInUse,
    check?: 'full',
  ): Promise<OpenOutcome> {
    const pack = wanted ?? this.packFor(account.platform)
    // its browser died (a crash or a kill): the context went with it, so sign in afresh
    if (entry.session && contextLost(entry.session)) await this.#closeSession(entry)
    if (entry.session && entry.pack === packKey(pack))
      return { status: 'ok', session: entry.session, reusedSession: true }
    if (entry.session) {
      await this.#save(account.id, entry.session)
      await this.#closeSession(entry)
    }
    const secrets = await loadSecrets(this.options.db, account.id, this.options.keyring)
    const restore = check === 'full' ? null : restorableSession(secrets, this.options.openOptions.now())
    let release = () => {}
    // a restore loads no page (the job's first page is its check): it needs no sign-in slot
    if (this.options.opens && !restore) {
      try {
        release = await this.options.opens.acquire(this.options.openWaitMs ?? 60_000, undefined, priority)
      } catch (error) {
        if (!(error instanceof GateWaitTimeoutError)) throw error
        return { status: 'failed', reason: 'slow', message: 'The runner had no free sign-in slot in time.' }
      }
    }
    let outcome: OpenOutcome | undefined
    try {
      outcome = await openAccountSession(account, secrets, {
        ...this.options.openOptions,
        official: { db: this.options.db, keyring: this.options.keyring },
        pool: this.options.pool,
        pack,
        restore,
      })
    } finally {
      release()
      if (outcome?.status === 'ok' && outcome.restored) this.restored += 1
      else this.opened += 1
    }
    if (outcome.status === 'ok') {
      entry.session = outcome.session
      entry.pack = packKey(pack)
      if (!outcome.reusedSession) await this.#save(account.id, outcome.session)
      await this.#evictOverCapacity(entry)
    }
    return outcome
  }

  /**
   * Closes the least recently used warm sessions of other accounts while more than warmLimit are
   * open (saved first, their leases released). One in use by a job is left: the set may stay over
   * its bound until that job ends, never closing a page under a running send.
   */
  async #evictOverCapacity(keep: Entry | null): Promise<void> {
    const max = this.warmLimit
    if (max === Number.POSITIVE_INFINITY) return
    const idle = [...this.#entries]
      .filter(
        ([, e]) =>
          e !== keep && e.session && !e.session.browserless && !e.mutex.locked && e.mutex.waiting === 0,
      )
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed)
    let over = this.warmCount - max
    for (const [accountId, entry] of idle) {
      if (over <= 0) return
      const release = await entry.mutex.acquire(0).catch(() => undefined)
      if (!release) continue
      try {
        if (!entry.session) continue
        await this.#close(accountId, entry)
        if (!entry.mutex.waiting) this.#entries.delete(accountId)
        over -= 1
        this.evicted += 1
      } finally {
        release()
      }
    }
  }

  async #save(accountId: string, session: PlatformSession): Promise<void> {
    const exportable = session as PlatformSession & { exportCookies?: () => Promise<SessionCookie[]> }
    try {
      const cookies = (await exportable.exportCookies?.()) ?? []
      await saveSession(this.options.db, accountId, cookies, this.options.keyring, session.seen ?? null)
    } catch {
      // a session that cannot be saved is only a fresh sign-in next time
    }
  }

  async #closeSession(entry: Entry): Promise<void> {
    const session = entry.session
    entry.session = null
    entry.pack = null
    await session?.close().catch(() => undefined)
  }

  async #close(accountId: string, entry: Entry): Promise<void> {
    const session = entry.session
    entry.session = null
    entry.pack = null
    if (session) {
      if (entry.lease?.valid) await this.#save(accountId, session)
      await session.close().catch(() => undefined)
    }
    if (entry.lease) await this.options.leases.release(entry.lease)
    entry.lease = null
  }
}

/** Whether the session's browser context is gone with its browser (AccountContext.lost). */
function contextLost(session: PlatformSession): boolean {
  return (session as PlatformSession & { context?: { lost?: boolean } }).context?.lost === true
}
