// Tenant isolation through /rest/v1, driven from pg_catalog: for every table and view in `public`
// and every RPC the signed-in role may execute, each intruder (customer B, a member with each role
// of another workspace, a removed member of A's workspace with a still valid token) tries to read,
// change, delete, take over (upsert with their own user id) and write into customer A's data: REST
// filters, counts, single-object reads, embeds along every foreign key, RPC arguments. A table
// added later gets the same probes; a customer table the fixture gives A no row in fails the
// coverage check, so it cannot slip by.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db } from '../functions/helpers.ts'
import {
  customerRpcs,
  type ForeignKey,
  foreignKeys,
  type Ownership,
  ownership,
  quoteIdent,
  type Relation,
  relations,
  uuidsIn,
} from './catalog.ts'
import { call, inBatches, type Reply, Tally } from './probes.ts'
import {
  attacker,
  type Intruder,
  otherWorkspaceMembers,
  ROLES,
  removeFromVictim,
  type Victim,
  victim,
  victimMember,
} from './tenants.ts'

/** Tables that hold no customer's rows (shared reference data and the operator's tables). */
/** Settings every signed-in customer reads alike (not anon): the same rows for A and B are no leak. */
const SHARED_WITH_SIGNED_IN = ['ai_settings']
const NOT_CUSTOMER_DATA = new Set([
  'platforms',
  'stripe_events',
  'runner_heartbeats',
  'runner_commands',
  'system_logs',
  'paused_queues',
  // the fleet's site-change handling, the canary and platform packs: operators' data (service role)
  'platform_action_pauses',
  'platform_canary_accounts',
  'platform_canary_runs',
  'platform_canary_settings',
  'platform_incident_outlines',
  'platform_incident_sightings',
  'platform_incidents',
  'platform_pack_publications',
  'platform_packs',
  ...SHARED_WITH_SIGNED_IN,
])

/** Who probes A's workspace, each in their own describe below. */
const INTRUDERS = [
  'B, another customer',
  ...ROLES.map((role) => `${role} of another workspace`),
  'removed member of A',
]

/** One intruder's probes: who they are, the rows that are theirs to see, and the tally. */
interface Probe {
  who: Intruder
  own: Ownership
  tally: Tally
}

let rels: Relation[]
let fks: ForeignKey[]
let a: Victim
let aOwn: Ownership
let removed: Intruder
const intruders = new Map<string, Intruder>()
const tallies: Tally[] = []
const marker = `B-WAS-HERE-${randomBytes(4).toString('hex')}`

beforeAll(async () => {
  const [victimA, b, others] = await Promise.all([victim(), attacker(), otherWorkspaceMembers()])
  a = victimA
  rels = await relations()
  fks = await foreignKeys()
  // A's rows as they stand before the member who will be removed joins (their membership row goes).
  aOwn = await ownership(a.id, rels)
  removed = await victimMember(a)
  for (const who of [b, ...others, removed]) intruders.set(who.label, who)
  expect([...intruders.keys()]).toEqual(INTRUDERS)
}, 180_000)

afterAll(() => {
  const probes = tallies.reduce((sum, t) => sum + t.probes, 0)
  const leaks = tallies.reduce((sum, t) => sum + t.leaks.length, 0)
  console.log(
    `[reliability] isolation /rest/v1: ${probes} probes by ${INTRUDERS.length} intruders, ${leaks} leaks`,
  )
})

/** The intruder's probe context; the removed member is removed before anything is probed. */
async function probeAs(label: string): Promise<Probe> {
  const who = intruders.get(label)
  if (!who) throw new Error(`no intruder ${label}`)
  if (who === removed) await removeFromVictim(a, removed)
  const tally = new Tally(a.canary, aOwn.ids)
  tallies.push(tally)
  return { who, own: await ownership(who.id, rels, who.workspaceIds), tally }
}

const as = (p: Probe, path: string, init: Parameters<typeof call>[1] = {}) =>
  call(`/rest/v1/${path}`, { ...init, token: p.who.session.access_token })

const rowsOf = (reply: Reply): Record<string, unknown>[] =>
  Array.isArray(reply.json) ? (reply.json as Record<string, unknown>[]) : []

const stable = (row: unknown) => JSON.stringify(row, Object.keys((row ?? {}) as object).sort())

/** Every row the intruder reads must be one anyone may read (anon sees it too) or their own. */
function checkRows(p: Probe, label: string, rel: Relation, reply: Reply, anonRows: Set<string>) {
  for (const full of rowsOf(reply)) {
    // The relation's own columns decide; embedded rows are judged by the canary and id scan.
    const row = Object.fromEntries(
      rel.columns.filter((c) => c.name in full).map((c) => [c.name, full[c.name]]),
    )
    const own = [...uuidsIn(row)].some((id) => p.own.ids.has(id))
    p.tally.verdict(
      `${label} row`,
      !own && !anonRows.has(stable(row)),
      `${p.who.label} read a row of ${rel.name} that is neither public nor theirs`,
    )
  }
}

const victimRows = (rel: string) => aOwn.rows.get(rel) ?? []

/** A few of A's values per uuid column of `rel`, the ids an attacker would aim at. */
function targets(rel: Relation): [string, string[]][] {
  const rows = victimRows(rel.name).slice(0, 3)
  return rel.columns
    .filter((c) => c.type === 'uuid')
    .map(
      (c) =>
        [
          c.name,
          [...new Set(rows.map((r) => r[c.name]).filter((v): v is string => typeof v === 'string'))],
        ] as [string, string[]],
    )
    .filter(([, values]) => values.length > 0)
}

/** The column a write probe tries to change, and a value that shows when it landed. */
function probeColumn(rel: Relation): { name: string; value: unknown } | undefined {
  const candidates = rel.columns.filter(
    (c) => !rel.primaryKey.includes(c.name) && ['text', 'integer', 'jsonb'].includes(c.type),
  )
  const column = candidates.find((c) => rel.updatable.includes(c.name)) ?? candidates[0]
  if (!column) return undefined
  const value = column.type === 'text' ? marker : column.type === 'integer' ? 424242 : { marker }
  return { name: column.name, value }
}

function pkFilter(rel: Relation, row: Record<string, unknown>): string {
  return rel.primaryKey.map((k) => `${k}=eq.${encodeURIComponent(String(row[k]))}`).join('&')
}

describe('tenant isolation through the data API', () => {
  it('covers every customer table: A has rows in each, so every probe has a target', () => {
    const missing = rels
      .filter((r) => !NOT_CUSTOMER_DATA.has(r.name) && victimRows(r.name).length === 0)
      .map((r) => r.name)
    expect(missing, 'give customer A a row in these (tests/reliability/tenants.ts)').toEqual([])
  })

  it('refuses a removed member on their very next request, with the token they still hold', async () => {
    const member = intruders.get('removed member of A')
    if (!member) throw new Error('no member of A')
    const token = member.session.access_token
    const campaign = `campaigns?select=id,name&id=eq.${a.campaignId}`
    const fn = `/functions/v1/api/v2/campaigns/${a.campaignId}`
    // While a member (an editor working in A's workspace), they read and change A's campaign.
    expect(rowsOf(await call(`/rest/v1/${campaign}`, { token }))).toEqual([
      { id: a.campaignId, name: `${a.canary} campaign` },
    ])
    expect((await call(fn, { token })).status).toBe(200)
    await removeFromVictim(a, member)
    // The same token, the very next request: nothing of A's, no write, no function answer.
    const read = await call(`/rest/v1/${campaign}`, { token })
    expect(read.status).toBe(200)
    expect(rowsOf(read)).toEqual([])
    const rename = await call(`/rest/v1/${campaign}`, {
      token,
      method: 'PATCH',
      body: { name: marker },
      headers: { Prefer: 'return=representation' },
    })
    expect(rowsOf(rename)).toEqual([])
    const viaFunction = await call(fn, { token })
    expect(viaFunction.status).toBeGreaterThanOrEqual(400)
    expect(viaFunction.text).not.toContain(a.canary)
    const { rows } = await db().query('select name from public.campaigns where id = $1', [a.campaignId])
    expect(rows).toEqual([{ name: `${a.canary} campaign` }])
    const workspaces = await call('/rest/v1/rpc/my_workspaces', { token, method: 'POST', body: {} })
    expect(JSON.stringify(workspaces.json)).not.toContain(a.id)
  })
})

describe.each(INTRUDERS)('tenant isolation through the data API, probed by %s', (label) => {
  let p: Probe
  beforeAll(async () => {
    p = await probeAs(label)
  }, 120_000)

  it('reads nothing of A: plain reads, filters on A ids, counts, single objects, embeds', async () => {
    await inBatches(rels, 4, async (rel) => {
      const everyone = SHARED_WITH_SIGNED_IN.includes(rel.name) ? { token: a.session.access_token } : {}
      const anon = await call(`/rest/v1/${rel.name}?select=*`, everyone)
      const anonRows = new Set(rowsOf(anon).map(stable))
      const read = async (label: string, query: string, headers: Record<string, string> = {}) => {
        const reply = p.tally.reply(
          `${rel.name} ${label}`,
          query,
          await as(p, `${rel.name}?${query}`, { headers }),
        )
        checkRows(p, `${rel.name} ${label}`, rel, reply, anonRows)
        return reply
      }
      const all = await read('select all', 'select=*')
      const counted = await read('count', 'select=*&limit=1', { Prefer: 'count=exact' })
      const total = counted.headers.get('content-range')?.split('/')[1]
      p.tally.verdict(
        `${rel.name} count`,
        total !== undefined && total !== '*' && Number(total) > rowsOf(all).length,
        `count ${total} exceeds the ${rowsOf(all).length} rows ${p.who.label} may see`,
      )
      for (const [column, values] of targets(rel)) {
        const [first = ''] = values
        await read(`${column}=eq`, `select=*&${column}=eq.${first}`)
        await read(`${column}=in`, `select=*&${column}=in.(${values.join(',')})`)
        await read(`${column} or`, `select=*&or=(${column}.eq.${first},${column}.is.null)`)
        await read(`${column} not.neq`, `select=*&${column}=not.neq.${first}`)
        await read(`${column} single`, `select=*&${column}=eq.${first}`, {
          Accept: 'application/vnd.pgrst.object+json',
        })
        await read(`${column} head count`, `select=*&${column}=eq.${first}`, { Prefer: 'count=exact' }).then(
          (reply) => {
            const n = reply.headers.get('content-range')?.split('/')[1]
            p.tally.verdict(
              `${rel.name} ${column} filtered count`,
              n !== undefined && n !== '*' && Number(n) > 0 && rowsOf(reply).length === 0,
              `count ${n} of A's rows`,
            )
          },
        )
      }
      for (const fk of fks.filter((f) => f.from === rel.name || f.to === rel.name)) {
        const other = fk.from === rel.name ? fk.to : fk.from
        const hint = fk.columns.length === 1 ? `!${fk.columns[0]}` : ''
        await read(`embed ${other}${hint}`, `select=*,${other}${hint}(*)`)
        await read(`inner embed ${other}${hint}`, `select=*,${other}${hint}!inner(*)`)
      }
    })
    expect(p.tally.serverErrors).toEqual([])
    expect(p.tally.leaks).toEqual([])
  }, 120_000)

  it("cannot change, delete, take over or write into A's rows", async () => {
    const tables = rels.filter((r) => r.kind === 'r' || r.kind === 'p')
    const before = new Map(tables.map((r) => [r.name, victimRows(r.name)]))
    await inBatches(tables, 4, async (rel) => {
      const column = probeColumn(rel)
      const body = column ? { [column.name]: column.value } : {}
      const rows = victimRows(rel.name).slice(0, 2)
      const filters = [
        ...(rel.primaryKey.length > 0 ? rows.map((row) => pkFilter(rel, row)) : []),
        ...targets(rel).map(([c, values]) => `${c}=in.(${values.join(',')})`),
      ]
      const representation = { Prefer: 'return=representation' }
      const landed = (label: string, reply: Reply) => {
        p.tally.reply(`${rel.name} ${label}`, label, reply)
        const touched = rowsOf(reply).filter((row) => [...uuidsIn(row)].some((id) => aOwn.ids.has(id)))
        p.tally.verdict(
          `${rel.name} ${label}`,
          reply.status < 300 && touched.length > 0,
          `${touched.length} of A's rows written`,
        )
      }
      for (const filter of filters) {
        landed(
          `PATCH ${filter}`,
          await as(p, `${rel.name}?${filter}`, { method: 'PATCH', body, headers: representation }),
        )
        landed(
          `DELETE ${filter}`,
          await as(p, `${rel.name}?${filter}`, { method: 'DELETE', headers: representation }),
        )
      }
      for (const row of rows) {
        // Take-over: A's row with the intruder's user id (and the probe value), upserted on its key.
        const stolen = JSON.parse(JSON.stringify(row).replaceAll(a.id, p.who.id)) as Record<string, unknown>
        if (column) stolen[column.name] = column.value
        const conflict = rel.primaryKey.length > 0 ? `?on_conflict=${rel.primaryKey.join(',')}` : ''
        for (const resolution of ['merge-duplicates', 'ignore-duplicates']) {
          const reply = await as(p, `${rel.name}${conflict}`, {
            method: 'POST',
            body: stolen,
            headers: { Prefer: `resolution=${resolution},return=representation` },
          })
          landed(`upsert ${resolution}`, reply)
        }
        // Write into A's data: a new row that points at A's parents (or at A), the intruder as its user.
        const planted = { ...stolen }
        for (const key of rel.primaryKey) delete planted[key]
        landed(
          'insert under A',
          await as(p, rel.name, { method: 'POST', body: planted, headers: representation }),
        )
        const forA = { ...row }
        for (const key of rel.primaryKey) delete forA[key]
        if (column) forA[column.name] = column.value
        landed('insert as A', await as(p, rel.name, { method: 'POST', body: forA, headers: representation }))
      }
    })
    // The database's view: every row of A still there, unchanged in the probed column, none added.
    const after = await ownership(a.id, rels)
    for (const rel of tables) {
      const column = probeColumn(rel)
      const now = after.rows.get(rel.name) ?? []
      for (const old of before.get(rel.name) ?? []) {
        const key =
          rel.primaryKey.length > 0 ? rel.primaryKey.map((k) => String(old[k])) : [JSON.stringify(old)]
        const match = now.find((row) =>
          rel.primaryKey.length > 0
            ? rel.primaryKey.every((k, i) => String(row[k]) === key[i])
            : JSON.stringify(row) === key[0],
        )
        p.tally.verdict(`${rel.name} row ${key.join('/')} survives`, !match, `deleted by ${p.who.label}`)
        if (match && column)
          p.tally.verdict(
            `${rel.name} row ${key.join('/')} unchanged`,
            stable(match[column.name]) !== stable(old[column.name]),
            `${column.name} changed`,
          )
      }
      p.tally.verdict(
        `${rel.name} nothing planted`,
        now.some((row) => JSON.stringify(row).includes(marker)),
        `a row of A carries ${p.who.label}'s marker`,
      )
    }
    expect(p.tally.serverErrors).toEqual([])
    expect(p.tally.leaks).toEqual([])
  }, 120_000)

  it('gets nothing of A through any RPC, whatever ids they pass', async () => {
    const rpcs = await customerRpcs()
    expect(rpcs.length).toBeGreaterThan(0)
    await db().query(`delete from pgboss.job where state = 'created' and data::text like '%' || $1 || '%'`, [
      a.accountId,
    ])
    const started = new Date()
    const statusBefore = await statuses()
    const idsFor = (arg: string): string[] => {
      const stem = arg.replace(/^p_/, '').replace(/_id$/, '')
      const rel =
        rels.find((r) => r.name === `${stem}s` || r.name === stem) ??
        rels.find((r) => r.name.endsWith(`${stem}s`))
      const pool = rel ? victimRows(rel.name).map((row) => row[rel.primaryKey[0] ?? 'id']) : [...aOwn.ids]
      return pool.filter((v): v is string => typeof v === 'string').slice(0, 4)
    }
    const plain: Record<string, unknown> = {
      date: new Date().toISOString().slice(0, 10),
      integer: 7,
      text: 'x',
      boolean: true,
      jsonb: {},
    }
    await inBatches(rpcs, 3, async (rpc) => {
      const uuidArgs = rpc.args.filter((arg) => arg.type === 'uuid')
      const base: Record<string, unknown> = {}
      for (const arg of rpc.args)
        if (!arg.hasDefault && arg.type !== 'uuid') base[arg.name] = plain[arg.type] ?? null
      const variants: Record<string, unknown>[] = uuidArgs.length === 0 ? [base] : []
      for (const arg of uuidArgs)
        for (const id of [...idsFor(arg.name), a.id])
          variants.push({ ...base, ...Object.fromEntries(uuidArgs.map((u) => [u.name, id])), [arg.name]: id })
      for (const args of variants) {
        p.tally.reply(
          `rpc ${rpc.name} ${JSON.stringify(args)}`,
          args,
          await as(p, `rpc/${rpc.name}`, { method: 'POST', body: args }),
        )
        const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]))
        p.tally.reply(`rpc GET ${rpc.name}`, args, await as(p, `rpc/${rpc.name}?${query}`))
      }
    })
    const statusAfter = await statuses()
    p.tally.verdict(
      'A rows unchanged by RPCs',
      stable(statusAfter) !== stable(statusBefore),
      'a status of A changed',
    )
    const jobs = await db().query(
      `select name from pgboss.job where created_on >= $1 and name not in ('campaign.tick', 'inbox.sync', 'warmup.step')
          and (data::text like '%' || $2 || '%' or data::text like '%' || $3 || '%' or data::text like '%' || $4 || '%')`,
      [started, a.accountId, a.campaignId, a.scrapingId],
    )
    p.tally.verdict(
      'no job queued for A by the intruder',
      jobs.rowCount !== 0,
      `${jobs.rows.map((r) => r.name).join(', ')}`,
    )
    expect(p.tally.serverErrors).toEqual([])
    expect(p.tally.leaks).toEqual([])
  }, 120_000)
})

/** The status and name of each of A's rows that have one: what a pause/delete/start RPC would change. */
async function statuses() {
  const out: Record<string, unknown> = {}
  for (const rel of ['social_accounts', 'scraping_campaigns', 'campaigns', 'lead_lists']) {
    const { rows } = await db().query(
      `select id, to_jsonb(t) ->> 'status' as status, to_jsonb(t) ->> 'name' as name
         from public.${quoteIdent(rel)} t where user_id = $1 order by id`,
      [a.id],
    )
    out[rel] = rows
  }
  return out
}
