// Aggregates in `select=` behind `pgrst.db_aggregates_enabled`, as PostgREST 14 answers them. The
// setting changes the whole gateway, so this file runs alone (vitest project runner-alone).
//
// Sources: https://docs.postgrest.org/en/v14/references/api/aggregate_functions.html (functions,
// automatic GROUP BY, count(), casts, grouping by embeds, aggregates inside embeds);
// PostgREST 14 src/PostgREST/ApiRequest/QueryParams.hs (pFieldSelect: `count()`,
// `field::cast.agg()::cast`), src/PostgREST/Query/SqlFragment.hs (pgFmtApplyAggregate, groupF: the
// aggregate unaliased is keyed as Postgres names it), src/PostgREST/Plan.hs (validateAggFunctions,
// the to-many spread NotImplemented) and src/PostgREST/Error.hs (PGRST123: 400, "Use of aggregate
// functions is not allowed", no details or hint; PGRST127: 400, "Feature not implemented").
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, cols, raw, sql, useFixtures } from '../rest-helpers.ts'

const t = useFixtures('agg')
const anon = client()

async function setAggregates(value: 'true' | 'false' | null): Promise<void> {
  await sql(
    value === null
      ? 'alter role authenticator reset pgrst.db_aggregates_enabled'
      : `alter role authenticator set pgrst.db_aggregates_enabled = '${value}'`,
  )
  await sql("notify pgrst, 'reload config'")
}

/** Waits until the gateway answers `select=count()` with `status` (the reload is asynchronous). */
async function untilCountAnswers(status: number): Promise<void> {
  let last = 0
  for (let i = 0; i < 100; i++) {
    last = (await raw(`/${t('books')}?select=count()`)).status
    if (last === status) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(last).toBe(status)
}

afterAll(() => setAggregates(null))

describe('aggregates disabled (PostgREST default)', () => {
  beforeAll(async () => {
    await setAggregates('false')
    await untilCountAnswers(400)
  })

  it('answers every aggregate form with 400 PGRST123', async () => {
    for (const select of [
      'count()',
      'pages.sum()',
      'total:pages.avg()::int',
      `id,${t('authors')}!author_id(id.max())`,
    ]) {
      const response = await raw(`/${t('books')}?select=${select}`)
      expect(response.status, select).toBe(400)
      expect(await response.json()).toEqual({
        code: 'PGRST123',
        details: null,
        hint: null,
        message: 'Use of aggregate functions is not allowed',
      })
    }
  })
})

describe('aggregates enabled with pgrst.db_aggregates_enabled', () => {
  beforeAll(async () => {
    await setAggregates('true')
    await untilCountAnswers(200)
  })

  it('computes count(), sum, avg, max and min over the filtered rows, keyed by function', async () => {
    const all = await raw(`/${t('books')}?select=count(),pages.sum(),pages.avg(),pages.max(),pages.min()`)
    expect(all.status).toBe(200)
    expect(await all.json()).toEqual([{ count: 5, sum: 738, avg: 147.6, max: 300, min: 8 }])
    // count() counts rows, col.count() the column's non-null values (price is null for one book).
    const counts = await raw(`/${t('books')}?select=rows:count(),priced:price.count()&author_id=not.is.null`)
    expect(await counts.json()).toEqual([{ rows: 4, priced: 3 }])
    const { data, error } = await anon.from(t('books')).select(cols('pages.sum()')).eq('author_id', 1)
    expect(error).toBeNull()
    expect(data).toEqual([{ sum: 170 }])
  })

  it('takes aliases, casts of the column and casts of the aggregate', async () => {
    const response = await raw(
      `/${t('books')}?select=total:pages.sum(),pages::text.max(),pages.avg()::int,n:count()::text`,
    )
    expect(response.status).toBe(200)
    // max over text compares as text: '8' > '50'.
    expect(await response.json()).toEqual([{ total: 738, max: '8', avg: 148, n: '5' }])
  })

  it('groups by the other selected columns', async () => {
    const response = await raw(
      `/${t('books')}?select=author_id,pages.sum(),count()&order=author_id.asc.nullslast`,
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { author_id: 1, sum: 170, count: 2 },
      { author_id: 2, sum: 300, count: 1 },
      { author_id: 3, sum: 260, count: 1 },
      { author_id: null, sum: 8, count: 1 },
    ])
    const byAlias = await raw(`/${t('books')}?select=writer:author_id,pages.max()&author_id=eq.1`)
    expect(await byAlias.json()).toEqual([{ writer: 1, max: 120 }])
  })

  it('groups by an embedded resource', async () => {
    const response = await raw(`/${t('books')}?select=pages.sum(),author:${t('authors')}!author_id(name)`)
    expect(response.status).toBe(200)
    const rows = (await response.json()) as { sum: number; author: { name: string } | null }[]
    expect(rows.sort((a, b) => a.sum - b.sum)).toEqual([
      { sum: 8, author: null },
      { sum: 170, author: { name: 'Ada' } },
      { sum: 260, author: { name: 'Linus' } },
      { sum: 300, author: { name: 'Grace' } },
    ])
  })

  it('aggregates inside an embedded resource, per parent row', async () => {
    const response = await raw(
      `/${t('authors')}?select=name,books:${t('books')}!author_id(pages.sum(),count())&order=id`,
    )
    expect(response.status).toBe(200)
    // Without grouping columns the embed's aggregate is one row even when the parent has no rows.
    expect(await response.json()).toEqual([
      { name: 'Ada', books: [{ sum: 170, count: 2 }] },
      { name: 'Grace', books: [{ sum: 300, count: 1 }] },
      { name: 'Linus', books: [{ sum: 260, count: 1 }] },
      { name: 'Barbara, "Babs"', books: [{ sum: null, count: 0 }] },
    ])
  })

  // "Aggregates in To-One Spreads": hoisted to the top-level relationship, grouped by its columns.
  it('hoists aggregates inside a to-one spread to the parent and groups by the parent columns', async () => {
    const all = await raw(
      `/${t('books')}?select=pages.sum(),...${t('authors')}!author_id(born.max(),n:count())`,
    )
    expect(all.status).toBe(200)
    // count() in the spread counts the books that have an author (the spread's rows).
    expect(await all.json()).toEqual([{ sum: 738, max: '1969-12-28', n: 4 }])
    const grouped = await raw(
      `/${t('books')}?select=editor_id,...${t('authors')}!author_id(born.min())&order=editor_id.asc.nullslast`,
    )
    expect(await grouped.json()).toEqual([
      { editor_id: 1, min: '1906-12-09' },
      { editor_id: 2, min: '1815-12-10' },
      { editor_id: null, min: '1815-12-10' },
    ])
    const bySpreadColumn = await raw(`/${t('books')}?select=pages.sum(),...${t('authors')}!author_id(name)`)
    const rows = (await bySpreadColumn.json()) as { sum: number; name: string | null }[]
    expect(rows.sort((a, b) => a.sum - b.sum)).toEqual([
      { sum: 8, name: null },
      { sum: 170, name: 'Ada' },
      { sum: 260, name: 'Linus' },
      { sum: 300, name: 'Grace' },
    ])
  })

  it('refuses aggregates inside a to-many spread (PGRST127)', async () => {
    const response = await raw(`/${t('authors')}?select=name,...${t('books')}!author_id(pages.sum())`)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      code: 'PGRST127',
      details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      hint: null,
      message: 'Feature not implemented',
    })
  })
})
