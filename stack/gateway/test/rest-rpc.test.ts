// /rest/v1/rpc through the real supabase-js: GET and POST, named and single-json arguments, scalar,
// set, composite and void returns, filters on set-returning functions, and function errors.
import { describe, expect, it } from 'vitest'
import { client, cols, jsonOf, raw, sql, useFixtures, userToken } from './rest-helpers.ts'

const t = useFixtures('rp')
const anon = client()

describe('rpc', () => {
  it('calls with named arguments over POST and GET, defaults filling the rest', async () => {
    expect(await anon.rpc(t('add'), { a: 2, b: 3 })).toMatchObject({ data: 5, status: 200 })
    expect((await anon.rpc(t('add'), { a: 2 }, { get: true })).data).toBe(3)
    const response = await raw(`/rpc/${t('add')}?a=40&b=2`)
    expect(await jsonOf(response)).toBe(42)
  })

  it('returns sets with filters, order, limit, count and embeds', async () => {
    const { data, count, error } = await anon
      .rpc(t('books_by'), { author: 1 }, { count: 'exact' })
      .select(cols(`id, title, author:${t('authors')}!author_id(name)`))
      .gt('pages', 60)
      .order('id', { ascending: false })
    expect(error).toBeNull()
    expect(count).toBe(1)
    expect(data).toEqual([{ id: 2, title: 'Poetical Science', author: { name: 'Ada' } }])
    const numbers = await anon.rpc(t('numbers'), { upto: 10 }).range(2, 4)
    expect(numbers.data).toEqual([3, 4, 5])
  })

  it('returns a composite as an object, a scalar as its JSON value, void as 204', async () => {
    expect((await anon.rpc(t('author_of'), { book: 3 })).data).toMatchObject({ id: 2, name: 'Grace' })
    const voidCall = await anon.rpc(t('touch'))
    expect(voidCall).toMatchObject({ status: 204, data: null, error: null })
  })

  it('passes the whole body to a function with a single unnamed json parameter', async () => {
    const { data } = await anon.rpc(t('echo'), { nested: { list: [1, 'two'] } })
    expect(data).toEqual({ nested: { list: [1, 'two'] } })
  })

  it('runs GET calls read-only: a volatile function that writes fails with 405', async () => {
    const { status, error } = await anon.rpc(t('touch'), {}, { get: true })
    expect(status).toBe(405)
    expect(error?.code).toBe('25006')
  })

  it('sets role, claims, method, path and headers for the function', async () => {
    const sub = '8d0c0c8e-1111-4a3e-9a0f-1f2e3d4c5b6a'
    const user = client(userToken(sub))
    const { data } = await user.rpc(t('whoami'))
    expect(data).toMatchObject({
      role: 'authenticated',
      sub,
      method: 'POST',
      path: `/rpc/${t('whoami')}`,
      read_only: 'on',
    })
    const viaGet = await raw(`/rpc/${t('whoami')}`, { headers: { 'X-Test-Header': 'hello' } })
    expect(await jsonOf(viaGet)).toMatchObject({ role: 'anon', sub: null, method: 'GET', header: 'hello' })
  })

  it('lets functions set response headers and status', async () => {
    const response = await raw(`/rpc/${t('headers')}`)
    expect(response.status).toBe(202)
    expect(response.headers.get('x-from-function')).toBe('yes')
  })

  it('maps RAISE to 400 P0001 with message and hint', async () => {
    const { status, error } = await anon.rpc(t('fail'), { message: 'nope, not today' })
    expect(status).toBe(400)
    expect(error).toMatchObject({ code: 'P0001', message: 'nope, not today', hint: 'from the fixture' })
  })

  it('answers PGRST202 (404) for unknown functions or arguments, with a suggestion', async () => {
    const missing = await anon.rpc(`${t('ad')}`, { a: 1 })
    expect(missing.status).toBe(404)
    expect(missing.error).toMatchObject({
      code: 'PGRST202',
      message: `Could not find the function public.${t('ad')}(a) in the schema cache`,
      hint: `Perhaps you meant to call the function public.${t('add')}`,
    })
    const wrongArgs = await anon.rpc(t('add'), { x: 1 })
    expect(wrongArgs.status).toBe(404)
    expect(wrongArgs.error?.code).toBe('PGRST202')
  })

  it('refuses other methods on rpc', async () => {
    const response = await raw(`/rpc/${t('add')}`, { method: 'PATCH' })
    expect(response.status).toBe(405)
    expect((await jsonOf(response)).code).toBe('PGRST101')
  })

  // PostgREST (src/library/PostgREST/Response.hs, CallReadPlan) answers every call with
  // RangeQuery.rangeStatusHeader: a single value is one row, "0-0/*", and "0-0/1" with
  // count=exact (contentRangeH in RangeQuery.hs), so supabase-js's count is 1, not NaN.
  it('carries the total in Content-Range for scalar and single-row functions with count=exact', async () => {
    const exact = await raw(`/rpc/${t('add')}?a=1&b=2`, { headers: { Prefer: 'count=exact' } })
    expect(exact.status).toBe(200)
    expect(exact.headers.get('content-range')).toBe('0-0/1')
    expect(await jsonOf(exact)).toBe(3)
    const plain = await raw(`/rpc/${t('add')}?a=1&b=2`)
    expect(plain.headers.get('content-range')).toBe('0-0/*')
    await plain.arrayBuffer()
    const { data, count, error } = await anon.rpc(t('add'), { a: 4, b: 5 }, { count: 'exact' })
    expect(error).toBeNull()
    expect(data).toBe(9)
    expect(count).toBe(1)
  })

  // docs/references/api/functions.rst (PostgREST), "Functions with a single unnamed parameter":
  // text/plain, application/octet-stream and text/xml bodies go whole to a single unnamed text,
  // bytea or xml parameter; findProc (src/library/PostgREST/Plan.hs) names such a parameter "", so
  // a JSON body {"": v} selects it too, and OnePosParam (Query/QueryBuilder.hs) passes the whole
  // body cast to the parameter's type.
  it('calls a function with a single unnamed parameter with the raw body or {"": value}', async () => {
    const text = await raw(`/rpc/${t('shout')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    })
    expect(text.status).toBe(200)
    expect(await jsonOf(text)).toBe('HELLO')
    const bytes = await raw(`/rpc/${t('size')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array([0, 1, 2, 255, 0]),
    })
    expect(bytes.status).toBe(200)
    expect(await jsonOf(bytes)).toBe(5)
    const keyed = await anon.rpc(t('echo'), { '': { x: 1 } })
    expect(keyed.error).toBeNull()
    expect(keyed.data).toEqual({ '': { x: 1 } })
    const keyedText = await anon.rpc(t('shout'), { '': 'hi' })
    expect(keyedText.error).toBeNull()
    expect(keyedText.data).toBe('{"":"HI"}')
  })

  // findProc (src/library/PostgREST/Plan.hs) keeps the overloads whose required parameters are
  // exactly the given keys (plus optional ones) and answers 300 PGRST203 (AmbiguousRpc) only when
  // more than one is left.
  it('resolves overloaded functions by the argument names, PGRST203 only when truly ambiguous', async () => {
    expect((await anon.rpc(t('pick'), { a: 1 })).data).toBe('a')
    expect((await anon.rpc(t('pick'), { b: 'x' })).data).toBe('b')
    expect((await anon.rpc(t('pick'), { a: 1, c: 2 })).data).toBe('a,c')
    expect((await anon.rpc(t('pick'), { a: 1 }, { get: true })).data).toBe('a')
    const twin = await raw(`/rpc/${t('twin')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    })
    expect(twin.status).toBe(300)
    expect(await twin.json()).toMatchObject({ code: 'PGRST203' })
  })

  it('head: true counts rows without a body', async () => {
    const { count, data } = await anon.rpc(t('numbers'), { upto: 7 }, { head: true, count: 'exact' })
    expect(count).toBe(7)
    expect(data).toBeNull()
  })

  it('leaves the canary alone (rpc arguments are data)', async () => {
    const { status } = await anon.rpc(t('add'), { a: '1); drop table canary; --' as unknown as number })
    expect(status).toBe(400)
    expect((await sql(`select note from ${t('canary')}`)).rows).toEqual([{ note: 'still here' }])
  })
})
