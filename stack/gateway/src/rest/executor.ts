// One transaction per request on a pipelined connection: BEGIN, the request settings (role, claims,
// method, path, headers, search_path, statement_timeout), the statements and COMMIT go out together,
// so a read costs a single round trip. Writes that must look at their result first end in a second step.
import pg from 'pg'
import type { Statement } from './sql/statements.ts'

export interface RequestSettings {
  role: string
  claims: string
  method: string
  path: string
  headers: string
  searchPath: string
  statementTimeout: string | null
}

const SETTINGS_SQL =
  "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.method', $3, true), set_config('request.path', $4, true), set_config('request.headers', $5, true), set_config('search_path', $6, true), set_config('statement_timeout', coalesce($7, current_setting('statement_timeout')), true)"

/**
 * Prepared statements for query shapes seen more than once (bounded, so random shapes from clients do
 * not grow every connection's plan cache without end).
 */
class StatementNames {
  private seen = new Map<string, number>()
  private names = new Map<string, string>()
  constructor(private readonly max = 400) {}

  nameFor(text: string): string | undefined {
    const name = this.names.get(text)
    if (name) return name
    if (this.names.size >= this.max) return undefined
    const count = (this.seen.get(text) ?? 0) + 1
    if (count < 2) {
      if (this.seen.size > 5000) this.seen.clear()
      this.seen.set(text, count)
      return undefined
    }
    this.seen.delete(text)
    const fresh = `gw_rest_${this.names.size}`
    this.names.set(text, fresh)
    return fresh
  }
}

export interface TransactionOptions {
  readOnly: boolean
  /** commit/rollback right away (pipelined), or `decide` to look at the results first. */
  end: 'commit' | 'rollback' | 'decide'
}

export interface TransactionResult {
  results: pg.QueryResult[]
  /** Only for `decide`: ends the transaction (must be called exactly once). */
  finish(commit: boolean): Promise<void>
}

export class Executor {
  readonly pool: pg.Pool
  private readonly names = new StatementNames()

  constructor(connectionString: string, size: number, onError: (error: Error) => void) {
    this.pool = new pg.Pool({
      connectionString,
      max: size,
      idleTimeoutMillis: 30_000,
      pipeline: true,
    } as pg.PoolConfig)
    this.pool.on('error', onError)
  }

  private query(client: pg.PoolClient, statement: Statement): Promise<pg.QueryResult> {
    const name = this.names.nameFor(statement.text)
    return client.query({ text: statement.text, values: statement.values, ...(name && { name }) })
  }

  async transaction(
    settings: RequestSettings,
    statements: Statement[],
    options: TransactionOptions,
  ): Promise<TransactionResult> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    const begin = client.query(options.readOnly ? 'BEGIN READ ONLY' : 'BEGIN')
    const set = client.query({
      name: 'gw_rest_settings',
      text: SETTINGS_SQL,
      values: [
        settings.role,
        settings.claims,
        settings.method,
        settings.path,
        settings.headers,
        settings.searchPath,
        settings.statementTimeout,
      ],
    })
    const work = statements.map((statement) => this.query(client, statement))
    const end =
      options.end === 'decide' ? undefined : client.query(options.end === 'commit' ? 'COMMIT' : 'ROLLBACK')
    const settled = await Promise.allSettled([begin, set, ...work, ...(end ? [end] : [])])
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failure) {
      const error = failure.reason as Error & { code?: string }
      // A Postgres error leaves the connection usable once the transaction is rolled back.
      if (typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code)) {
        if (!end) await client.query('ROLLBACK').catch((e: Error) => (broken = e))
      } else {
        broken = error
      }
      client.release(broken)
      throw error
    }
    const results = settled
      .slice(2, 2 + work.length)
      .map((s) => (s as PromiseFulfilledResult<pg.QueryResult>).value)
    if (end) {
      client.release()
      return { results, finish: async () => {} }
    }
    return {
      results,
      finish: async (commit) => {
        try {
          await client.query(commit ? 'COMMIT' : 'ROLLBACK')
          client.release()
        } catch (error) {
          client.release(error as Error)
          throw error
        }
      },
    }
  }

  end(): Promise<void> {
    return this.pool.end()
  }
}
