// Reading objects back as the API does: `expand[]` paths, list pagination (newest first with
// starting_after / ending_before) and the customer search query language subset we need.
import { invalidRequest, resourceMissing } from './errors.ts'
import type { Store } from './store.ts'

type Json = Record<string, unknown>

const COLLECTIONS: Array<[string, (s: Store) => Record<string, unknown>]> = [
  ['cus_', (s) => s.state.customers],
  ['sub_', (s) => s.state.subscriptions],
  ['in_', (s) => s.state.invoices],
  ['price_', (s) => s.state.prices],
  ['prod_', (s) => s.state.products],
  ['cs_', (s) => s.state.checkoutSessions],
  ['bps_', (s) => s.state.portalSessions],
]

export function lookup(store: Store, id: string): Json | undefined {
  for (const [prefix, collection] of COLLECTIONS) {
    if (id.startsWith(prefix)) return collection(store)[id] as Json | undefined
  }
  return undefined
}

/** Extra fields an object shows only when expanded (a session's line_items). */
export type Expanders = Record<string, (object: Json) => unknown>

function expandPath(store: Store, target: unknown, path: string[], expanders: Expanders, full: string): void {
  if (target === null || typeof target !== 'object') return
  const [field, ...rest] = path
  if (!field) return
  if (Array.isArray(target)) {
    for (const element of target) expandPath(store, element, path, expanders, full)
    return
  }
  const object = target as Json
  const computed = expanders[`${String(object.object)}.${field}`]
  if (computed) {
    object[field] = computed(object)
  } else if (typeof object[field] === 'string') {
    const found = lookup(store, object[field] as string)
    if (!found) throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand')
    object[field] = structuredClone(found)
  } else if (!(field in object)) {
    throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand')
  }
  if (rest.length > 0) expandPath(store, object[field], rest, expanders, full)
}

/** A copy of `object` with each `expand` path replaced by the object it names. */
export function render<T>(
  store: Store,
  object: T,
  expand: string[] | undefined,
  expanders: Expanders = {},
): T {
  const copy = structuredClone(object)
  for (const path of expand ?? []) {
    const segments = path.split('.')
    if (segments.length > 4)
      throw invalidRequest(`You cannot expand more than 4 levels of a property (${path}).`, 'expand')
    expandPath(store, copy, segments, expanders, path)
  }
  return copy
}

export interface PageParams {
  limit?: number
  starting_after?: string
  ending_before?: string
  expand?: string[]
}

/** One page of `items` (newest first, ties by id) shaped as Stripe's list object. */
export function page<T extends { id: string; created: number }>(
  store: Store,
  items: T[],
  params: PageParams,
  url: string,
  expanders: Expanders = {},
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const sorted = [...items].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1))
  const limit = params.limit ?? 10
  let start = 0
  let end = sorted.length
  if (params.starting_after) {
    const index = sorted.findIndex((item) => item.id === params.starting_after)
    if (index < 0) throw resourceMissing(params.starting_after, 'starting_after')
    start = index + 1
  } else if (params.ending_before) {
    const index = sorted.findIndex((item) => item.id === params.ending_before)
    if (index < 0) throw resourceMissing(params.ending_before, 'ending_before')
    end = index
    start = Math.max(0, end - limit)
  }
  const slice = sorted.slice(start, Math.min(end, start + limit))
  const hasMore = params.ending_before ? start > 0 : start + limit < end
  const expand = (params.expand ?? []).map((path) => {
    if (!path.startsWith('data.'))
      throw invalidRequest(`This property cannot be expanded (${path}).`, 'expand')
    return path.slice('data.'.length)
  })
  return {
    object: 'list',
    data: slice.map((item) => render(store, item, expand, expanders)),
    has_more: hasMore,
    url,
  }
}

type Clause = { field: string; key?: string; op: ':' | '~'; value: string }

/**
 * Stripe's search language, the subset for customers: `email:'a@b.c'`, `name~'ann'`,
 * `metadata['user_id']:'…'`, joined with AND (OR is also accepted between clauses).
 */
export function parseSearch(query: string): { clauses: Clause[]; joiner: 'AND' | 'OR' } {
  const clause = /\s*(email|name|phone|metadata\['([^']+)'\])\s*(:|~)\s*'((?:[^'\\]|\\.)*)'\s*/y
  const clauses: Clause[] = []
  let joiner: 'AND' | 'OR' | undefined
  let index = 0
  while (index < query.length) {
    clause.lastIndex = index
    const match = clause.exec(query)
    if (!match) throw invalidRequest(`Invalid search query: ${query}`, 'query', 'search_query_invalid')
    const field = match[1]?.startsWith('metadata') ? 'metadata' : (match[1] ?? '')
    clauses.push({
      field,
      key: match[2],
      op: match[3] as ':' | '~',
      value: (match[4] ?? '').replace(/\\(.)/g, '$1'),
    })
    index = clause.lastIndex
    const rest = /(AND|OR)\s+/y
    rest.lastIndex = index
    const join = rest.exec(query)
    if (!join) break
    if (joiner && joiner !== join[1]) throw invalidRequest('Search queries cannot mix AND and OR.', 'query')
    joiner = join[1] as 'AND' | 'OR'
    index = rest.lastIndex
  }
  if (index < query.length || clauses.length === 0)
    throw invalidRequest(`Invalid search query: ${query}`, 'query', 'search_query_invalid')
  return { clauses, joiner: joiner ?? 'AND' }
}

export function matchesSearch(object: Json, search: ReturnType<typeof parseSearch>): boolean {
  const test = (c: Clause) => {
    const raw =
      c.field === 'metadata' ? (object.metadata as Record<string, string>)[c.key ?? ''] : object[c.field]
    if (typeof raw !== 'string') return false
    return c.op === ':'
      ? raw.toLowerCase() === c.value.toLowerCase()
      : raw.toLowerCase().includes(c.value.toLowerCase())
  }
  return search.joiner === 'AND' ? search.clauses.every(test) : search.clauses.some(test)
}
