// The heartbeat's settling sweep: an inbox.sync for each account with unconfirmed sends, except the
// accounts this runner is working right now (their intent rows are uncertain until the page confirms).
import type { PgBoss } from 'pg-boss'
import { describe, expect, it } from 'vitest'
import type { Db } from '../src/db.ts'
import { queueSettlingSyncs } from '../src/ops/settle-sweep.ts'

function fakes(accounts: string[]) {
  const sent: { queue: string; data: unknown; key: unknown }[] = []
  const db = { query: async () => ({ rows: accounts.map((account_id) => ({ account_id })) }) }
  const boss = {
    send: async (queue: string, data: unknown, options: { singletonKey?: string }) => {
      sent.push({ queue, data, key: options.singletonKey })
      return `job-${sent.length}`
    },
  }
  return { db: db as unknown as Db, boss: boss as unknown as PgBoss, sent }
}

describe('the settling sweep', () => {
  it('queues an inbox.sync per account with unconfirmed sends', async () => {
    const { db, boss, sent } = fakes(['a', 'b'])
    expect(await queueSettlingSyncs(db, boss, 0)).toBe(2)
    expect(sent).toEqual([
      { queue: 'inbox.sync', data: { accountId: 'a' }, key: 'inbox:a' },
      { queue: 'inbox.sync', data: { accountId: 'b' }, key: 'inbox:b' },
    ])
  })

  it('leaves out the accounts a job of this runner holds (a send in flight is not unsettled)', async () => {
    const { db, boss, sent } = fakes(['a', 'b', 'c'])
    expect(await queueSettlingSyncs(db, boss, 0, (id) => id !== 'b')).toBe(1)
    expect(sent.map((s) => s.data)).toEqual([{ accountId: 'b' }])
  })
})
