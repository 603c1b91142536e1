// `select=` grammar: `*`, `alias:col->json::type`, embeds `alias:rel!hint!inner(…)`, spreads `...rel(…)`.
import { Cursor, fieldName, fieldRef, typeIdentifier } from './cursor.ts'
import type { AggregateFunction, JoinType, SelectEmbed, SelectItem } from './types.ts'

const AGGREGATES: AggregateFunction[] = ['sum', 'avg', 'count', 'max', 'min']

export function parseSelect(input: string): SelectItem[] {
  const c = new Cursor(input, 'select parameter')
  const items = forest(c)
  if (!c.eof()) c.fail('",", ")" or end of input')
  return items
}

function forest(c: Cursor): SelectItem[] {
  const items: SelectItem[] = []
  c.skipSpaces()
  if (c.eof() || c.peek() === ')') return items
  for (;;) {
    items.push(item(c))
    c.skipSpaces()
    if (!c.take(',')) return items
    c.skipSpaces()
  }
}

function atItemEnd(c: Cursor): boolean {
  return c.eof() || c.peek() === ',' || c.peek() === ')'
}

function item(c: Cursor): SelectItem {
  c.skipSpaces()
  if (c.take('...')) {
    const name = fieldName(c)
    return embedRest(c, { name, spread: true })
  }
  const start = c.pos
  const embed = tryEmbed(c)
  if (embed) return embed
  c.pos = start
  return field(c)
}

function optionalAlias(c: Cursor): string | undefined {
  const start = c.pos
  if (c.peek() === '"' || /[\p{L}\p{N}_ $]/u.test(c.peek())) {
    try {
      const alias = fieldName(c)
      if (c.peek() === ':' && c.peek(1) !== ':') {
        c.pos++
        return alias
      }
    } catch {
      // not an alias; the caller parses the same text as a name
    }
  }
  c.pos = start
  return undefined
}

function tryEmbed(c: Cursor): SelectItem | undefined {
  const alias = optionalAlias(c)
  let name: string
  try {
    name = fieldName(c)
  } catch {
    return undefined
  }
  if (name === 'count') return undefined
  const params = embedParams(c)
  if (c.peek() !== '(') return undefined
  return embedRest(c, { name, alias, spread: false, ...params })
}

function embedParams(c: Cursor): { hint?: string; joinType?: JoinType } {
  const params: { hint?: string; joinType?: JoinType } = {}
  for (let i = 0; i < 2 && c.peek() === '!'; i++) {
    c.pos++
    if (c.take('inner')) params.joinType ??= 'inner'
    else if (c.take('left')) params.joinType ??= 'left'
    else params.hint ??= fieldName(c)
  }
  return params
}

function embedRest(c: Cursor, head: Omit<SelectEmbed, 'kind' | 'children'>): SelectEmbed {
  const params = head.spread ? embedParams(c) : {}
  c.expect('(')
  const children = forest(c)
  c.expect(')', '")" or ","')
  c.skipSpaces()
  if (!atItemEnd(c)) c.fail('",", ")" or end of input')
  return { kind: 'embed', ...head, ...params, children }
}

function field(c: Cursor): SelectItem {
  if (c.peek() === '*') {
    c.pos++
    c.skipSpaces()
    if (!atItemEnd(c)) c.fail('",", ")" or end of input')
    return { kind: 'star' }
  }
  const alias = optionalAlias(c)
  // PostgREST's pFieldSelect: `count()` alone, or `field::cast.aggregate()::cast`.
  if (c.take('count()')) {
    const aggregateCast = c.take('::') ? typeIdentifier(c) : undefined
    c.skipSpaces()
    if (!atItemEnd(c)) c.fail('"::", ",", ")" or end of input')
    return {
      kind: 'field',
      field: { name: '*', path: [] },
      aggregate: 'count',
      ...(alias !== undefined && { alias }),
      ...(aggregateCast && { aggregateCast }),
    }
  }
  const ref = fieldRef(c)
  let cast: string | undefined
  if (c.take('::')) cast = typeIdentifier(c)
  const aggregate = AGGREGATES.find((fn) => c.startsWith(`.${fn}()`))
  if (aggregate) c.pos += aggregate.length + 3
  const aggregateCast = aggregate && c.take('::') ? typeIdentifier(c) : undefined
  c.skipSpaces()
  if (!atItemEnd(c)) c.fail('"->>", "->", "::", ",", ")" or end of input')
  return {
    kind: 'field',
    field: ref,
    ...(alias !== undefined && { alias }),
    ...(cast && { cast }),
    ...(aggregate && { aggregate }),
    ...(aggregateCast && { aggregateCast }),
  }
}
