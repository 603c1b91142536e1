// The runner's workers settle a finished job even when the database drops away at that moment: the
// real pg-boss against the test Postgres, through a TCP relay this test cuts as the handler ends
// (what a Postgres restart does to the runner's connections). A completion lost that way is not
// retried by pg-boss, so before the workers settled jobs themselves such a job stayed `active` until
// it expired, and its campaign got no tick for ten minutes.
import { randomUUID } from 'node:crypto'
import { createServer, type Server, Socket } from 'node:net'
import { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueueName } from '../src/jobs/queues.ts'
import { Logger } from '../src/log.ts'
import { type QueueHandler, Workers } from '../src/ops/workers.ts'
import { adminDb, closeAdminDb, env } from './helpers/fixtures.ts'
import { waitFor } from './helpers/process.ts'

/** A TCP relay to Postgres that can drop every connection and refuse new ones for a while. */
class Relay {
  readonly sockets = new Set<Socket>()
  refusing = false
  readonly server: Server

  constructor(target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (this.refusing) return void client.destroy()
      const upstream = new Socket()
      upstream.connect(target.port, target.host)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
  }

  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as { port: number }).port)),
    )
  }

  cut(): void {
    this.refusing = true
    for (const socket of this.sockets) socket.destroy()
  }

  close(): Promise<void> {
    this.cut()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

const queue = `test.settle-${randomUUID().slice(0, 8)}` as QueueName
let relay: Relay
let boss: PgBoss
const shutdown = new AbortController()

beforeAll(async () => {
  const direct = new URL(env('SUPABASE_DB_URL'))
  relay = new Relay({ host: direct.hostname, port: Number(direct.port) })
  const viaRelay = new URL(direct)
  viaRelay.host = `127.0.0.1:${await relay.listen()}`
  boss = new PgBoss({
    connectionString: viaRelay.toString(),
    schema: 'pgboss',
    migrate: false,
    schedule: false,
    supervise: false,
    max: 2,
  })
  boss.on('error', () => undefined) // its fetch loop fails while the relay is cut; expected here
  await boss.start()
  await boss.createQueue(queue, { retryLimit: 0, expireInSeconds: 900 })
})

afterAll(async () => {
  shutdown.abort()
  await boss.deleteQueue(queue).catch(() => undefined)
  await boss.stop({ graceful: false }).catch(() => undefined)
  await relay.close()
  await closeAdminDb()
})

describe('workers', () => {
  it('complete a job whose handler ended while the database was unreachable, once it is back', async () => {
    let handled = 0
    const handler: QueueHandler = async () => {
      handled++
      // the database goes away just as the job ends, and comes back 1.5 s later
      relay.cut()
      setTimeout(() => {
        relay.refusing = false
      }, 1_500)
      return { sent: 1 }
    }
    const workers = new Workers({
      boss,
      concurrency: { [queue]: 1 } as Record<QueueName, number>,
      timeLimitMs: { [queue]: 30_000 } as Record<QueueName, number>,
      pollMs: 500,
      handlers: { [queue]: handler } as Record<QueueName, QueueHandler>,
      shutdown: shutdown.signal,
      log: new Logger(undefined, {}, 'info', false),
      jobStarted: async () => undefined,
      jobEnded: async () => undefined,
    })
    const id = await boss.send(queue, {})
    await workers.startQueue(queue)
    const row = await waitFor(
      'the job to be completed after the database came back',
      async () => {
        const { rows } = await adminDb().query<{ state: string; output: unknown }>(
          'select state, output from pgboss.job where name = $1 and id = $2',
          [queue, id],
        )
        return rows[0]?.state === 'completed' ? rows[0] : undefined
      },
      20_000,
      250,
    )
    expect(row.output).toEqual({ sent: 1 })
    expect(handled).toBe(1)
    await workers.stopAll()
  }, 40_000)
})
