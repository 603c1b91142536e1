// One transaction per request: the request settings (role, claims, method, path, headers,
// search_path, statement_timeout, read-only) and the statements go out as one batch, so a request
// costs a single round trip. Writes that must look at their result first end in a second step.
import pg from 'pg'
import { type BatchResult, type BatchStep, TransactionBatch } from './batch.ts'
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

// num_nulls() takes every set_config() as an argument, so all of them run, and answers one small
// integer instead of echoing each value (the claims and headers would travel back on every request).
const SETTING_CALLS =
  "set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.method', $3, true), set_config('request.path', $4, true), set_config('request.headers', $5, true), set_config('search_path', $6, true), set_config('statement_timeout', coalesce($7, current_setting('statement_timeout')), true)"
// JIT is off for API requests: their plans are small, and on tables without statistics nested embeds
// get cost estimates that trigger JIT compiles costing far more than the query itself. Not for an
// EXPLAIN, whose settings would show it (PostgREST sets no jit, and hosted runs with it on).
const NO_JIT = ", set_config('jit', 'off', true)"
// Making a transaction read-only is allowed at any point before it writes, so the settings statement
// can do it and no BEGIN READ ONLY is needed.
const READ_ONLY = ", set_config('transaction_read_only', 'on', true)"
const settingsSql = (readOnly: boolean, explain: boolean) =>
  `select num_nulls(${SETTING_CALLS}${explain ? '' : NO_JIT}${readOnly ? READ_ONLY : ''})`
/** The settings statement by [read-only][explain], each prepared under its own name. */
const SETTINGS = [false, true].map((readOnly) =>
  [false, true].map((explain) => ({
    name: `gw_rest_settings${readOnly ? '_ro' : ''}${explain ? '_explain' : ''}`,
    text: settingsSql(readOnly, explain),
  })),
)

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
  /** An EXPLAIN: the settings PostgREST sets and nothing of ours (no jit=off). */
  explain?: boolean
  /** commit/rollback in the same batch, or `decide` to look at the results first. */
  end: 'commit' | 'rollback' | 'decide'
}

export interface TransactionResult {
  results: BatchResult[]
  /** Only for `decide`: ends the transaction (must be called exactly once). */
  finish(commit: boolean): Promise<void>
}

const isPgError = (error: unknown): boolean =>
  typeof (error as { code?: unknown })?.code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code)

/** The `finish` of a transaction that ended in its batch: one shared function, none per request. */
const alreadyFinished = async (): Promise<void> => {}

export class Executor {
  readonly pool: pg.Pool
  private readonly names = new StatementNames()

  constructor(connectionString: string, size: number, onError: (error: Error) => void) {
    this.pool = new pg.Pool({ connectionString, max: size, idleTimeoutMillis: 30_000 })
    this.pool.on('error', onError)
  }

  async transaction(
    settings: RequestSettings,
    statements: Statement[],
    options: TransactionOptions,
  ): Promise<TransactionResult> {
    const client = await this.pool.connect()
    // Everything up to the batch's single Sync is one implicit transaction that Postgres commits at
    // the Sync (or rolls back on any error). An explicit BEGIN is only needed to end in ROLLBACK or
    // to decide after looking at the results.
    const explicit = options.end !== 'commit'
    const steps: BatchStep[] = [
      ...(explicit ? [{ text: 'BEGIN', values: [] }] : []),
      {
        ...(SETTINGS[Number(options.readOnly)]?.[Number(options.explain === true)] as {
          name: string
          text: string
        }),
        values: [
          settings.role,
          settings.claims,
          settings.method,
          settings.path,
          settings.headers,
          settings.searchPath,
          settings.statementTimeout,
        ],
      },
      ...statements.map((statement) => {
        const name = this.names.nameFor(statement.text)
        return {
          text: statement.text,
          values: statement.values,
          ...(name && { name }),
          ...(statement.rawText && { rawText: true }),
        }
      }),
    ]
    if (options.end === 'rollback') steps.push({ text: 'ROLLBACK', values: [] })
    const batch = new TransactionBatch(steps)
    client.query(batch as unknown as pg.QueryConfig)
    let results: BatchResult[]
    try {
      results = await batch.done
    } catch (error) {
      // After a Postgres error the batch stopped inside the transaction: roll it back and reuse the
      // connection. Anything else (a dropped socket) discards the connection.
      if (isPgError(error)) {
        try {
          if (explicit) await client.query('ROLLBACK')
          client.release()
        } catch (rollbackError) {
          client.release(rollbackError as Error)
        }
      } else {
        client.release(error as Error)
      }
      throw error
    }
    const first = explicit ? 2 : 1
    const work = results.slice(first, first + statements.length)
    if (options.end !== 'decide') {
      client.release()
      return { results: work, finish: alreadyFinished }
    }
    return {
      results: work,
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
