// The runner's transaction helper when the database drops the connection between two statements
// (a restart, a failover): that transaction fails and the process carries on. Before, the
// checked-out client had no error listener, so the drop was an uncaught exception that ended the
// runner mid-campaign (the database-restart reliability test caught it).
import pg from 'pg'
import { afterAll, expect, it } from 'vitest'
import { createDb, inTransaction } from '../src/db.ts'
import { env } from './helpers/fixtures.ts'

const db = createDb(env('RUNNER_DATABASE_URL'), 1)
const other = new pg.Client({ connectionString: env('RUNNER_DATABASE_URL') })

afterAll(async () => {
  await other.end().catch(() => undefined)
  await db.end()
})

it('a connection dropped between two statements fails the transaction, not the process; the pool serves again', async () => {
  await other.connect()
  const transaction = inTransaction(db, async (client) => {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
    const ended = new Promise((resolve) => client.once('end', resolve))
    // the same role may end its own sessions; the client is idle inside the transaction meanwhile
    await other.query('select pg_terminate_backend($1)', [rows[0]?.pid])
    await ended
    await client.query('select 1')
  })
  await expect(transaction).rejects.toThrow(/Connection terminated|terminating connection|not queryable/)
  const { rows } = await db.query<{ one: number }>('select 1 as one')
  expect(rows[0]?.one).toBe(1)
})
