// 10,000 random select / filter / order / logic strings built from the grammar's own pieces: the
// gateway may refuse them, but never with a 5xx, and the canary stays put.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { propertySeed } from '../../src/test-seed.ts'
import { raw, serviceHeaders, sql, useFixtures } from './rest-helpers.ts'

const t = useFixtures('fz')

const COLUMNS = [
  'id',
  'name',
  'bio',
  'meta',
  'tags',
  'born',
  'created_at',
  'nope',
  'author_id',
  'title',
  'pages',
]
const PIECES = [
  ...COLUMNS,
  '*',
  ',',
  '.',
  '..',
  '...',
  '(',
  ')',
  '!',
  '!inner',
  '!left',
  ':',
  '::',
  '::text',
  '::int',
  '->',
  '->>',
  '"',
  '\\',
  "'",
  ';',
  ' ',
  '-',
  '{',
  '}',
  '%',
  '0',
  '1',
  '-1',
  'eq.',
  'neq.',
  'gt.',
  'like.',
  'ilike.',
  'in.(',
  'is.null',
  'is.true',
  'not.',
  'cs.',
  'ov.',
  'fts.',
  'fts(english).',
  'eq(any).',
  'isdistinct.',
  'or(',
  'and(',
  'asc',
  'desc',
  'nullsfirst',
  '.nullslast',
  'gw_fz_books',
  'gw_fz_authors',
  'gw_fz_genres',
  'count()',
  '.sum()',
  'drop table',
  '\u00e9',
]

const fragment = fc
  .array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 12 })
  .map((parts) => parts.join(''))
const KEYS = [
  'select',
  'order',
  'or',
  'and',
  'not.or',
  'limit',
  'offset',
  ...COLUMNS,
  'gw_fz_books.title',
  'gw_fz_books.order',
]

const query = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), fragment), { minLength: 1, maxLength: 4 })
  .map((pairs) =>
    pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&'),
  )

const target = fc.constantFrom(t('authors'), t('books'), `rpc/${t('books_by')}`)

describe('fuzzing the query grammar', () => {
  it('answers 10,000 random requests without a server error', async () => {
    const cases = fc.sample(fc.tuple(target, query), { numRuns: 10_000, seed: propertySeed('rest-fuzz') })
    const failures: string[] = []
    const statuses = new Map<number, number>()
    let next = 0
    const worker = async () => {
      while (next < cases.length) {
        const [resource, search] = cases[next++] as [string, string]
        const path = resource.startsWith('rpc/')
          ? `/${resource}?author=1&${search}`
          : `/${resource}?${search}`
        const response = await raw(path, { headers: serviceHeaders })
        await response.arrayBuffer()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        if (response.status >= 500 && failures.length < 20) failures.push(`${response.status} ${path}`)
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    expect(failures).toEqual([])
    // The sample must exercise both accepted and refused requests to mean anything.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(100)
    const { rows } = await sql(`select note from public.${t('canary')}`)
    expect(rows).toEqual([{ note: 'still here' }])
    // About 20 s on a quiet machine; the margin is for a machine shared with other work.
  }, 150_000)
})
