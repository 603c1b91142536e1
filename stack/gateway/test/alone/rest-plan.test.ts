// `Accept: application/vnd.pgrst.plan` behind `pgrst.db_plan_enabled`, as PostgREST 14 answers it.
// The setting changes the whole gateway, so this file runs alone (vitest project runner-alone).
//
// Sources: https://docs.postgrest.org/en/v14/references/observability.html#execution-plan (text by
// default, +json, for=, options=analyze|verbose|settings|buffers|wal, off by default);
// PostgREST 14 src/PostgREST/MediaType.hs (decodeMediaType: `for` defaults to application/json;
// toMime: `application/vnd.pgrst.plan+<fmt>; for="<type>"; options=a|b`), src/PostgREST/Plan.hs
// (negotiateContent, mtPlanToNothing: with the setting off a plan type matches nothing),
// src/PostgREST/Error.hs (MediaTypeError: 406 PGRST107 "None of these media types are available:
// …" listing toMime of each accepted type), src/PostgREST/Query/Statements.hs (mtSnippet/explainF:
// EXPLAIN (FORMAT …, OPTIONS) of the request's statement), src/PostgREST/MainTx.hs (planRow: each
// output row followed by a newline) and src/PostgREST/Response.hs (200, the plan type as Content-Type).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, raw, sql, useFixtures } from '../rest-helpers.ts'

const t = useFixtures('pln')

async function setPlan(value: 'true' | null): Promise<void> {
  await sql(
    value === null
      ? 'alter role authenticator reset pgrst.db_plan_enabled'
      : `alter role authenticator set pgrst.db_plan_enabled = '${value}'`,
  )
  await sql("notify pgrst, 'reload config'")
}

async function untilPlanAnswers(status: number): Promise<void> {
  let last = 0
  for (let i = 0; i < 100; i++) {
    last = (await raw(`/${t('books')}?select=id`, { headers: { Accept: 'application/vnd.pgrst.plan' } }))
      .status
    if (last === status) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(last).toBe(status)
}

afterAll(() => setPlan(null))

describe('plan media type disabled (PostgREST default)', () => {
  beforeAll(async () => {
    await setPlan(null)
    await untilPlanAnswers(406)
  })

  it('answers 406 PGRST107 naming the plan type as PostgREST prints it', async () => {
    const cases: [string, string][] = [
      ['application/vnd.pgrst.plan', 'application/vnd.pgrst.plan+text; for="application/json"'],
      [
        'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=verbose|analyze',
        'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=analyze|verbose',
      ],
      ['application/vnd.pgrst.plan+text; for="text/csv"', 'application/vnd.pgrst.plan+text; for="text/csv"'],
    ]
    for (const [accept, named] of cases) {
      const response = await raw(`/${t('books')}?select=id`, { headers: { Accept: accept } })
      expect(response.status, accept).toBe(406)
      expect(await response.json()).toEqual({
        code: 'PGRST107',
        details: null,
        hint: null,
        message: `None of these media types are available: ${named}`,
      })
    }
  })

  it('still serves another accepted type listed after the plan', async () => {
    const response = await raw(`/${t('books')}?select=id&id=eq.1`, {
      headers: { Accept: 'application/vnd.pgrst.plan, application/json' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([{ id: 1 }])
  })
})

describe('plan media type enabled with pgrst.db_plan_enabled', () => {
  beforeAll(async () => {
    await setPlan('true')
    await untilPlanAnswers(200)
  })

  it('answers the EXPLAIN text of a read, one line per output row', async () => {
    const response = await raw(`/${t('books')}?select=title&order=id`, {
      headers: { Accept: 'application/vnd.pgrst.plan' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    )
    const text = await response.text()
    expect(text).toMatch(/^Aggregate {2}\(cost=\d+\.\d+\.\.\d+\.\d+ rows=\d+ width=\d+\)\n/)
    expect(text.split('\n')[1]).toMatch(/^ {2}-> {2}Subquery Scan/)
    expect(text).toMatch(/Seq Scan on gw_pln_books _gw0 .*\n$/)
  })

  it('answers EXPLAIN (FORMAT JSON) with the options given, for the type named in for=', async () => {
    const response = await raw(`/${t('books')}?select=title&id=eq.1`, {
      headers: {
        Accept:
          'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=analyze|verbose',
      },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=analyze|verbose; charset=utf-8',
    )
    const text = await response.text()
    expect(text.endsWith(']\n')).toBe(true)
    const [plan] = JSON.parse(text) as { Plan: Record<string, unknown>; 'Execution Time': number }[]
    expect(plan?.Plan['Node Type']).toBe('Aggregate')
    expect(plan?.Plan['Actual Rows']).toBe(1)
    expect(plan?.Plan.Output).toEqual(expect.any(Array))
    expect(plan?.['Execution Time']).toEqual(expect.any(Number))
  })

  it('explains RPC calls and writes; without analyze a write does not run', async () => {
    const call = await raw(`/rpc/${t('numbers')}?upto=3`, {
      headers: { Accept: 'application/vnd.pgrst.plan+json' },
    })
    expect(call.status).toBe(200)
    expect(((await call.json()) as { Plan: object }[])[0]?.Plan).toBeDefined()

    const insert = await raw(`/${t('canary')}`, {
      method: 'POST',
      headers: { Accept: 'application/vnd.pgrst.plan', 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 99, note: 'explained only' }),
    })
    expect(insert.status).toBe(200)
    expect(await insert.text()).toMatch(/Insert on/)
    const { rows } = await sql(`select count(*)::int as n from public.${t('canary')} where id = 99`)
    expect(rows[0]?.n).toBe(0)
  })

  // postgrest-js's explain() (PostgrestTransformBuilder.ts) sends `application/vnd.pgrst.plan+<fmt>;
  // for="<accept>"; options=<a|b>;`, options often empty: PostgREST's tokenizeMediaType is a prefix
  // parser, so `options=;` is no options. Its EXPLAIN runs under the settings PostgREST sets
  // (Query/PreQuery.hs: search_path = the schema, then db-extra-search-path, repeats kept) and no
  // others, so SETTINGS shows exactly that; hosted computes query ids (pg_stat_statements).
  it("answers supabase-js's explain(): empty options, PostgREST's settings only, query ids", async () => {
    const text = await client().from(t('books')).select('id').explain()
    expect(text.error).toBeNull()
    expect(String(text.data)).toMatch(/^Aggregate {2}\(cost=/)
    const json = await client()
      .from(t('books'))
      .select('id')
      .explain({ verbose: true, settings: true, format: 'json' })
    expect(json.error).toBeNull()
    const [plan] = json.data as unknown as { Settings: Record<string, string>; 'Query Identifier': number }[]
    expect(plan?.Settings).toEqual({ search_path: '"public", "public", "extensions"' })
    expect(plan?.['Query Identifier']).toEqual(expect.any(Number))
  })

  it('still refuses a plan for a type it cannot produce (406)', async () => {
    const response = await raw(`/${t('books')}?select=id`, {
      headers: { Accept: 'application/vnd.pgrst.plan; for="text/xml"' },
    })
    expect(response.status).toBe(406)
    expect(await response.json()).toMatchObject({
      code: 'PGRST107',
      message: 'None of these media types are available: application/vnd.pgrst.plan+text; for="text/xml"',
    })
  })
})
