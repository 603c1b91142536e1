// SQL injection attempts in every position a request can carry text into SQL: each is rejected or
// treated as data, and afterwards the canary table still exists with its row unchanged.

import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { dbUrl, raw, serviceHeaders, sql, useFixtures } from './rest-helpers.ts'

const t = useFixtures('in')

const PAYLOADS = [
  `x"; drop table public.CANARY; --`,
  `x'); update public.CANARY set note = 'pwned'; --`,
  `1) or 1=1; delete from public.CANARY; --`,
  `"||(select pg_sleep(0))||"`,
  `x\u0000y`,
  `1; truncate public.CANARY`,
]

function attempts(): { label: string; path: string; init?: RequestInit }[] {
  const canary = t('canary')
  const list: { label: string; path: string; init?: RequestInit }[] = []
  for (const raw of PAYLOADS) {
    const p = raw.replaceAll('CANARY', canary)
    const e = encodeURIComponent(p)
    const authors = `/${t('authors')}`
    list.push(
      { label: 'select list', path: `${authors}?select=${e}` },
      { label: 'alias', path: `${authors}?select=${encodeURIComponent(`"${p}":id`)}` },
      { label: 'cast', path: `${authors}?select=${encodeURIComponent(`id::${p}`)}` },
      { label: 'json path', path: `${authors}?select=${encodeURIComponent(`meta->>${JSON.stringify(p)}`)}` },
      { label: 'embed name', path: `${authors}?select=${encodeURIComponent(`id,${JSON.stringify(p)}(*)`)}` },
      {
        label: 'embed hint',
        path: `${authors}?select=${encodeURIComponent(`id,${t('books')}!${JSON.stringify(p)}(*)`)}`,
      },
      { label: 'column name', path: `${authors}?${e}=eq.1` },
      { label: 'filter value', path: `${authors}?name=eq.${e}` },
      { label: 'like value', path: `${authors}?name=like.${e}` },
      { label: 'in list', path: `${authors}?name=in.(${encodeURIComponent(JSON.stringify(p))},${e})` },
      { label: 'quantified value', path: `${authors}?name=eq(any).${encodeURIComponent(`{${p}}`)}` },
      { label: 'fts language', path: `${t('books')}?title=fts(${e}).x` },
      { label: 'or group', path: `${authors}?or=(name.eq.${e},id.eq.1)` },
      { label: 'or group quoted', path: `${authors}?or=(name.eq.${encodeURIComponent(JSON.stringify(p))})` },
      { label: 'order', path: `${authors}?order=${e}` },
      {
        label: 'order json path',
        path: `${authors}?order=${encodeURIComponent(`meta->>${JSON.stringify(p)}`)}`,
      },
      { label: 'limit', path: `${authors}?limit=${e}` },
      { label: 'table name', path: `/${e}` },
      { label: 'rpc name', path: `/rpc/${e}` },
      { label: 'rpc GET argument', path: `/rpc/${t('add')}?a=${e}` },
      {
        label: 'on_conflict',
        path: `/${t('genres')}?on_conflict=${e}`,
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Prefer: 'resolution=merge-duplicates' },
          body: JSON.stringify({ id: 900, name: 'n' }),
        },
      },
      {
        label: 'columns',
        path: `/${t('genres')}?columns=${e}`,
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify([{ id: 901 }]),
        },
      },
      {
        label: 'body key',
        path: `/${t('genres')}`,
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ [p]: 1 }),
        },
      },
      {
        label: 'body value',
        path: `/${t('genres')}?select=name`,
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Prefer: 'return=representation' },
          body: JSON.stringify({ id: 902 + PAYLOADS.indexOf(raw), name: p.replace('\u0000', '') }),
        },
      },
      {
        label: 'rpc POST argument',
        path: `/rpc/${t('fail')}`,
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ message: p }),
        },
      },
      {
        label: 'patch filter',
        path: `/${t('genres')}?name=eq.${e}`,
        init: {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'z' }),
        },
      },
      { label: 'delete filter', path: `/${t('genres')}?name=eq.${e}`, init: { method: 'DELETE' } },
      {
        label: 'profile header',
        path: authors,
        init: { headers: { 'Accept-Profile': p.replace('\u0000', '') } },
      },
    )
  }
  return list
}

describe('SQL injection', () => {
  afterAll(async () => {
    const { rows } = await sql(`select id, note from public.${t('canary')}`)
    expect(rows).toEqual([{ id: 1, note: 'still here' }])
  })

  it('treats every attempt as data or rejects it, never as SQL', async () => {
    const outcomes: string[] = []
    // One persistent connection checks the canary after every attempt.
    const db = new pg.Client({ connectionString: dbUrl })
    await db.connect()
    try {
      for (const attempt of attempts()) {
        const response = await raw(attempt.path, {
          ...attempt.init,
          headers: { ...serviceHeaders, ...(attempt.init?.headers as Record<string, string>) },
        })
        const text = await response.text()
        if (response.status >= 500) outcomes.push(`${attempt.label}: ${response.status} ${text}`)
        const canary = await db
          .query(`select note from public.${t('canary')}`)
          .catch((error: Error) => ({ rows: [{ note: `table gone: ${error.message}` }] }))
        if (canary.rows[0]?.note !== 'still here') outcomes.push(`${attempt.label}: canary changed`)
      }
    } finally {
      await db.end()
    }
    expect(outcomes).toEqual([])
  })

  it('stores injected text verbatim when it is a value, and finds it again by filter', async () => {
    const texts = PAYLOADS.filter((p) => !p.includes('\u0000')).map((p) =>
      p.replaceAll('CANARY', t('canary')),
    )
    for (const [i, text] of texts.entries()) {
      const response = await raw(`/${t('genres')}`, {
        method: 'POST',
        headers: { ...serviceHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 950 + i, name: text }),
      })
      expect(response.status).toBe(201)
    }
    const { rows } = await sql(`select name from public.${t('genres')} where id >= 950 order by id`)
    expect(rows.map((row) => row.name)).toEqual(texts)
    for (const [i, text] of texts.entries()) {
      const found = await raw(`/${t('genres')}?select=id&name=eq.${encodeURIComponent(text)}`, {
        headers: serviceHeaders,
      })
      expect(await found.json()).toEqual([{ id: 950 + i }])
      const inList = await raw(
        `/${t('genres')}?select=id&name=in.(${encodeURIComponent(JSON.stringify(text))})`,
        {
          headers: serviceHeaders,
        },
      )
      expect(await inList.json()).toEqual([{ id: 950 + i }])
    }
  })
})
