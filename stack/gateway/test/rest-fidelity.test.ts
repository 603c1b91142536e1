// Behaviours supabase-js's own PostgREST client suite (supabase/supabase-js
// packages/core/postgrest-js/test, measured by scripts/postgrest-js-conformance) expects and the
// gateway once answered differently, each as PostgREST 14 does it:
// - functions with a single unnamed parameter of a type other than json/jsonb/text/xml/bytea (or
//   with more than one unnamed parameter) are not in the schema cache at all (SchemaCache.hs,
//   funcsSqlQuery `callable`), so another overload is chosen or the call is PGRST202;
// - overloads resolve as Plan.hs findProc does, and PGRST203 lists the visible candidates in the
//   schema cache's order (decodeFuncs sorts each function's overloads); PGRST202's hint suggests parameters when the name exists (Error.hs
//   noRpcHint);
// - `rel(count)` / `select=count` select `"<alias>"."count"`, which Postgres reads as count(<alias>)
//   (functional notation), with no db_aggregates_enabled needed;
// - embedded tables are aliased `<table>_<depth>` (Plan.hs addRels), so Postgres's errors name them so;
// - the same column selected twice comes back once (PostgREST repeats the JSON key; clients keep one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, cols, jsonOf, raw, sql, useFixtures } from './rest-helpers.ts'

const t = useFixtures('fid')
const anon = client()
const f = (name: string) => t(`f_${name}`)

beforeAll(async () => {
  await sql(`
    create function public.${f('unnamed_int')}(int) returns int language sql as 'select 1';
    create function public.${f('unnamed_text')}(text) returns int language sql as 'select 1';
    create function public.${f('row_arg')}(public.${t('books')}) returns text language sql as 'select 1::text';
    create function public.${f('two_unnamed')}(text, text) returns int language sql as 'select 2';
    create function public.${f('poly')}(bool) returns int language sql as 'select 1';
    create function public.${f('poly')}(int) returns int language sql as 'select 2';
    create function public.${f('poly')}(text) returns text language sql as $$ select 'text overload' $$;
    create function public.${f('dflt')}() returns int language sql as 'select 1';
    create function public.${f('dflt')}(int default 42) returns int language sql as 'select 2';
    create function public.${f('dflt')}(text default 'x') returns text language sql as $$ select 'text' $$;
    create function public.${f('named')}(alpha int, beta int) returns int language sql as 'select alpha + beta';
    create function public.${f('named')}(alpha int, gamma text) returns int language sql as 'select alpha';
    create function public.${f('order')}(a text, z int default 0) returns int language sql as 'select 1';
    create function public.${f('order')}(a text) returns int language sql as 'select 2';
    create function public.${f('order')}(a boolean) returns int language sql as 'select 3';
    create function public.${f('order')}(a int) returns int language sql as 'select 4';
    comment on function public.${f('order')}(int) is 'counted';
    notify pgrst, 'reload schema';`)
  for (let i = 0; i < 100; i++) {
    if ((await raw(`/rpc/${f('named')}?alpha=1&beta=2`)).status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the gateway did not pick up the functions')
})

afterAll(() =>
  sql(`drop function public.${f('unnamed_int')}(int), public.${f('unnamed_text')}(text),
    public.${f('row_arg')}(public.${t('books')}), public.${f('two_unnamed')}(text, text),
    public.${f('poly')}(bool), public.${f('poly')}(int), public.${f('poly')}(text), public.${f('dflt')}(),
    public.${f('dflt')}(int), public.${f('dflt')}(text), public.${f('named')}(int, int), public.${f('named')}(int, text),
    public.${f('order')}(text, int), public.${f('order')}(text), public.${f('order')}(boolean), public.${f('order')}(int)`),
)

describe('functions PostgREST cannot call are invisible', () => {
  it('answers PGRST202 for a single unnamed int or row parameter, as if the function did not exist', async () => {
    const int = await anon.rpc(f('unnamed_int'), { '': 1 })
    expect(int.status).toBe(404)
    expect(int.error).toEqual({
      code: 'PGRST202',
      details: `Searched for the function public.${f('unnamed_int')} with parameter  or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      hint: `Perhaps you meant to call the function public.${f('unnamed_text')}`,
      message: `Could not find the function public.${f('unnamed_int')}() in the schema cache`,
    })
    for (const name of [f('row_arg'), f('two_unnamed')]) {
      const { status, error } = await anon.rpc(name, { '': 'x' })
      expect(status, name).toBe(404)
      expect(error?.code).toBe('PGRST202')
    }
  })

  it('picks the one visible overload of an unnamed parameter for {"": value}', async () => {
    const { data, error, status } = await anon.rpc(f('poly'), { '': 'anything' })
    expect(error).toBeNull()
    expect(status).toBe(200)
    expect(data).toBe('text overload')
  })

  it('lists only visible candidates, in the schema cache order, in PGRST203', async () => {
    const { status, error } = await anon.rpc(f('dflt'))
    expect(status).toBe(300)
    expect(error).toEqual({
      code: 'PGRST203',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      message: `Could not choose the best candidate function between: public.${f('dflt')}(), public.${f('dflt')}( => text)`,
    })
    const text = await anon.rpc(f('dflt'), { '': 'y' })
    expect(text.data).toBe('text')
  })

  it("lists candidates in PostgREST's order, not the order they were created in", async () => {
    // decodeFuncs sorts overloads: fewer parameters first, then no description before one, then
    // the parameters (name, type, required, variadic); created here in another order on purpose
    const { status, error } = await anon.rpc(f('order'), { a: 'x' })
    expect(status).toBe(300)
    expect(error?.message).toBe(
      `Could not choose the best candidate function between: public.${f('order')}(a => boolean), public.${f('order')}(a => text), public.${f('order')}(a => integer), public.${f('order')}(a => text, z => integer)`,
    )
  })

  it('suggests the parameters of an existing function when none matches', async () => {
    const { status, error } = await anon.rpc(f('named'), { alpha: 1, betta: 2 })
    expect(status).toBe(404)
    expect(error).toMatchObject({
      code: 'PGRST202',
      message: `Could not find the function public.${f('named')}(alpha, betta) in the schema cache`,
      hint: `Perhaps you meant to call the function public.${f('named')}(alpha, beta)`,
    })
  })
})

describe('selects as PostgREST writes them', () => {
  it('reads rel(count) and select=count as row counts, aggregates disabled or not', async () => {
    const embedded = await anon
      .from(t('authors'))
      .select(cols(`name, ${t('books')}!${t('books')}_author_id_fkey(count)`))
      .order('id')
      .limit(2)
    expect(embedded.error).toBeNull()
    expect(embedded.data).toEqual([
      { name: 'Ada', [t('books')]: [{ count: 2 }] },
      { name: 'Grace', [t('books')]: [{ count: 1 }] },
    ])
    const total = await anon.from(t('books')).select(cols('count'))
    expect(total.data).toEqual([{ count: 5 }])
    const nested = await anon
      .from(t('books'))
      .select(cols(`id, ${t('authors')}!${t('books')}_author_id_fkey(n:count)`))
      .eq('id', 1)
    expect(nested.data).toEqual([{ id: 1, [t('authors')]: { n: 1 } }])
  })

  it('names embedded tables <table>_<depth> in the errors Postgres raises about them', async () => {
    const sum = await raw(`/${t('authors')}?select=name,${t('books')}!${t('books')}_author_id_fkey(sum)`)
    expect(sum.status).toBe(400)
    expect(await jsonOf(sum)).toEqual({
      code: '42703',
      details: null,
      hint: null,
      message: `column ${t('books')}_1.sum does not exist`,
    })
    const deeper = await raw(
      `/${t('authors')}?select=name,${t('books')}!${t('books')}_author_id_fkey(title,${t('book_genres')}(nope))`,
    )
    expect(await jsonOf(deeper)).toMatchObject({
      message: `column ${t('book_genres')}_2.nope does not exist`,
    })
    // A count beside plain columns is what Postgres refuses, naming the embed's alias.
    const mixed = await raw(
      `/${t('authors')}?select=name,${t('books')}!${t('books')}_author_id_fkey(id,count)`,
    )
    expect(mixed.status).toBe(400)
    expect(await jsonOf(mixed)).toMatchObject({
      code: '42803',
      message: `column "${t('books')}_1.id" must appear in the GROUP BY clause or be used in an aggregate function`,
    })
  })

  it('returns a column selected several times once', async () => {
    const { data, error } = await anon.from(t('books')).select(cols('id, id, id')).eq('id', 1)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 1 }])
  })
})
