// /rest/v1 reads through the real supabase-js: filters, order, ranges and counts, single objects, CSV.
import { describe, expect, it } from 'vitest'
import { client, cols, jsonOf, raw, useFixtures } from './rest-helpers.ts'

const t = useFixtures('rq')
const anon = client()

describe('filters', () => {
  const ids = async (query: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
    const { data, error } = await query
    expect(error).toBeNull()
    return (data ?? []).map((row) => row.id).sort((a, b) => a - b)
  }
  const books = () => anon.from(t('books')).select('id')
  const authors = () => anon.from(t('authors')).select('id')
  const kinds = () => anon.from(t('kinds')).select('id')

  it('compares: eq neq gt gte lt lte', async () => {
    expect(await ids(books().eq('pages', 120))).toEqual([2])
    expect(await ids(books().neq('pages', 120))).toEqual([1, 3, 4, 5])
    expect(await ids(books().gt('pages', 120))).toEqual([3, 4])
    expect(await ids(books().gte('pages', 120))).toEqual([2, 3, 4])
    expect(await ids(books().lt('pages', 50))).toEqual([5])
    expect(await ids(books().lte('pages', 50))).toEqual([1, 5])
  })

  it('matches patterns: like ilike (* as %), match imatch, and their any/all forms', async () => {
    expect(await ids(books().like('title', '*Science*'))).toEqual([2])
    expect(await ids(books().ilike('title', '*science*'))).toEqual([2])
    expect(await ids(books().match({ id: 3 }))).toEqual([3])
    expect(await ids(books().filter('title', 'match', '^Just'))).toEqual([4])
    expect(await ids(books().filter('title', 'imatch', '^just'))).toEqual([4])
    expect(await ids(books().likeAnyOf('title', ['Just*', 'Poet*']))).toEqual([2, 4])
    expect(await ids(books().ilikeAllOf('title', ['*for*', '*fun*']))).toEqual([4])
  })

  it('tests is null/true/false/unknown and isdistinct', async () => {
    expect(await ids(authors().is('bio', null))).toEqual([2])
    expect(await ids(kinds().is('flag', true))).toEqual([1])
    expect(await ids(kinds().is('flag', false))).toEqual([2])
    expect(await ids(kinds().filter('flag', 'is', 'unknown'))).toEqual([3])
    expect(await ids(kinds().isDistinct('flag', true))).toEqual([2, 3])
    expect(await ids(authors().not('bio', 'is', null))).toEqual([1, 3, 4])
  })

  it('filters in lists, quoting values with commas and quotes', async () => {
    expect(await ids(authors().in('bio', ['kernel', 'quoted, name']))).toEqual([3, 4])
    const escaped = await raw(`/${t('authors')}?select=id&name=in.(Ada,"Barbara, \\"Babs\\"")`)
    expect(await jsonOf(escaped)).toEqual([{ id: 1 }, { id: 4 }])
    expect(await ids(authors().not('id', 'in', '(1,2)'))).toEqual([3, 4])
    expect(await ids(authors().in('id', []))).toEqual([])
  })

  it('filters arrays, JSON and ranges: cs cd ov and the range operators', async () => {
    expect(await ids(authors().contains('tags', ['math']))).toEqual([1])
    expect(await ids(authors().containedBy('tags', ['navy', 'cobol', 'x']))).toEqual([2, 3])
    expect(await ids(authors().overlaps('tags', ['cobol', 'poetry']))).toEqual([1, 2])
    expect(await ids(kinds().contains('doc', { a: 1 }))).toEqual([1])
    expect(await ids(kinds().rangeLt('during', '[15,16)'))).toEqual([1])
    expect(await ids(kinds().rangeGt('during', '[15,16)'))).toEqual([2])
    expect(await ids(kinds().rangeAdjacent('during', '[10,20)'))).toEqual([1, 2])
    expect(await ids(kinds().overlaps('during', '[5,25)'))).toEqual([1, 2])
  })

  it('searches text: fts plfts phfts wfts with a language, on tsvector and text columns', async () => {
    expect(await ids(books().textSearch('search', 'engine', { config: 'english' }))).toEqual([1])
    expect(
      await ids(books().textSearch('title', 'poetical science', { type: 'plain', config: 'english' })),
    ).toEqual([2])
    expect(await ids(books().textSearch('title', 'for everyone', { type: 'phrase' }))).toEqual([3])
    expect(await ids(books().textSearch('search', 'fun -compilers', { type: 'websearch' }))).toEqual([4])
  })

  it('filters on JSON paths', async () => {
    expect(await ids(authors().eq('meta->>country', 'FI'))).toEqual([3])
    expect(await ids(authors().gt('meta->stats->books', 0))).toEqual([1, 2])
  })

  it('combines with or=, and=, nested groups and not.', async () => {
    expect(await ids(books().or('pages.lt.10,title.eq.Just for Fun'))).toEqual([4, 5])
    expect(await ids(books().or('and(pages.gt.100,pages.lt.200),id.eq.1'))).toEqual([1, 2])
    expect(await ids(books().or('title.eq."Notes on the Analytical Engine",id.in.(3,4)'))).toEqual([1, 3, 4])
    const response = await raw(`/${t('books')}?select=id&not.and=(pages.gt.10,pages.lt.200)`)
    expect(((await jsonOf(response)) as { id: number }[]).map((r) => r.id).sort()).toEqual([3, 4, 5])
    const embeddedOr = await anon
      .from(t('authors'))
      .select(cols(`id, books:${t('books')}!author_id(title)`))
      .eq('id', 1)
      .or('pages.eq.50,pages.eq.51', { referencedTable: 'books' })
    expect(embeddedOr.data).toEqual([{ id: 1, books: [{ title: 'Notes on the Analytical Engine' }] }])
  })

  it('reports unknown operators and bad values with PostgREST codes', async () => {
    const operator = await raw(`/${t('books')}?id=nope.1`)
    expect(operator.status).toBe(400)
    expect((await jsonOf(operator)).code).toBe('PGRST100')
    const value = await anon.from(t('books')).select('id').eq('id', 'abc')
    expect(value.status).toBe(400)
    expect(value.error?.code).toBe('22P02')
  })
})

describe('order, ranges and counts', () => {
  it('orders by several columns with nulls placement', async () => {
    const { data } = await anon
      .from(t('books'))
      .select('id, price')
      .order('price', { ascending: false, nullsFirst: true })
      .order('id')
    expect(data?.map((row) => row.id)).toEqual([4, 3, 2, 1, 5])
  })

  it('pages with limit/offset and range(), with Content-Range and 206 for a partial count', async () => {
    const page = await anon.from(t('books')).select('id', { count: 'exact' }).order('id').range(1, 2)
    expect(page.status).toBe(206)
    expect(page.count).toBe(5)
    expect(page.data).toEqual([{ id: 2 }, { id: 3 }])
    const all = await anon.from(t('books')).select('id', { count: 'exact' })
    expect(all.status).toBe(200)
    expect(all.count).toBe(5)
    const limited = await raw(`/${t('books')}?select=id&order=id&limit=2&offset=3`)
    expect(limited.headers.get('content-range')).toBe('3-4/*')
    expect(await jsonOf(limited)).toEqual([{ id: 4 }, { id: 5 }])
  })

  it('accepts the Range header', async () => {
    const response = await raw(`/${t('books')}?select=id&order=id`, {
      headers: { Range: '0-1', 'Range-Unit': 'items', Prefer: 'count=exact' },
    })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe('0-1/5')
    const bad = await raw(`/${t('books')}?select=id`, { headers: { Range: '3-1' } })
    expect(bad.status).toBe(416)
  })

  it('answers */0 for an empty result and 416 past the end', async () => {
    const empty = await raw(`/${t('books')}?select=id&id=gt.100`, { headers: { Prefer: 'count=exact' } })
    expect(empty.headers.get('content-range')).toBe('*/0')
    expect(await jsonOf(empty)).toEqual([])
    const past = await raw(`/${t('books')}?select=id&offset=10`, { headers: { Prefer: 'count=exact' } })
    expect(past.status).toBe(416)
    expect((await jsonOf(past)).code).toBe('PGRST103')
  })

  it('counts with planned and estimated, and HEAD returns only headers', async () => {
    const planned = await anon.from(t('books')).select('id', { count: 'planned', head: true })
    expect(planned.error).toBeNull()
    expect(typeof planned.count).toBe('number')
    const estimated = await anon.from(t('books')).select('id', { count: 'estimated' })
    expect(estimated.count).toBe(5)
    const head = await anon.from(t('books')).select('*', { count: 'exact', head: true }).gt('pages', 100)
    expect(head.count).toBe(3)
    expect(head.data).toBeNull()
  })

  it('counts with !inner embeds applied', async () => {
    const { count } = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!author_id!inner(name)`), { count: 'exact' })
      .eq(`${t('authors')}.name`, 'Ada')
    expect(count).toBe(2)
  })

  it('caps responses at max-rows 1000', async () => {
    const { data } = await anon.rpc(t('numbers'), { upto: 1500 })
    expect(data).toHaveLength(1000)
  })
})

describe('media types', () => {
  it('single() returns one object or PGRST116 with the row count', async () => {
    const one = await anon.from(t('authors')).select('name').eq('id', 2).single()
    expect(one.data).toEqual({ name: 'Grace' })
    const many = await anon.from(t('authors')).select('name').single()
    expect(many.status).toBe(406)
    expect(many.error).toMatchObject({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 4 rows',
    })
    const none = await anon.from(t('authors')).select('name').eq('id', 999).single()
    expect(none.error?.details).toBe('The result contains 0 rows')
    const maybe = await anon.from(t('authors')).select('name').eq('id', 999).maybeSingle()
    expect(maybe).toMatchObject({ data: null, error: null })
  })

  it('csv() returns a header and quoted fields', async () => {
    const { data, error } = await anon
      .from(t('authors'))
      .select('id, name, bio, tags')
      .in('id', [2, 4])
      .order('id')
      .csv()
    expect(error).toBeNull()
    expect(data).toBe('id,name,bio,tags\n2,Grace,,"{navy,cobol}"\n4,"Barbara, ""Babs""","quoted, name",')
  })

  it('strips nulls when asked', async () => {
    const { data } = await anon.from(t('authors')).select('id, bio').eq('id', 2).stripNulls()
    expect(data).toEqual([{ id: 2 }])
  })

  it('refuses media types it cannot produce', async () => {
    const response = await raw(`/${t('authors')}`, { headers: { Accept: 'application/xml' } })
    expect(response.status).toBe(406)
    expect((await jsonOf(response)).code).toBe('PGRST107')
  })
})
