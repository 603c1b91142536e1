// Sorts a request's query parameters as PostgREST does: select, columns, on_conflict, order/limit/offset
// and and/or (each possibly prefixed by an embed path), everything else a filter (or, for RPC reads,
// a function argument).
import { RestError } from '../errors.ts'
import { Cursor, fieldName } from './cursor.ts'
import { parseLogicKey, parseLogicValue, parseOpExpr, parseTreePath } from './filter.ts'
import { parseOrder } from './order.ts'
import { parseSelect } from './select.ts'
import type { Filter, LogicTree, OrderTerm, SelectItem } from './types.ts'

export interface QueryParts {
  select: SelectItem[]
  /** `select` was given (writes return only what was asked for). */
  hasSelect: boolean
  columns?: string[]
  onConflict?: string[]
  conditions: { path: string[]; tree: LogicTree }[]
  order: { path: string[]; terms: OrderTerm[] }[]
  ranges: Map<string, { limit?: number; offset?: number }>
  args: Map<string, string>
}

const RESERVED_LAST = new Set(['order', 'limit', 'offset', 'and', 'or'])

function lastSegment(key: string): string {
  const dot = key.lastIndexOf('.')
  return dot < 0 ? key : key.slice(dot + 1)
}

function nameList(input: string, what: string): string[] {
  const c = new Cursor(input, what)
  const names = [fieldName(c)]
  for (;;) {
    c.skipSpaces()
    if (!c.take(',')) break
    c.skipSpaces()
    names.push(fieldName(c))
  }
  if (!c.eof()) c.fail('"," or end of input')
  return names
}

function integer(value: string, what: 'limit' | 'offset'): number | undefined {
  if (!/^-?\d+$/.test(value.trim())) return undefined
  const n = Number(value)
  if (n < 0)
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      what === 'limit'
        ? 'Limit should be greater than or equal to zero.'
        : 'Offset should be greater than or equal to zero.',
    )
  return n
}

export function parseQuery(
  search: URLSearchParams,
  isArg: (key: string) => boolean = () => false,
): QueryParts {
  const parts: QueryParts = {
    select: [],
    hasSelect: false,
    conditions: [],
    order: [],
    ranges: new Map(),
    args: new Map(),
  }
  let select = '*'
  for (const [key, value] of search) {
    if (key === 'select') {
      select = value
      parts.hasSelect = true
      continue
    }
    if (key === 'columns') {
      parts.columns = nameList(value, 'columns parameter')
      continue
    }
    if (key === 'on_conflict') {
      parts.onConflict = nameList(value, 'on_conflict parameter')
      continue
    }
    const last = lastSegment(key)
    if (RESERVED_LAST.has(last) && !(isArg(key) && key === last)) {
      const pathText = key.slice(0, Math.max(0, key.length - last.length - 1))
      if (last === 'and' || last === 'or') {
        const { path, negated, operator } = parseLogicKey(key)
        parts.conditions.push({ path, tree: parseLogicValue(operator, negated, value) })
        continue
      }
      const path = pathText ? parseTreePath(`${pathText}.x`).path : []
      const pathKey = path.join('\u0000')
      if (last === 'order') {
        parts.order.push({ path, terms: parseOrder(value) })
        continue
      }
      const range = parts.ranges.get(pathKey) ?? {}
      const n = integer(value, last as 'limit' | 'offset')
      if (n !== undefined) range[last as 'limit' | 'offset'] = n
      parts.ranges.set(pathKey, range)
      continue
    }
    if (isArg(key)) {
      parts.args.set(key, value)
      continue
    }
    const { path, field } = parseTreePath(key)
    const filter: Filter = { field, expr: parseOpExpr(value) }
    parts.conditions.push({ path, tree: { kind: 'filter', filter } })
  }
  parts.select = parseSelect(select)
  return parts
}
