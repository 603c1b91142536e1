// The database restarts while customers are writing (soak only: it would fail every suite running
// beside it). Writers retry a failed write as supabase-js users would, and a write whose commit was
// uncertain is resolved by the row's unique key: afterwards every acknowledged write is there exactly
// once, and the gateway, Auth and the functions all serve again without being restarted.
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { stackConfig } from '../../../stack/src/config.ts'
import { PG_BIN } from '../../../stack/src/system.ts'
import { customer, db } from '../../functions/helpers.ts'
import { call } from '../probes.ts'

const WRITES = 300

describe('database restart under load', () => {
  it('loses and duplicates nothing, and every service reconnects by itself', async () => {
    const user = await customer('restart')
    const token = user.session.access_token
    const outcomes = new Map<number, string>()
    let failures = 0
    let next = 0
    const write = async (i: number) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const reply = await call('/rest/v1/do_not_contact', {
          method: 'POST',
          token,
          body: { platform: 'twitter', target_username: `restart_${i}`, reason: 'soak' },
        }).catch(() => ({ status: 0, text: 'connection refused' }))
        if (reply.status === 201) return outcomes.set(i, attempt === 0 ? 'written' : 'written after retry')
        // A retry of a write that had committed before the connection dropped.
        if (reply.status === 409 && attempt > 0) return outcomes.set(i, 'already written')
        failures++
        await sleep(100)
      }
      outcomes.set(i, 'gave up')
    }
    // At least WRITES, and on until Postgres is back: on an idle machine 300 writes can be done
    // before the restart begins, and then the restart would go unfelt.
    let restarted = false
    const writers = Array.from({ length: 6 }, async () => {
      while (next < WRITES || !restarted) await write(next++)
    })
    await sleep(1500)
    const config = stackConfig()
    const restartedAt = Date.now()
    // Asynchronously, so the writers keep writing while Postgres goes down and comes back.
    const pgCtl = [
      `${PG_BIN}/pg_ctl`,
      '-D',
      config.dataDir,
      '-m',
      'fast',
      '-w',
      'restart',
      '-l',
      `${config.dataDir}/server.log`,
    ]
    const asRoot = process.getuid?.() === 0
    const child = spawn(
      asRoot ? 'runuser' : (pgCtl[0] as string),
      asRoot ? ['-u', 'postgres', '--', ...pgCtl] : pgCtl.slice(1),
      { stdio: 'ignore' },
    )
    const pgCtlStatus = await new Promise((resolve) => child.on('close', resolve))
    restarted = true
    await Promise.all(writers)
    expect(pgCtlStatus, 'pg_ctl restart').toBe(0)
    const written = next

    expect([...outcomes.values()].filter((o) => o === 'gave up')).toEqual([])
    expect(failures, 'the restart was felt by the writers').toBeGreaterThan(0)
    const { rows } = await db().query(
      `select count(*)::int as total, count(distinct lower(target_username))::int as distinct_names
         from public.do_not_contact where user_id = $1`,
      [user.id],
    )
    expect(written).toBeGreaterThanOrEqual(WRITES)
    expect(rows[0]).toEqual({ total: written, distinct_names: written })

    // Everything answers again: data API, Auth, functions.
    const until = Date.now() + 30_000
    let back = false
    while (!back && Date.now() < until) {
      const [rest, auth, fn] = await Promise.all([
        call('/rest/v1/rpc/dashboard_summary', { method: 'POST', token, body: {} }),
        call('/auth/v1/user', { token }),
        call('/functions/v1/api/user/credits', { token }),
      ])
      back = rest.status === 200 && auth.status === 200 && fn.status === 200
      if (!back) await sleep(200)
    }
    expect(back).toBe(true)
    console.log(
      `[reliability] db restart: ${written} writes, ${failures} failed attempts retried, ` +
        `${[...outcomes.values()].filter((o) => o === 'already written').length} uncertain commits resolved by the key, ` +
        `all services back ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart began`,
    )
  }, 300_000)
})
