// Who may drive an account: a session-level Postgres advisory lock per account, all held on one
// dedicated connection of this runner. Two runners can never hold the same account, and when a
// runner dies (even by SIGKILL) its connection closes and Postgres releases every lock it held,
// so no lease outlives its owner. The same connection holds a lock on the runner's own id: other
// runners read pg_locks to tell a dead runner (whose jobs they may release) from a slow one.
// If the connection drops while the runner lives, every lease is lost at once: sessions must stop
// before their next send (Lease.valid), and leases are taken again after reconnecting.
import pg from 'pg'

/** Lock namespaces (the first key of two-key advisory locks), arbitrary but fixed. */
const ACCOUNT_LOCKS = 7301
const RUNNER_LOCKS = 7302

export class Lease {
  #valid = true
  constructor(readonly accountId: string) {}
  get valid(): boolean {
    return this.#valid
  }
  invalidate(): void {
    this.#valid = false
  }
}

export class AccountLeases {
  #client: pg.Client | undefined
  #connecting: Promise<pg.Client> | undefined
  readonly #held = new Map<string, Lease>()
  #closed = false
  /** One statement at a time on the lock connection (pg does not queue them for us any more). */
  #queue: Promise<unknown> = Promise.resolve()

  constructor(
    readonly connectionString: string,
    readonly runnerId: string,
    /** Called when the lock connection is lost with the leases that went with it. */
    readonly onLost: (leases: Lease[]) => void = () => undefined,
  ) {}

  /** Connects and takes the runner's own liveness lock. */
  async start(): Promise<void> {
    await this.#connection()
  }

  /** Takes the account if no runner (this one included) holds it; null when it is taken. */
  async tryAcquire(accountId: string): Promise<Lease | null> {
    if (this.#held.has(accountId)) return null
    const { rows } = await this.#query<{ locked: boolean }>(
      'select pg_try_advisory_lock($1, hashtext($2)) as locked',
      [ACCOUNT_LOCKS, accountId],
    )
    if (!rows[0]?.locked) return null
    const lease = new Lease(accountId)
    this.#held.set(accountId, lease)
    return lease
  }

  async release(lease: Lease): Promise<void> {
    if (this.#held.get(lease.accountId) !== lease) return
    this.#held.delete(lease.accountId)
    lease.invalidate()
    if (!this.#client) return
    await this.#query('select pg_advisory_unlock($1, hashtext($2))', [ACCOUNT_LOCKS, lease.accountId]).catch(
      () => undefined,
    )
  }

  /** Whether a runner is alive: its connection still holds its liveness lock. */
  async isRunnerAlive(runnerId: string): Promise<boolean> {
    const { rows } = await this.#query<{ alive: boolean }>(
      `select exists (select 1 from pg_catalog.pg_locks
                       where locktype = 'advisory' and classid = $1 and objid = hashtext($2)::oid
                         and objsubid = 2 and granted) as alive`,
      [RUNNER_LOCKS, runnerId],
    )
    return rows[0]?.alive ?? false
  }

  get heldCount(): number {
    return this.#held.size
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const lease of this.#held.values()) lease.invalidate()
    this.#held.clear()
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => undefined)
  }

  #query<T extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<T>> {
    const run = this.#queue.then(async () => (await this.#connection()).query<T>(sql, params))
    this.#queue = run.catch(() => undefined)
    return run
  }

  #connection(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('The lease connection is closed.'))
    if (this.#client) return Promise.resolve(this.#client)
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined
    })
    return this.#connecting
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'reachflow-runner-leases',
      keepAlive: true,
      connectionTimeoutMillis: 15_000,
    })
    const lost = () => {
      if (this.#client !== client) return
      this.#client = undefined
      const leases = [...this.#held.values()]
      this.#held.clear()
      for (const lease of leases) lease.invalidate()
      if (!this.#closed) this.onLost(leases)
    }
    client.on('error', lost)
    client.on('end', lost)
    await client.connect()
    await client.query('select pg_advisory_lock($1, hashtext($2))', [RUNNER_LOCKS, this.runnerId])
    this.#client = client
    return client
  }
}
