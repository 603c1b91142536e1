// The runner's connection pool (as the least-privilege role reachflow_runner) and a transaction
// helper. Every statement is parameterised; row-level security applies through the role's policies.
import pg from 'pg'

export type Db = pg.Pool
export type Queryable = Pick<pg.PoolClient, 'query'>

export function createDb(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: 'reachflow-runner',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 15_000,
  })
  // an idle client that loses its connection must not crash the process; the next query reconnects
  pool.on('error', () => undefined)
  return pool
}

/** Runs work in one transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(db: Db, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect()
  // A checked-out client has no pool error listener: a connection lost between two statements
  // (a database restart) would otherwise be an uncaught 'error' event that ends the process. The
  // next statement fails instead, and the broken client is destroyed rather than pooled again.
  let lost: Error | undefined
  const onError = (error: Error) => {
    lost = error
  }
  client.on('error', onError)
  try {
    await client.query('begin')
    const result = await work(client)
    await client.query('commit')
    return result
  } catch (error) {
    if (!lost) await client.query('rollback').catch(() => undefined)
    throw error
  } finally {
    client.removeListener('error', onError)
    client.release(lost ?? false)
  }
}

/** The first row of a query, or undefined. */
export async function one<T extends pg.QueryResultRow>(
  db: Queryable,
  sql: string,
  params: unknown[] = [],
): Promise<T | undefined> {
  return (await db.query<T>(sql, params)).rows[0]
}

/** The database's clock (internal.now(): real time plus the test clock's offset). */
export async function dbNow(db: Queryable): Promise<Date> {
  const row = await one<{ now: Date }>(db, 'select internal.now() as now')
  return row?.now ?? new Date()
}
