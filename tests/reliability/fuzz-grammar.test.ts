// The gateway's query grammar under fuzz, in two complements to its own conformance fuzzer
// (stack/gateway/test/rest-fuzz.test.ts: 10,000 grammar-built requests as the service role on
// fixture tables, not repeated here):
// 1. in-process, 10,000 arbitrary (not grammar-built) keys and values straight into the parser:
//    it returns a parse or throws the gateway's RestError with a 4xx, never a TypeError or a hang;
// 2. over HTTP as a signed-in customer on the product's real tables, views and RPCs, where row-level
//    security and real column types are in play: RELIABILITY_FUZZ_RUNS requests (default 800;
//    `npm run soak` runs 10,000), never a 5xx.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RestError } from '../../stack/gateway/src/rest/errors.ts'
import { parseQuery } from '../../stack/gateway/src/rest/parse/query.ts'
import { propertySeed } from '../../stack/src/test-seed.ts'
import { customer } from '../functions/helpers.ts'
import { customerRpcs, relations } from './catalog.ts'
import { nastyString } from './fuzz-arbitraries.ts'
import { call, inBatches } from './probes.ts'

const RUNS = Number(process.env.RELIABILITY_FUZZ_RUNS ?? 800)
const SEED = Number(process.env.RELIABILITY_FUZZ_SEED ?? propertySeed('fuzz-grammar'))

const PIECES = [
  'select',
  'order',
  'limit',
  'offset',
  'or',
  'and',
  'not',
  'eq',
  'neq',
  'gt',
  'like',
  'ilike',
  'in',
  'is',
  'cs',
  'cd',
  'ov',
  'fts',
  'id',
  'user_id',
  'name',
  'status',
  '*',
  ',',
  '.',
  '(',
  ')',
  '!',
  ':',
  '::',
  '->',
  '->>',
  '"',
  '\\',
  "'",
  '...',
  'inner',
  'left',
  'null',
  'true',
  'asc',
  'desc',
  'nullsfirst',
  'count()',
  '{',
  '}',
  '%',
  ' ',
]
const piece = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((p) => p.join('')),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  nastyString.map((s) => s.slice(0, 2000)),
)
const KEYS = [
  'select',
  'order',
  'limit',
  'offset',
  'or',
  'and',
  'not.and',
  'columns',
  'on_conflict',
  'id',
  'name',
  'status',
  'x.order',
  'campaigns.limit',
]
const params = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), piece), piece), {
  minLength: 1,
  maxLength: 5,
})

describe('fuzzing the query grammar', () => {
  it('the parser takes 10,000 arbitrary queries: a parse or a 4xx RestError, nothing else', () => {
    const started = Date.now()
    let refused = 0
    fc.assert(
      fc.property(params, (pairs) => {
        try {
          parseQuery(new URLSearchParams(pairs))
        } catch (error) {
          if (!(error instanceof RestError)) throw error
          if (error.status < 400 || error.status >= 500)
            throw new Error(`status ${error.status}: ${error.message}`)
          refused++
        }
      }),
      { numRuns: 10_000, seed: SEED },
    )
    expect(refused).toBeGreaterThan(1000)
    // Bounded, not a benchmark: 10,000 parses take ~5 s on a quiet machine, 40 s on a busy one.
    expect(Date.now() - started).toBeLessThan(120_000)
  }, 150_000)

  it('a write to any view is a clear 4xx (or touches nothing), never a rewriter 500', async () => {
    const user = await customer('viewwriter')
    const views = (await relations()).filter((r) => r.kind === 'v' || r.kind === 'm')
    expect(views.length).toBeGreaterThan(0)
    for (const view of views)
      for (const method of ['POST', 'PATCH', 'DELETE']) {
        const reply = await call(`/rest/v1/${view.name}${method === 'POST' ? '' : '?id=not.is.null'}`, {
          method,
          token: user.session.access_token,
          body: method === 'DELETE' ? undefined : { id: crypto.randomUUID() },
        })
        expect(reply.status, `${method} ${view.name}: ${reply.text}`).toBeLessThan(500)
        if (reply.status < 300) expect(reply.text, `${method} ${view.name}`).toBe('')
      }
  })

  it(`a customer's ${RUNS} random queries on the real tables, views and RPCs: no 5xx`, async () => {
    const user = await customer('grammarfuzz')
    const targets = [
      ...(await relations()).map((r) => r.name),
      ...(await customerRpcs()).map((r) => `rpc/${r.name}`),
    ]
    const cases = fc.sample(
      fc.tuple(
        fc.constantFrom(...targets),
        params,
        fc.constantFrom('GET', 'HEAD', 'PATCH', 'DELETE', 'POST'),
      ),
      { numRuns: RUNS, seed: SEED },
    )
    const failures: string[] = []
    const statuses = new Map<number, number>()
    await inBatches(cases, 6, async ([target, pairs, method]) => {
      const search = new URLSearchParams(pairs.map(([k, v]) => [k, v.slice(0, 500)]))
      const rpc = target.startsWith('rpc/')
      const verb = rpc ? (method === 'GET' || method === 'HEAD' ? method : 'POST') : method
      const reply = await call(`/rest/v1/${target}?${search}`, {
        method: verb,
        token: user.session.access_token,
        body: verb === 'GET' || verb === 'HEAD' ? undefined : {},
      })
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
      if (reply.status >= 500)
        failures.push(`${reply.status} ${verb} ${target}?${search}: ${reply.text.slice(0, 200)}`)
    })
    console.log(
      `[reliability] grammar fuzz over HTTP: ${cases.length} requests (${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')})`,
    )
    expect(failures).toEqual([])
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0)
  }, 600_000)
})
