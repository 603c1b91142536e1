// /rest/v1 writes through the real supabase-js: insert, upsert, update, delete with representation,
// minimal and headers-only returns, missing=default, rollback, max-affected and limited changes.
import { describe, expect, it } from 'vitest'
import { client, cols, jsonOf, raw, serviceHeaders, sql, useFixtures } from './rest-helpers.ts'

const t = useFixtures('wr')
const anon = client()

describe('insert', () => {
  it('inserts one object: 201 without a body by default', async () => {
    const { status, data, error } = await anon.from(t('genres')).insert({ id: 10, name: 'drama' })
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(data).toBeNull()
    expect((await sql(`select name from ${t('genres')} where id = 10`)).rows).toEqual([{ name: 'drama' }])
  })

  it('inserts an array (columns=) and returns the rows select= asks for, embeds included', async () => {
    const { data, error, status } = await anon
      .from(t('books'))
      .insert([
        { title: 'Batch A', author_id: 2 },
        { title: 'Batch B', pages: 10 },
      ])
      .select(cols(`title, pages, author:${t('authors')}!author_id(name)`))
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(data).toEqual([
      { title: 'Batch A', pages: null, author: { name: 'Grace' } },
      { title: 'Batch B', pages: 10, author: null },
    ])
  })

  it('uses column defaults for missing keys with Prefer: missing=default', async () => {
    const { data } = await anon
      .from(t('authors'))
      .insert([{ name: 'Default A' }, { name: 'Default B', bio: 'given' }], { defaultToNull: false })
      .select('id, name, bio, created_at')
    expect(data).toHaveLength(2)
    expect(data?.[0]?.id).toBeGreaterThan(100)
    expect(data?.[1]?.id).toBe((data?.[0]?.id ?? 0) + 1)
    expect(data?.[1]?.bio).toBe('given')
    expect(typeof data?.[0]?.created_at).toBe('string')
  })

  it('returns a single object with .single() and the Location with return=headers-only', async () => {
    const single = await anon.from(t('genres')).insert({ id: 11, name: 'essay' }).select().single()
    expect(single.data).toEqual({ id: 11, name: 'essay' })
    const response = await raw(`/${t('genres')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'return=headers-only' },
      body: JSON.stringify({ id: 12, name: 'satire' }),
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('location')).toBe(`/${t('genres')}?id=eq.12`)
  })

  it('answers 409 on a unique violation and 409 on a foreign key violation', async () => {
    const duplicate = await anon.from(t('genres')).insert({ id: 1, name: 'again' })
    expect(duplicate.status).toBe(409)
    expect(duplicate.error?.code).toBe('23505')
    const orphan = await anon.from(t('books')).insert({ title: 'Orphan', author_id: 9999 })
    expect(orphan.status).toBe(409)
    expect(orphan.error?.code).toBe('23503')
  })

  it('answers PGRST204 for an unknown column and PGRST102 for malformed JSON', async () => {
    const unknown = await anon.from(t('genres')).insert({ id: 13, nope: 'x' })
    expect(unknown.status).toBe(400)
    expect(unknown.error).toMatchObject({
      code: 'PGRST204',
      message: `Could not find the 'nope' column of '${t('genres')}' in the schema cache`,
    })
    const malformed = await raw(`/${t('genres')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"id": 14,',
    })
    expect(malformed.status).toBe(400)
    expect((await jsonOf(malformed)).code).toBe('PGRST102')
  })

  it('refuses bodies over 10 MB with 413', async () => {
    const response = await raw(`/${t('genres')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 15, name: 'x'.repeat(11 * 1024 * 1024) }),
    })
    expect(response.status).toBe(413)
  })
})

describe('upsert', () => {
  it('merges duplicates on the primary key and on on_conflict columns', async () => {
    const merged = await anon
      .from(t('genres'))
      .upsert([
        { id: 2, name: 'verse' },
        { id: 20, name: 'fresh' },
      ])
      .select()
      .order('id')
    expect(merged.status).toBe(201)
    expect(merged.data).toEqual([
      { id: 2, name: 'verse' },
      { id: 20, name: 'fresh' },
    ])
    const byName = await anon
      .from(t('genres'))
      .upsert({ id: 21, name: 'fresh' }, { onConflict: 'name' })
      .select()
    expect(byName.data).toEqual([{ id: 21, name: 'fresh' }])
  })

  // PostgREST (src/library/PostgREST/Response.hs, MutationCreate): with merge-duplicates the status
  // is 201 when at least one row was inserted and 200 when none was (isInsertIfGTZero over
  // rsInserted), for every representation; a plain insert stays 201.
  it('answers 200 for an upsert that only updates existing rows, 201 once one row is new', async () => {
    const updated = await anon
      .from(t('genres'))
      .upsert([
        { id: 1, name: 'poetry-again' },
        { id: 2, name: 'verse-again' },
      ])
      .select()
      .order('id')
    expect(updated.error).toBeNull()
    expect(updated.status).toBe(200)
    expect(updated.data).toEqual([
      { id: 1, name: 'poetry-again' },
      { id: 2, name: 'verse-again' },
    ])
    const minimal = await anon.from(t('genres')).upsert({ id: 1, name: 'poetry-minimal' })
    expect(minimal.status).toBe(200)
    const mixed = await anon.from(t('genres')).upsert([
      { id: 1, name: 'poetry-mixed' },
      { id: 30, name: 'brand-new' },
    ])
    expect(mixed.status).toBe(201)
    expect((await sql(`select id, name from ${t('genres')} where id in (1, 30) order by id`)).rows).toEqual([
      { id: 1, name: 'poetry-mixed' },
      { id: 30, name: 'brand-new' },
    ])
  })

  it('ignores duplicates with ignoreDuplicates', async () => {
    const { data } = await anon
      .from(t('genres'))
      .upsert({ id: 3, name: 'ignored' }, { ignoreDuplicates: true })
      .select()
    expect(data).toEqual([])
    expect((await sql(`select name from ${t('genres')} where id = 3`)).rows).toEqual([{ name: 'computing' }])
  })

  it('PUT upserts one row addressed by its primary key', async () => {
    const response = await raw(`/${t('genres')}?id=eq.30`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify({ id: 30, name: 'put' }),
    })
    expect(response.status).toBe(200)
    expect(await jsonOf(response)).toEqual([{ id: 30, name: 'put' }])
    const mismatch = await raw(`/${t('genres')}?id=eq.31`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 32, name: 'x' }),
    })
    expect(mismatch.status).toBe(400)
    expect((await jsonOf(mismatch)).code).toBe('PGRST115')
  })
})

describe('update and delete', () => {
  it('updates filtered rows: 204 by default, 200 with representation', async () => {
    const minimal = await anon.from(t('kinds')).update({ label: 'uno' }).eq('id', 1)
    expect(minimal.status).toBe(204)
    const { data, status, count } = await anon
      .from(t('kinds'))
      .update({ flag: false }, { count: 'exact' })
      .in('id', [1, 2])
      .select('id, label, flag')
      .order('id')
    expect(status).toBe(200)
    expect(count).toBe(2)
    expect(data).toEqual([
      { id: 1, label: 'uno', flag: false },
      { id: 2, label: 'two', flag: false },
    ])
  })

  it('deletes filtered rows and returns them', async () => {
    await anon.from(t('genres')).insert({ id: 40, name: 'doomed' })
    const { data, status } = await anon.from(t('genres')).delete().eq('id', 40).select()
    expect(status).toBe(200)
    expect(data).toEqual([{ id: 40, name: 'doomed' }])
    expect((await sql(`select count(*)::int as n from ${t('genres')} where id = 40`)).rows[0]?.n).toBe(0)
  })

  it('rolls back with Prefer: tx=rollback yet returns the representation', async () => {
    const { data, error } = await anon.from(t('genres')).insert({ id: 50, name: 'ghost' }).select().rollback()
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 50, name: 'ghost' }])
    expect((await sql(`select count(*)::int as n from ${t('genres')} where id = 50`)).rows[0]?.n).toBe(0)
  })

  it('enforces max-affected with handling=strict and keeps the rows', async () => {
    // postgrest-js's maxAffected() (typed for PostgREST 13 only) sends exactly these preferences.
    const response = await raw(`/${t('kinds')}?id=gte.1`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Prefer: 'handling=strict, max-affected=1' },
      body: JSON.stringify({ label: 'many' }),
    })
    expect(response.status).toBe(400)
    expect(await jsonOf(response)).toMatchObject({ code: 'PGRST124', details: 'The query affects 3 rows' })
    expect((await sql(`select count(*)::int as n from ${t('kinds')} where label = 'many'`)).rows[0]?.n).toBe(
      0,
    )
  })

  it('single() on a write that touches several rows fails with PGRST116 and changes nothing', async () => {
    const { status, error } = await anon
      .from(t('kinds'))
      .update({ label: 'x' })
      .gte('id', 1)
      .select()
      .single()
    expect(status).toBe(406)
    expect(error?.code).toBe('PGRST116')
    expect((await sql(`select count(*)::int as n from ${t('kinds')} where label = 'x'`)).rows[0]?.n).toBe(0)
  })

  it('limits updates and deletes to the first rows by an explicit order', async () => {
    const response = await raw(`/${t('categories')}?select=id&order=id.desc&limit=1`, {
      method: 'PATCH',
      headers: { ...serviceHeaders, 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify({ name: 'last one' }),
    })
    expect(await jsonOf(response)).toEqual([{ id: 4 }])
    const unordered = await raw(`/${t('categories')}?limit=1`, { method: 'DELETE' })
    expect(unordered.status).toBe(400)
    expect((await jsonOf(unordered)).code).toBe('PGRST109')
  })

  it('an empty update body changes nothing', async () => {
    const { data, error } = await anon.from(t('kinds')).update({}).eq('id', 1).select()
    expect(error).toBeNull()
    expect(data).toEqual([])
  })

  it('applies preferences it honours and refuses unknown ones under handling=strict', async () => {
    const lenient = await raw(`/${t('genres')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'return=minimal, frobnicate' },
      body: JSON.stringify({ id: 60, name: 'lenient' }),
    })
    expect(lenient.status).toBe(201)
    expect(lenient.headers.get('preference-applied')).toBe('return=minimal')
    const strict = await raw(`/${t('genres')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'handling=strict, frobnicate' },
      body: JSON.stringify({ id: 61, name: 'strict' }),
    })
    expect(strict.status).toBe(400)
    expect(await jsonOf(strict)).toMatchObject({
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: frobnicate',
    })
  })
})
