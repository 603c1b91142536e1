// The RPCs the web app reads whose result is json/jsonb, called as a customer on real data: each
// answer must be exactly what the app's schema (and so its TypeScript type) says. A key the SQL
// leaves out or mistypes fails the parse; a key the app does not know fails the comparison with
// what was parsed (the app's schemas drop unknown keys). The demo customer has data on every screen;
// each case runs in a transaction that is rolled back.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { db } from '../stack/gateway/test/helpers.ts'
import { repoRoot } from '../stack/src/config.ts'
import { JSON_RPCS } from '../web/src/lib/database/json-rpcs.ts'

type JsonRpc = keyof typeof JSON_RPCS

afterAll(async () => {
  await db().end()
})

/** Runs `sql` as the demo customer (as PostgREST would) after `setUp` ran as postgres; rolls back. */
async function asDemo(setUp: string, sql: string, params: (id: DemoIds) => unknown[]): Promise<unknown> {
  const client = await db().connect()
  try {
    await client.query('begin')
    const ids = await demoIds(client)
    if (setUp) await client.query(setUp, [ids.userId])
    await client.query(
      `select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`,
      [JSON.stringify({ sub: ids.userId, role: 'authenticated' })],
    )
    return (await client.query<{ result: unknown }>(sql, params(ids))).rows[0]?.result
  } finally {
    await client.query('rollback')
    client.release()
  }
}

interface DemoIds {
  userId: string
  campaignId: string
  scrapingId: string
}

async function demoIds(client: pg.PoolClient): Promise<DemoIds> {
  const { rows } = await client.query<DemoIds>(
    `select u.id as "userId",
            (select c.id from public.campaigns c where c.user_id = u.id order by c.messages_sent desc limit 1) as "campaignId",
            (select s.id from public.scraping_campaigns s where s.user_id = u.id order by s.collected_count desc limit 1)
              as "scrapingId"
       from auth.users u where u.email = 'demo@reachflow.test'`,
  )
  const ids = rows[0]
  if (!ids?.campaignId || !ids.scrapingId) throw new Error('The seed has no demo customer with campaigns')
  return ids
}

// Every nullable value the schemas allow is also seen set: the winner rule and AI writing are on.
const WINNER_AND_AI = `update public.campaigns set winner_after_sends = 100, ai_personalization = true,
                              winner_chosen_at = now() where user_id = $1`

const CASES: Record<JsonRpc, { setUp?: string; sql: string; params?: (id: DemoIds) => unknown[] }> = {
  check_account_limit: { sql: 'select public.check_account_limit() as result' },
  campaign_stats: {
    sql: 'select public.campaign_stats($1, 30) as result',
    params: (id) => [id.campaignId],
  },
  dashboard_counts: { sql: 'select public.dashboard_counts() as result' },
  dashboard_snapshot: { setUp: WINNER_AND_AI, sql: 'select public.dashboard_snapshot() as result' },
  do_not_contact_overview: { sql: 'select public.do_not_contact_overview() as result' },
  inbox_overview: { sql: 'select public.inbox_overview() as result' },
  request_inbox_check: { sql: 'select public.request_inbox_check() as result' },
  set_opt_out_words: {
    sql: `select public.set_opt_out_words('{unsubscribe,"no thanks"}', '{stop}') as result`,
  },
  scraping_campaign_stats: {
    sql: 'select public.scraping_campaign_stats($1) as result',
    params: (id) => [id.scrapingId],
  },
}

/**
 * Array positions in an answer (indices written [*]) where no array holds anything: there the
 * elements' schema is never tried. One campaign with follow-ups covers every campaign's list.
 */
function neverFilled(value: unknown): string[] {
  const filled = new Map<string, boolean>()
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      filled.set(path, (filled.get(path) ?? false) || v.length > 0)
      for (const item of v) walk(item, `${path}[*]`)
    } else if (v && typeof v === 'object')
      for (const [k, item] of Object.entries(v)) walk(item, `${path}.${k}`)
  }
  walk(value, '$')
  return [...filled].filter(([, any]) => !any).map(([path]) => path)
}

describe('json RPCs the web app reads', () => {
  it.each(Object.keys(CASES) as JsonRpc[])('%s answers exactly what the app’s schema says', async (name) => {
    const { setUp = '', sql, params = () => [] } = CASES[name]
    const answer = await asDemo(setUp, sql, params)
    const parsed = JSON_RPCS[name].safeParse(answer)
    expect(parsed.error?.issues ?? [], `${name}: keys the SQL leaves out or types otherwise`).toEqual([])
    expect(parsed.data, `${name}: keys the SQL returns that the app does not know`).toEqual(answer)
    // The random days off of the next 14 days depend on the date: some fortnights have none.
    expect(neverFilled(answer).filter((path) => path !== '$.daysOff')).toEqual([])
  })

  it('every json/jsonb RPC the web app calls has a schema here', async () => {
    const called = new Set<string>()
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
          for (const m of readFileSync(path, 'utf8').matchAll(/\.rpc\(\s*'([a-z_]+)'/g))
            called.add(m[1] ?? '')
      }
    }
    walk(join(repoRoot, 'web', 'src'))
    const { rows } = await db().query<{ name: string }>(
      `select p.proname as name from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.prorettype in ('json'::regtype, 'jsonb'::regtype)
          and p.proname = any($1)`,
      [[...called]],
    )
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(JSON_RPCS).sort())
  })
})
