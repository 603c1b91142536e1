// Which facts each platform's sessions open with. At start the runner registers its code defaults
// (operators see them and validate drafts against their shape), then polls the publications: a
// pack an operator publishes is in use within one poll (15 s by default), a rollback the same way.
// A published pack that does not fit this runner's own default (a deploy changed the facts'
// shape since it was written) is refused, loudly, and the code default stays in use.

import { packIssues } from '@reachflow/domain'
import type { Db } from '../db.ts'
import type { InternalRow } from '../db-rows.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import type { PackFacts } from './code-defaults.ts'

const PLATFORMS: AccountPlatform[] = ['twitter', 'instagram']

/** The facts a session opens with, and where they came from. */
export interface PackInUse {
  platform: AccountPlatform
  version: string
  facts: PackFacts
  /** code: this runner's default; published: an operator's pack; draft: one tried on the canary. */
  source: 'code' | 'published' | 'draft'
  /** The pack's row (null for the code default). */
  packId: string | null
}

/** Identifies a pack for comparing what a warm session was opened with to what is current. */
export const packKey = (pack: PackInUse): string => `${pack.source}:${pack.packId ?? ''}:${pack.version}`

export interface PackSource {
  current(platform: AccountPlatform): PackInUse
  /** Reads the publications now rather than at the next poll (a source that never changes has none). */
  poll?(): Promise<void>
}

export function codePack(platform: AccountPlatform, defaults: Record<AccountPlatform, PackFacts>): PackInUse {
  return {
    platform,
    version: defaults[platform].version,
    facts: defaults[platform],
    source: 'code',
    packId: null,
  }
}

/** published_pack's row (publication_id read as text) with the platform it was asked for. */
type PublicationRow = Omit<
  InternalRow<'published_pack', { pack_id: string | null; version: string | null; facts: PackFacts | null }>,
  'publication_id' | 'kind' | 'published_at' | 'published_by'
> & { platform: AccountPlatform; publication_id: string }

export class PlatformPacks implements PackSource {
  readonly #current = new Map<AccountPlatform, PackInUse>()
  /** The publication each platform's current pack came from (refused ones too, so they are logged once). */
  readonly #seen = new Map<AccountPlatform, string>()
  #timer: ReturnType<typeof setTimeout> | undefined
  #stopped = false
  #polling: Promise<void> = Promise.resolve()

  constructor(
    readonly options: {
      db: Db
      log: Logger
      defaults: Record<AccountPlatform, PackFacts>
      pollMs: number
    },
  ) {
    for (const platform of PLATFORMS) this.#current.set(platform, codePack(platform, options.defaults))
  }

  current(platform: AccountPlatform): PackInUse {
    return this.#current.get(platform) ?? codePack(platform, this.options.defaults)
  }

  /** Registers the code defaults, reads the publications once, then polls. */
  async start(): Promise<void> {
    for (const platform of PLATFORMS) {
      const facts = this.options.defaults[platform]
      await this.options.db.query('select internal.register_code_pack($1, $2, $3)', [
        platform,
        facts.version,
        facts,
      ])
    }
    await this.poll()
    this.#schedule()
  }

  stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    return this.#polling
  }

  #schedule(): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#polling = this.poll().finally(() => this.#schedule())
    }, this.options.pollMs)
    this.#timer.unref()
  }

  /** Reads each platform's newest publication and switches to it when it changed and fits. */
  async poll(): Promise<void> {
    let rows: PublicationRow[]
    try {
      rows = (
        await this.options.db.query<PublicationRow>(
          `select p.platform, pub.publication_id::text, pub.pack_id, pub.version, pub.facts
             from unnest($1::text[]) as p (platform)
             cross join lateral internal.published_pack(p.platform) pub`,
          [PLATFORMS],
        )
      ).rows
    } catch (error) {
      await this.options.log.warn('scheduler', 'Reading the published platform packs failed', { error })
      return
    }
    for (const platform of PLATFORMS) {
      const row = rows.find((r) => r.platform === platform)
      const publication = row?.publication_id ?? 'none'
      if (this.#seen.get(platform) === publication) continue
      this.#seen.set(platform, publication)
      await this.#apply(platform, row)
    }
  }

  async #apply(platform: AccountPlatform, row: PublicationRow | undefined): Promise<void> {
    const service = serviceOf(platform)
    if (!row?.pack_id || !row.facts || !row.version) {
      const before = this.current(platform)
      this.#current.set(platform, codePack(platform, this.options.defaults))
      if (before.source !== 'code')
        await this.options.log.info(
          service,
          `Platform pack: back to the code default ${this.current(platform).version}`,
        )
      return
    }
    const issues = packIssues(row.facts, this.options.defaults[platform])
    if (issues.length > 0) {
      this.#current.set(platform, codePack(platform, this.options.defaults))
      await this.options.log.error(
        service,
        `Platform pack ${row.version} does not fit this runner's facts; it keeps the code default ${this.options.defaults[platform].version}`,
        { packId: row.pack_id, issues: issues.slice(0, 5).map((i) => i.message) },
      )
      return
    }
    this.#current.set(platform, {
      platform,
      version: row.version,
      facts: row.facts,
      source: 'published',
      packId: row.pack_id,
    })
    await this.options.log.info(service, `Platform pack ${row.version} in use`, { packId: row.pack_id })
  }
}
