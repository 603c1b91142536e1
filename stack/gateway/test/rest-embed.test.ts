// /rest/v1 reads through the real supabase-js: the select grammar and every kind of embed.
import { describe, expect, it } from 'vitest'
import { client, cols, jsonOf, raw, useFixtures } from './rest-helpers.ts'

const t = useFixtures('rd')
const anon = client()

describe('select grammar', () => {
  it('selects columns, aliases, casts and JSON paths, keyed as PostgREST keys them', async () => {
    const { data, error } = await anon
      .from(t('authors'))
      .select('id, writer:name, born::text, country:meta->>country, langs:meta->langs, meta->stats->>books')
      .eq('id', 1)
    expect(error).toBeNull()
    expect(data).toEqual([
      { id: 1, writer: 'Ada', born: '1815-12-10', country: 'UK', langs: ['en', 'fr'], books: '2' },
    ])
  })

  // PostgREST answers an unaliased embed named twice with Postgres's error on its duplicate lateral
  // alias: 400 {"code":"42712","message":"table name \"organizations_referee_1\" specified more
  // than once"} (PostgREST/postgrest#2529, https://github.com/PostgREST/postgrest/issues/2529).
  // Other repeated output keys would be duplicate JSON keys (a client keeps one of them): refused,
  // unless it is the same column again (rest-fidelity.test.ts), whose values cannot differ.
  it('refuses an embed named twice without aliases (42712) and any other duplicate output key', async () => {
    const twice = await raw(
      `/${t('authors')}?select=id,${t('author_profiles')}(*),${t('author_profiles')}(*)`,
    )
    expect(twice.status).toBe(400)
    expect(await twice.json()).toEqual({
      code: '42712',
      details: null,
      hint: null,
      message: `table name "${t('authors')}_${t('author_profiles')}_1" specified more than once`,
    })
    const aliased = await anon
      .from(t('authors'))
      .select(`id, a:${t('author_profiles')}(*), b:${t('author_profiles')}(*)`)
      .eq('id', 1)
    expect(aliased.error).toBeNull()
    expect(Object.keys(aliased.data?.[0] ?? {})).toEqual(['id', 'a', 'b'])
    for (const select of ['id,id:name', 'id::text,id', `id,id:${t('author_profiles')}(*)`]) {
      const response = await raw(`/${t('authors')}?select=${select}`)
      expect(response.status, select).toBe(400)
      expect(await response.json()).toMatchObject({
        code: '42701',
        message: 'column "id" specified more than once',
      })
    }
  })

  it('selects * with columns of every type', async () => {
    const { data } = await anon.from(t('kinds')).select('*').order('id')
    expect(data?.[0]).toEqual({
      id: 1,
      label: 'one',
      nums: [1, 2, 3],
      doc: { a: 1, tags: ['x'] },
      during: '[1,10)',
      flag: true,
    })
    expect(data).toHaveLength(3)
  })

  it('reads JSON array elements by index', async () => {
    const { data } = await anon
      .from(t('authors'))
      .select('first:meta->langs->0, second:meta->langs->>1')
      .eq('id', 1)
    expect(data).toEqual([{ first: 'en', second: 'fr' }])
  })

  it('rejects casts to unknown types and unknown columns like PostgREST', async () => {
    const cast = await anon.from(t('authors')).select('id::notatype')
    expect(cast.status).toBe(400)
    const column = await anon.from(t('authors')).select('id,nope')
    expect(column.status).toBe(400)
    expect(column.error).toMatchObject({
      code: '42703',
      message: `column ${t('authors')}.nope does not exist`,
    })
  })

  it('reports select syntax errors as PGRST100', async () => {
    const response = await raw(`/${t('authors')}?select=id,(`)
    expect(response.status).toBe(400)
    const body = await jsonOf<{ code: string; message: string }>(response)
    expect(body.code).toBe('PGRST100')
    expect(body.message).toContain('failed to parse select parameter')
  })

  // PostgREST 14 src/PostgREST/Error.hs (AggregatesNotAllowed) with db-aggregates-enabled off, its
  // default (https://docs.postgrest.org/en/v14/references/configuration.html#db-aggregates-enabled);
  // enabled, see alone/rest-aggregates.test.ts.
  it('rejects aggregates, which PostgREST disables by default', async () => {
    const { status, error } = await anon.from(t('books')).select('pages.sum()')
    expect(status).toBe(400)
    expect(error).toEqual({
      code: 'PGRST123',
      details: null,
      hint: null,
      message: 'Use of aggregate functions is not allowed',
    })
  })
})

describe('embedding', () => {
  it('embeds many-to-one as an object (null when absent) by FK hint', async () => {
    const { data, error } = await anon
      .from(t('books'))
      .select(cols(`id, author:${t('authors')}!author_id(name)`))
      .in('id', [1, 5])
      .order('id')
    expect(error).toBeNull()
    expect(data).toEqual([
      { id: 1, author: { name: 'Ada' } },
      { id: 5, author: null },
    ])
  })

  it('accepts the FK constraint name and the column name as hints', async () => {
    const byConstraint = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!${t('books')}_editor_id_fkey(name)`))
      .eq('id', 1)
    expect(byConstraint.data).toEqual([{ id: 1, [t('authors')]: { name: 'Grace' } }])
    const byColumn = await anon.from(t('books')).select('id, editor_id(name)').eq('id', 1)
    expect(byColumn.data).toEqual([{ id: 1, editor_id: { name: 'Grace' } }])
  })

  it('embeds one-to-many as an array, with embedded order, limit and filters', async () => {
    const { data, error } = await anon
      .from(t('authors'))
      .select(cols(`name, books:${t('books')}!author_id(title, pages)`))
      .eq('id', 1)
      .order('pages', { referencedTable: 'books', ascending: false })
      .limit(1, { referencedTable: 'books' })
    expect(error).toBeNull()
    expect(data).toEqual([{ name: 'Ada', books: [{ title: 'Poetical Science', pages: 120 }] }])
    const second = await anon
      .from(t('authors'))
      .select(cols(`name, books:${t('books')}!author_id(title)`))
      .eq('id', 1)
      .order('pages', { referencedTable: 'books', ascending: false })
      .range(1, 1, { referencedTable: 'books' })
    expect(second.data).toEqual([{ name: 'Ada', books: [{ title: 'Notes on the Analytical Engine' }] }])
    const filtered = await anon
      .from(t('authors'))
      .select(cols(`name, books:${t('books')}!author_id(title)`))
      .eq('id', 3)
      .gt('books.pages', 1000)
    expect(filtered.data).toEqual([{ name: 'Linus', books: [] }])
  })

  it('embeds one-to-one as an object from both sides', async () => {
    const forward = await anon
      .from(t('author_profiles'))
      .select(cols(`website, ${t('authors')}(name)`))
      .eq('author_id', 2)
    expect(forward.data).toEqual([{ website: 'https://grace.example', [t('authors')]: { name: 'Grace' } }])
    const backward = await anon
      .from(t('authors'))
      .select(cols(`name, profile:${t('author_profiles')}(website)`))
      .order('id')
    expect((backward.data as { profile: unknown }[] | null)?.map((row) => row.profile)).toEqual([
      { website: 'https://ada.example' },
      { website: 'https://grace.example' },
      null,
      null,
    ])
  })

  it('embeds many-to-many through the junction table', async () => {
    const { data, error } = await anon
      .from(t('books'))
      .select(cols(`id, ${t('genres')}(name)`))
      .eq('id', 1)
      .order('name', { referencedTable: t('genres') })
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 1, [t('genres')]: [{ name: 'computing' }, { name: 'science' }] }])
    const reverse = await anon
      .from(t('genres'))
      .select(cols(`name, ${t('books')}(id)`))
      .eq('id', 2)
    expect(reverse.data).toEqual([{ name: 'poetry', [t('books')]: [{ id: 2 }] }])
  })

  it('embeds self-references: parent by column name, children by table name', async () => {
    const { data } = await anon
      .from(t('categories'))
      .select(cols(`name, parent:parent_id(name), children:${t('categories')}(name)`))
      .eq('id', 2)
    expect(data).toEqual([{ name: 'child a', parent: { name: 'root' }, children: [{ name: 'grandchild' }] }])
  })

  it('embeds through a view using the base table foreign key', async () => {
    const { data, error } = await anon
      .from(t('books_view'))
      .select(cols(`title, ${t('authors')}(name)`))
      .eq('id', 3)
    expect(error).toBeNull()
    expect(data).toEqual([{ title: 'Compilers for Everyone', [t('authors')]: { name: 'Grace' } }])
  })

  it('nests embeds several levels deep', async () => {
    const { data } = await anon
      .from(t('genres'))
      .select(
        cols(
          `name, ${t('books')}(title, author:${t('authors')}!author_id(name, profile:${t('author_profiles')}(website)))`,
        ),
      )
      .eq('id', 2)
    expect(data).toEqual([
      {
        name: 'poetry',
        [t('books')]: [
          { title: 'Poetical Science', author: { name: 'Ada', profile: { website: 'https://ada.example' } } },
        ],
      },
    ])
  })

  it('!inner drops parents without a match; rel=not.is.null and rel=is.null filter on presence', async () => {
    const inner = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!author_id!inner(name)`))
      .eq(`${t('authors')}.name`, 'Ada')
      .order('id')
    expect((inner.data as { id: number }[] | null)?.map((row) => row.id)).toEqual([1, 2])
    const present = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!author_id(name)`))
      .not(t('authors'), 'is', null)
    expect(present.data).toHaveLength(4)
    const absent = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!author_id(name)`))
      .is(t('authors'), null)
    expect(absent.data).toEqual([{ id: 5, [t('authors')]: null }])
    const left = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!author_id!left(name)`))
      .eq(`${t('authors')}.name`, 'Ada')
    expect(left.data).toHaveLength(5)
  })

  it('rel() joins without output, for filtering only', async () => {
    const { data } = await anon
      .from(t('authors'))
      .select(cols(`name, ${t('books')}!author_id!inner()`))
      .eq(`${t('books')}.title`, 'Just for Fun')
    expect(data).toEqual([{ name: 'Linus' }])
  })

  it('spreads to-one columns into the parent and to-many columns as arrays', async () => {
    const one = await anon
      .from(t('books'))
      .select(cols(`title, ...${t('authors')}!author_id(author:name)`))
      .eq('id', 3)
    expect(one.data).toEqual([{ title: 'Compilers for Everyone', author: 'Grace' }])
    const many = await anon
      .from(t('authors'))
      .select(cols(`name, ...${t('books')}!author_id(title)`))
      .eq('id', 1)
    expect(many.data).toEqual([
      { name: 'Ada', title: ['Notes on the Analytical Engine', 'Poetical Science'] },
    ])
  })

  it('orders by a to-one embed column and refuses to-many related orders', async () => {
    const { data } = await anon
      .from(t('books'))
      .select(cols(`id, author:${t('authors')}!author_id(name)`))
      .order('author(name)', { ascending: false, nullsFirst: false })
      .order('id')
    expect((data as { id: number }[] | null)?.map((row) => row.id)).toEqual([4, 3, 1, 2, 5])
    const bad = await raw(
      `/${t('authors')}?select=id,${t('books')}!author_id(title)&order=${t('books')}(title)`,
    )
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).code).toBe('PGRST118')
  })

  it('answers PGRST201 (300) for ambiguous embeds with the candidates in details', async () => {
    const { status, error } = await anon.from(t('books')).select(cols(`id, ${t('authors')}(name)`))
    expect(status).toBe(300)
    expect(error?.code).toBe('PGRST201')
    expect(error?.message).toBe(
      `Could not embed because more than one relationship was found for '${t('books')}' and '${t('authors')}'`,
    )
    expect(error?.details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: `${t('books')} with ${t('authors')}`,
        relationship: `${t('books')}_author_id_fkey using ${t('books')}(author_id) and ${t('authors')}(id)`,
      },
      {
        cardinality: 'many-to-one',
        embedding: `${t('books')} with ${t('authors')}`,
        relationship: `${t('books')}_editor_id_fkey using ${t('books')}(editor_id) and ${t('authors')}(id)`,
      },
    ])
    expect(error?.hint).toContain(`'${t('authors')}!${t('books')}_author_id_fkey'`)
  })

  it('answers PGRST200 (400) when no relationship exists', async () => {
    const { status, error } = await anon.from(t('kinds')).select(cols(`id, ${t('genres')}(name)`))
    expect(status).toBe(400)
    expect(error).toMatchObject({
      code: 'PGRST200',
      message: `Could not find a relationship between '${t('kinds')}' and '${t('genres')}' in the schema cache`,
      details: `Searched for a foreign key relationship between '${t('kinds')}' and '${t('genres')}' in the schema 'public', but no matches were found.`,
    })
  })

  it('answers PGRST108 for filters on resources that are not embedded', async () => {
    const { status, error } = await anon
      .from(t('authors'))
      .select('id')
      .eq(`${t('books')}.title`, 'x')
    expect(status).toBe(400)
    expect(error?.code).toBe('PGRST108')
  })

  it('answers deep self-embeds quickly and refuses more than 32 levels', async () => {
    const deep = (levels: number) =>
      `${'c:'.concat(t('categories'), '(').repeat(levels)}id${')'.repeat(levels)}`
    const started = Date.now()
    const ok = await anon
      .from(t('categories'))
      .select(cols(deep(20)))
      .eq('id', 1)
    expect(ok.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(3000)
    const refused = await anon.from(t('categories')).select(cols(deep(33)))
    expect(refused.status).toBe(400)
    expect(refused.error?.code).toBe('PGRST100')
  })
})
