// Tenant isolation through /functions/v1 and /storage/v1, for each intruder: customer B, a member
// with each role of another workspace, and a removed member of A's workspace whose token is still
// valid. Function routes are read from each function's app.ts (a new route is probed without
// editing this file): the intruder calls every route with every one of A's ids in the path, and the
// create routes with A's ids in the body; every admin route answers a customer with 403. Buckets
// come from storage.buckets: the intruder tries to overwrite, plant, move, copy, list, sign and
// remove A's objects, and to reach them through path tricks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db } from '../functions/helpers.ts'
import { buckets, type Ownership, ownership, relations } from './catalog.ts'
import { call, inBatches, type Reply, Tally } from './probes.ts'
import { fill, functionNames, functionRoutes, hasRouter, type Route } from './routes.ts'
import {
  attacker,
  type Intruder,
  otherWorkspaceMembers,
  PNG,
  ROLES,
  removeFromVictim,
  type Victim,
  victim,
  victimMember,
} from './tenants.ts'

/** Who probes A's functions and objects, each in their own describe below. */
const INTRUDERS = [
  'B, another customer',
  ...ROLES.map((role) => `${role} of another workspace`),
  'removed member of A',
]

let a: Victim
let aOwn: Ownership
const intruders = new Map<string, Intruder>()
const tallies: Tally[] = []

beforeAll(async () => {
  const [victimA, b, others] = await Promise.all([victim(), attacker(), otherWorkspaceMembers()])
  a = victimA
  aOwn = await ownership(a.id, await relations())
  // A member of A's workspace who is removed at once: their token stays valid.
  const removed = await victimMember(a)
  await removeFromVictim(a, removed)
  for (const who of [b, ...others, removed]) intruders.set(who.label, who)
  expect([...intruders.keys()]).toEqual(INTRUDERS)
}, 180_000)

afterAll(() => {
  const probes = tallies.reduce((sum, t) => sum + t.probes, 0)
  const leaks = tallies.reduce((sum, t) => sum + t.leaks.length, 0)
  console.log(
    `[reliability] isolation /functions/v1 + /storage/v1: ${probes} probes by ${INTRUDERS.length} intruders, ${leaks} leaks`,
  )
})

/** The intruder and a tally of their probes. */
function intruder(label: string): { who: Intruder; tally: Tally } {
  const who = intruders.get(label)
  if (!who) throw new Error(`no intruder ${label}`)
  const tally = new Tally(a.canary, aOwn.ids)
  tallies.push(tally)
  return { who, tally }
}

/**
 * A's identifiers an attacker would put in a path: A's user id, the ids of (up to three) rows of
 * every table, and the Stripe ids of A's rows.
 */
function victimIdentifiers(): string[] {
  const out = new Set<string>([a.id])
  for (const rows of aOwn.rows.values())
    for (const row of rows.slice(0, 3))
      for (const [key, value] of Object.entries(row)) {
        if (key === 'id' && typeof value === 'string') out.add(value)
        if (key.startsWith('stripe_') && key.endsWith('_id') && typeof value === 'string') out.add(value)
      }
  return [...out]
}

/** What A owns, as the database sees it: status and name per row, lead counts per list and campaign. */
async function victimState() {
  const { rows } = await db().query(
    `select (select json_agg(json_build_object('id', id, 'status', status) order by id) from public.social_accounts where user_id = $1) accounts,
            (select json_agg(json_build_object('id', id, 'status', status, 'name', name) order by id) from public.scraping_campaigns where user_id = $1) scraping,
            (select json_agg(json_build_object('id', id, 'status', status, 'name', name) order by id) from public.campaigns where user_id = $1) campaigns,
            (select json_agg(json_build_object('id', id, 'name', name) order by id) from public.lead_lists where user_id = $1) lists,
            (select json_agg(json_build_object('status', status, 'cancel', cancel_at_period_end) order by id) from public.subscriptions where user_id = $1) subscriptions,
            (select count(*) from public.campaign_leads where user_id = $1) campaign_leads,
            (select count(*) from public.lead_list_members where user_id = $1) members`,
    [a.id],
  )
  return rows[0]
}

describe.each(INTRUDERS)('tenant isolation through the functions, probed by %s', (label) => {
  it("reaches none of A's rows through any function route, with A's ids in paths or bodies", async () => {
    const { who, tally } = intruder(label)
    const asIntruder = (path: string, init: Parameters<typeof call>[1] = {}) =>
      call(path, { ...init, token: who.session.access_token })
    const before = await victimState()
    const routes = functionNames()
      .filter(hasRouter)
      .filter((fn) => fn !== 'admin')
      .flatMap(functionRoutes)
    expect(routes.length).toBeGreaterThan(10)
    const identifiers = victimIdentifiers()
    const probes: { route: Route; path: string; body?: unknown }[] = []
    for (const route of routes) {
      if (!route.path.includes(':')) probes.push({ route, path: route.path })
      else
        for (const id of identifiers)
          probes.push({
            route,
            path: fill(route.path, id),
            body: route.method === 'PUT' ? { name: 'taken over' } : undefined,
          })
    }
    // Create routes with A's ids where B's own would go.
    const post = (path: string, body: unknown) =>
      probes.push({ route: { fn: 'api', method: 'POST', path }, path, body })
    const schedule = { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00', activeDays: ['monday'] }
    post('/v2/campaigns', {
      name: 'steal',
      account_id: a.accountId,
      platform: 'twitter',
      scraping_campaign_id: a.scrapingId,
      sequences: { messages: ['hi'] },
      schedule,
    })
    post('/v2/campaigns', {
      name: 'steal',
      account_id: a.accountId,
      platform: 'twitter',
      lead_list_id: a.listId,
      sequences: { messages: ['hi'] },
      schedule,
    })
    post('/scraping-campaigns', {
      name: 'steal',
      account_id: a.accountId,
      sources: { type: 'keyword', value: 'x' },
      target_count: 5,
    })
    const leadIds = (aOwn.rows.get('scraping_campaign_leads') ?? []).map((row) => row.id)
    post('/lead-lists', { name: 'steal', lead_ids: leadIds })
    await inBatches(probes, 4, async ({ route, path, body }) => {
      const reply = await asIntruder(`/functions/v1/${route.fn}${path}`, { method: route.method, body })
      tally.reply(`${route.method} ${route.fn}${path}`, { path, body }, reply)
      if (route.path.includes(':'))
        tally.verdict(
          `${route.method} ${route.fn}${path} refused`,
          reply.status < 400,
          `answered ${reply.status}`,
        )
    })
    expect(await victimState()).toEqual(before)
    // Nothing of A's ended up in B's data either (a campaign or list built from A's leads).
    const copied = await db().query(
      `select 1 from public.campaign_leads cl where cl.user_id = $1 and cl.scraping_lead_id = any($2::uuid[])
       union all select 1 from public.lead_list_members m where m.user_id = $1 and m.scraping_lead_id = any($2::uuid[])`,
      [who.id, leadIds],
    )
    tally.verdict(
      `A's leads copied into ${who.label}'s data`,
      (copied.rowCount ?? 0) > 0,
      `${copied.rowCount} rows`,
    )
    expect(tally.serverErrors).toEqual([])
    expect(tally.leaks).toEqual([])
  }, 150_000)

  it('every admin route refuses them with 403 and does nothing', async () => {
    const { who, tally } = intruder(label)
    const asIntruder = (path: string, init: Parameters<typeof call>[1] = {}) =>
      call(path, { ...init, token: who.session.access_token })
    const routes = functionRoutes('admin')
    expect(routes.length).toBeGreaterThan(10)
    const paused = await db().query('select count(*)::int n from public.paused_queues')
    for (const route of routes) {
      const path = fill(route.path, route.path.includes(':name') ? 'campaign.tick' : a.accountId)
      const reply = tally.reply(
        `admin ${route.method} ${path}`,
        path,
        await asIntruder(`/functions/v1/admin${path}`, {
          method: route.method,
          body: route.method === 'GET' ? undefined : {},
        }),
      )
      expect(reply.status, `${route.method} ${path}`).toBe(403)
      expect(reply.json).toEqual({ error: 'Access denied - admin privileges required' })
    }
    expect((await db().query('select count(*)::int n from public.paused_queues')).rows[0]).toEqual(
      paused.rows[0],
    )
  })
})

describe.each(INTRUDERS)('tenant isolation through storage, probed by %s', (label) => {
  it("cannot overwrite, plant, move, copy, list, sign or remove A's objects in any bucket", async () => {
    const { who, tally } = intruder(label)
    const asIntruder = (path: string, init: Parameters<typeof call>[1] = {}) =>
      call(path, { ...init, token: who.session.access_token })
    const all = await buckets()
    expect(all.map((bucket) => bucket.id)).toContain('avatars')
    for (const bucket of all) {
      const victimPath = `${a.id}/avatar.png`
      if (bucket.id !== 'avatars') {
        // A bucket added later: A stores an object there first, as A would through the app (an
        // upsert: each intruder's probe stores it again).
        const up = await call(`/storage/v1/object/${bucket.id}/${victimPath}`, {
          method: 'POST',
          token: a.session.access_token,
          headers: { 'Content-Type': 'image/png', 'x-upsert': 'true' },
        })
        if (up.status !== 200) {
          // An operator-only bucket (no policy for signed-in users; the admin function files its
          // objects with the service role, e.g. site-change outlines): the object is stored that
          // way, and no customer may read it, its "owner" A included.
          expect(bucket.public, `A cannot store an object in bucket ${bucket.id}: extend this probe`).toBe(
            false,
          )
          const planted = await call(`/storage/v1/object/${bucket.id}/${victimPath}`, {
            method: 'POST',
            token: process.env.SUPABASE_SERVICE_ROLE_KEY,
            body: { planted: a.canary },
            headers: { 'x-upsert': 'true' },
          })
          expect(planted.status, `the service role stores an object in ${bucket.id}`).toBe(200)
          const read = await call(`/storage/v1/object/authenticated/${bucket.id}/${victimPath}`, {
            token: a.session.access_token,
          })
          tally.reply(`${bucket.id} read by A`, victimPath, read)
          tally.verdict(
            `${bucket.id} read by A`,
            read.status === 200,
            'a customer read an operator-only object',
          )
        }
      }
      const version = async () =>
        (
          await db().query(
            'select version, metadata from storage.objects where bucket_id = $1 and name = $2',
            [bucket.id, victimPath],
          )
        ).rows[0]
      const before = await version()
      expect(before, `A's object in ${bucket.id}`).toBeDefined()
      const object = `/storage/v1/object/${bucket.id}`
      const raw = (path: string, method: string, upsert: boolean) =>
        fetch(`${process.env.SUPABASE_URL}${path}`, {
          method,
          headers: {
            apikey: process.env.SUPABASE_ANON_KEY ?? '',
            Authorization: `Bearer ${who.session.access_token}`,
            'Content-Type': 'image/png',
            'x-upsert': String(upsert),
          },
          body: new Uint8Array(PNG),
        }).then(
          async (r) => ({ status: r.status, text: await r.text(), json: null, headers: r.headers }) as Reply,
        )
      const refused = (label: string, reply: Reply) => {
        tally.reply(`${bucket.id} ${label}`, label, reply)
        tally.verdict(
          `${bucket.id} ${label}`,
          reply.status === 200,
          `answered 200: ${reply.text.slice(0, 120)}`,
        )
      }
      refused('overwrite (upsert)', await raw(`${object}/${victimPath}`, 'POST', true))
      refused('update (PUT)', await raw(`${object}/${victimPath}`, 'PUT', false))
      refused("plant a new object in A's folder", await raw(`${object}/${a.id}/planted.png`, 'POST', false))
      refused('path traversal', await raw(`${object}/${who.id}/../${victimPath}`, 'POST', true))
      refused('encoded traversal', await raw(`${object}/${who.id}/%2e%2e/${victimPath}`, 'POST', true))
      refused(
        'move to the intruder',
        await asIntruder('/storage/v1/object/move', {
          method: 'POST',
          body: { bucketId: bucket.id, sourceKey: victimPath, destinationKey: `${who.id}/stolen.png` },
        }),
      )
      refused(
        'move within A',
        await asIntruder('/storage/v1/object/move', {
          method: 'POST',
          body: { bucketId: bucket.id, sourceKey: victimPath, destinationKey: `${a.id}/moved.png` },
        }),
      )
      refused(
        'copy to the intruder',
        await asIntruder('/storage/v1/object/copy', {
          method: 'POST',
          body: { bucketId: bucket.id, sourceKey: victimPath, destinationKey: `${who.id}/copied.png` },
        }),
      )
      const removed = await asIntruder(object, { method: 'DELETE', body: { prefixes: [victimPath] } })
      tally.reply(`${bucket.id} remove`, victimPath, removed)
      tally.verdict(
        `${bucket.id} remove`,
        Array.isArray(removed.json) && removed.json.length > 0,
        'the intruder removed it',
      )
      const listed = await asIntruder(`/storage/v1/object/list/${bucket.id}`, {
        method: 'POST',
        body: { prefix: a.id, limit: 100 },
      })
      tally.reply(`${bucket.id} list`, a.id, listed)
      tally.verdict(
        `${bucket.id} list A's folder`,
        Array.isArray(listed.json) && listed.json.length > 0,
        "the intruder listed A's objects",
      )
      if (!bucket.public) {
        // Private buckets: no read either (a public bucket's objects are public by design).
        refused('download', await asIntruder(`/storage/v1/object/authenticated/${bucket.id}/${victimPath}`))
        refused(
          'sign',
          await asIntruder(`/storage/v1/object/sign/${bucket.id}/${victimPath}`, {
            method: 'POST',
            body: { expiresIn: 60 },
          }),
        )
      }
      expect(await version(), `A's object in ${bucket.id} is untouched`).toEqual(before)
    }
    expect(tally.serverErrors).toEqual([])
    expect(tally.leaks).toEqual([])
  })
})
