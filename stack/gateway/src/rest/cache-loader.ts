// Keeps the schema cache and the in-database configuration current, as PostgREST 14's listener does
// (Listener.hs, AppState.retryingSchemaCacheLoad): both load at start; `NOTIFY pgrst, 'reload schema'`
// (sent after migrations and by the DDL event trigger) or an empty payload re-reads the configuration
// and then the schema cache; `NOTIFY pgrst, 'reload config'` re-reads the configuration only. It listens
// on a dedicated connection (as the authenticator role, whose `pgrst.*` settings are read), re-opened
// with a full reload whenever it drops, since notifications may have been missed.
import pg from 'pg'
import { readCatalog } from './catalog.ts'
import { applyDbSettings, type RestConfig, readDbSettings } from './db-config.ts'
import { buildSchemaCache, type SchemaCache } from './schema-cache.ts'

export interface CacheLoaderOptions {
  connectionString: string
  /** The configuration from the environment, before the database's settings apply. */
  config: RestConfig
  log(level: 'info' | 'warn' | 'error', message: string, meta?: Record<string, unknown>): void
}

export class SchemaCacheLoader {
  private current: SchemaCache | undefined
  private client: pg.Client | undefined
  private stopped = false
  private loading: Promise<void> | undefined
  private reloadAgain = false
  /** Whether the pending run must re-read the catalog too ('reload config' alone does not). */
  private schemaWanted = false
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
      const payload = message.payload ?? ''
      if (payload === '' || payload === 'reload schema') void this.reload()
      else if (payload === 'reload config') void this.reload(false)
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

  /**
   * Reloads the configuration, then (unless `schema` is false) the schema cache; a reload asked for
   * while one runs makes it run once more afterwards.
   */
  reload(schema = true): Promise<void> {
    this.schemaWanted ||= schema
    if (this.loading) {
      this.reloadAgain = true
      return this.loading
    }
    this.loading = (async () => {
      do {
        this.reloadAgain = false
        const withSchema = this.schemaWanted || !this.current
        this.schemaWanted = false
        const client = this.client
        if (!client) return
        try {
          const config = applyDbSettings(this.options.config, await readDbSettings(client), (message, meta) =>
            this.options.log('warn', message, meta),
          )
          // The cache holds the exposed schemas' objects: a change of those needs a full reload.
          const sameSchemas =
            this.current !== undefined &&
            this.current.config.schemas.join(',') === config.schemas.join(',') &&
            this.current.config.extraSearchPath.join(',') === config.extraSearchPath.join(',')
          if (withSchema || !sameSchemas) {
            const snapshot = await readCatalog(client, config.schemas, config.extraSearchPath)
            this.current = buildSchemaCache(snapshot, config)
          } else if (this.current) {
            // A new cache object, so plans cached for the old configuration are not reused.
            this.current = { ...this.current, config }
          }
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
