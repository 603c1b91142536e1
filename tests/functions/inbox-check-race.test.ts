// "Check now" is promised once a minute per account. Twenty calls at once through the gateway's
// data API (as the web app makes it, rpc/request_inbox_check) must let exactly one through: the
// claim is one atomic statement in the database, not a read and then a write.
//
// To make the race happen on every run, however loaded the machine, a transaction of the test holds
// the account's row while the calls arrive: each call has started and waits on that row before the
// test lets go (progress read from pg_locks, not a timer). A check that read the last request
// before waiting would then see none in every waiting call and let them all through.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { anonKey, api } from '../../stack/gateway/test/helpers.ts'
import { customer, db, givePlan, invoke, xCookies } from './helpers.ts'

const CALLS = 20

let owner: Awaited<ReturnType<typeof customer>>
let accountId = ''

beforeAll(async () => {
  owner = await customer('checknow')
  await givePlan(owner.id, 2)
  const created = await invoke(owner.sb, 'api/social-accounts', 'POST', {
    platform: 'twitter',
    username: 'checknow_x',
    authData: { cookies: xCookies() },
    proxyUrl: null,
  })
  expect(created.status).toBe(201)
  accountId = created.body.id as string
  await db().query(`update public.social_accounts set status = 'active' where id = $1`, [accountId])
})

afterAll(async () => {
  await db().query('delete from public.social_accounts where id = $1', [accountId])
})

const checkNow = () =>
  fetch(`${api}/rest/v1/rpc/request_inbox_check`, {
    method: 'POST',
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${owner.session.access_token}`,
      'content-type': 'application/json',
    },
    body: '{}',
  })

/** Calls of request_inbox_check waiting for the account's row (behind the test or each other). */
async function waitingCalls(): Promise<number> {
  const { rows } = await db().query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where cardinality(pg_blocking_pids(pid)) > 0 and query ilike '%request_inbox_check%'`,
  )
  return rows[0]?.n ?? 0
}

it('twenty simultaneous "Check now" calls queue one check; the rest are told to wait', async () => {
  const holder = await db().connect()
  let responses: Response[] = []
  try {
    await holder.query('begin')
    await holder.query('select 1 from public.social_accounts where id = $1 for update', [accountId])
    const calls = Array.from({ length: CALLS }, checkNow)
    // at least two calls inside the function at once, the second waiting behind the first: the race
    const deadline = Date.now() + 60_000
    while ((await waitingCalls()) < 2) {
      if (Date.now() > deadline) throw new Error('the calls never reached the database together')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await holder.query('commit')
    responses = await Promise.all(calls)
  } finally {
    await holder.query('rollback').catch(() => undefined)
    holder.release()
  }
  const statuses = responses.map((r) => r.status).sort()
  const bodies = await Promise.all(responses.map((r) => r.json() as Promise<Record<string, unknown>>))
  expect(statuses.filter((s) => s === 200)).toHaveLength(1)
  expect(statuses.filter((s) => s === 429)).toHaveLength(CALLS - 1)
  expect(bodies.find((b) => 'queued' in b)).toMatchObject({ queued: 1, limited: 0 })
  for (const body of bodies.filter((b) => !('queued' in b)))
    expect(body.message).toMatch(/^Checked less than a minute ago\. Try again in (60|59) s\.$/)
  const { rows: jobs } = await db().query(
    `select count(*)::int as n from pgboss.job where name = 'inbox.sync' and data ->> 'accountId' = $1`,
    [accountId],
  )
  expect(jobs[0]?.n).toBe(1)
}, 120_000)
