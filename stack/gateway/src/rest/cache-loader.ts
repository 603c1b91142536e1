// Keeps the schema cache current: loads it at start, and again on `NOTIFY pgrst, 'reload schema'`
// (sent after migrations and by the DDL event trigger), listening on a dedicated connection that is
// re-opened (with a reload, since notifications may have been missed) whenever it drops.
import pg from 'pg'
import { readCatalog } from './catalog.ts'
import { buildSchemaCache, type SchemaCache } from './schema-cache.ts'

export interface CacheLoaderOptions {
  connectionString: string
  schemas: readonly string[]
  log(level: 'info' | 'warn' | 'error', message: string, meta?: Record<string, unknown>): void
}

export class SchemaCacheLoader {
  private current: SchemaCache | undefined
  private client: pg.Client | undefined
  private stopped = false
  private loading: Promise<void> | undefined
  private reloadAgain = false
  private retryTimer: NodeJS.Timeout | undefined
  /** Bumped on every successful load (tests and benchmarks can wait for it). */
  generation = 0

  constructor(private readonly options: CacheLoaderOptions) {}

  get cache(): SchemaCache | undefined {
    return this.current
  }

  start(): void {
    void this.connect()
  }

  private async connect(): Promise<void> {
    if (this.stopped) return
    const client = new pg.Client({ connectionString: this.options.connectionString })
    client.on('error', (error) => {
      this.options.log('warn', 'schema cache listener lost its connection', { error: error.message })
      this.scheduleReconnect(client)
    })
    client.on('end', () => this.scheduleReconnect(client))
    client.on('notification', (message) => {
      if (message.channel !== 'pgrst') return
      const payload = (message.payload ?? '').trim()
      if (payload === '' || payload === 'reload schema') void this.reload()
    })
    try {
      await client.connect()
      await client.query('LISTEN pgrst')
      this.client = client
      await this.reload()
    } catch (error) {
      this.options.log('warn', 'schema cache could not connect; retrying', {
        error: (error as Error).message,
      })
      this.scheduleReconnect(client)
    }
  }

  private scheduleReconnect(client: pg.Client): void {
    if (this.stopped || this.retryTimer) return
    if (this.client && this.client !== client) return
    this.client = undefined
    client.end().catch(() => {})
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      void this.connect()
    }, 1000)
  }

  /** Reloads now; a reload asked for while one runs makes it run once more afterwards. */
  reload(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true
      return this.loading
    }
    this.loading = (async () => {
      do {
        this.reloadAgain = false
        const client = this.client
        if (!client) return
        try {
          const snapshot = await readCatalog(client, this.options.schemas)
          this.current = buildSchemaCache(snapshot, this.options.schemas)
          this.generation++
        } catch (error) {
          this.options.log('error', 'schema cache reload failed', { error: (error as Error).message })
        }
      } while (this.reloadAgain)
    })().finally(() => {
      this.loading = undefined
    })
    return this.loading
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    await this.client?.end().catch(() => {})
  }
}
