// Filter values `not.op(quantifier).value`, `in.(a,"b,c")`, logic trees `or=(a.eq.1,and(b.gt.2,c.is.null))`
// and the keys they hang on (`rel.col->>k`, `rel.not.or`).
import { Cursor, fieldName, fieldRef, jsonPath, quotedValue, typeIdentifier } from './cursor.ts'
import type { FieldRef, FtsOperator, IsValue, LogicTree, OpExpr, Operation, SimpleOperator } from './types.ts'

const SIMPLE: SimpleOperator[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj']
// Longer names first so that `gte` is not read as `gt`.
const QUANTIFIABLE: SimpleOperator[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch']
const FTS: FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts']
const IS_VALUES: IsValue[] = ['null', 'not_null', 'true', 'false', 'unknown']

type ValueReader = (c: Cursor) => string

/** In a query parameter the value is everything after the operator, unescaped. */
const restOfInput: ValueReader = (c) => {
  const value = c.rest
  c.pos = c.input.length
  return value
}

/** Inside `or=(…)` a value ends at `,` or `)` unless quoted or a `{…}` array literal. */
const logicValue: ValueReader = (c) => {
  const start = c.pos
  if (c.peek() === '"' && findClosingQuote(c.input, c.pos) >= 0) {
    const quoted = quotedValue(c) as string
    if (c.eof() || c.peek() === ',' || c.peek() === ')') return quoted
    c.pos = start
  }
  if (c.peek() === '{') {
    const close = c.input.indexOf('}', c.pos)
    const inner = close < 0 ? '' : c.input.slice(c.pos + 1, close)
    if (close >= 0 && !inner.includes('{')) {
      c.pos = close + 1
      return `{${inner}}`
    }
  }
  while (!c.eof() && c.peek() !== ',' && c.peek() !== ')') c.pos++
  return c.input.slice(start, c.pos)
}

function findClosingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i
  }
  return -1
}

function listValue(c: Cursor): string[] {
  c.skipSpaces()
  c.expect('(')
  c.skipSpaces()
  const values: string[] = []
  // `in.()` (supabase-js's .in(col, [])) matches nothing.
  if (c.take(')')) return values
  for (;;) {
    const start = c.pos
    let value: string | undefined
    if (c.peek() === '"' && findClosingQuote(c.input, c.pos) >= 0) {
      value = quotedValue(c)
      if (!(c.peek() === ',' || c.peek() === ')')) {
        c.pos = start
        value = undefined
      }
    }
    if (value === undefined) {
      while (!c.eof() && c.peek() !== ',' && c.peek() !== ')') c.pos++
      value = c.input.slice(start, c.pos)
    }
    values.push(value)
    if (!c.take(',')) break
  }
  c.skipSpaces()
  c.expect(')', '")" or ","')
  c.skipSpaces()
  return values
}

function delimiter(c: Cursor): void {
  c.expect('.', 'delimiter (.)')
}

function operation(c: Cursor, readValue: ValueReader): Operation {
  if (c.take('in.')) return { op: 'in', values: listValue(c) }
  if (c.take('isdistinct.')) return { op: 'isdistinct', value: readValue(c) }
  if (c.take('is.')) {
    const word = IS_VALUES.find((v) => c.rest.slice(0, v.length).toLowerCase() === v)
    if (!word) c.fail('isVal: (null, not_null, true, false, unknown)')
    c.pos += word.length
    return { op: 'is', value: word }
  }
  for (const op of FTS) {
    if (!c.startsWith(op) || (c.peek(op.length) !== '.' && c.peek(op.length) !== '(')) continue
    c.pos += op.length
    let language: string | undefined
    if (c.take('(')) {
      language = typeIdentifier(c)
      c.expect(')')
    }
    delimiter(c)
    return { op, value: readValue(c), ...(language && { language }) }
  }
  for (const op of SIMPLE) {
    if (c.take(`${op}.`)) return { op, value: readValue(c) }
  }
  for (const op of QUANTIFIABLE) {
    if (!c.startsWith(op)) continue
    const after = c.peek(op.length)
    if (after !== '.' && after !== '(') continue
    c.pos += op.length
    let quantifier: 'any' | 'all' | undefined
    if (c.take('(any)')) quantifier = 'any'
    else if (c.take('(all)')) quantifier = 'all'
    delimiter(c)
    return { op, value: readValue(c), ...(quantifier && { quantifier }) }
  }
  return c.fail('operator (eq, gt, ...)')
}

function opExpr(c: Cursor, readValue: ValueReader): OpExpr {
  const negated = c.startsWith('not.') && !c.startsWith('not.(')
  if (negated) c.pos += 4
  return { negated, operation: operation(c, readValue) }
}

/** The value of a filter parameter: `eq.1`, `not.in.(1,2)`, `fts(english).cat`. */
export function parseOpExpr(value: string): OpExpr {
  return opExpr(new Cursor(value, 'filter'), restOfInput)
}

/** `a.b.col->>k` → embed path [a, b] and the field. */
export function parseTreePath(key: string): { path: string[]; field: FieldRef } {
  const c = new Cursor(key, 'tree path')
  const names = [fieldName(c)]
  while (c.take('.')) names.push(fieldName(c))
  const path = jsonPath(c)
  if (!c.eof()) c.fail('"->>", "->", delimiter (.) or end of input')
  const name = names.pop() as string
  return { path: names, field: { name, path } }
}

/** `rel.not.or` → embed path [rel] with a negated `or`. */
export function parseLogicKey(key: string): { path: string[]; negated: boolean; operator: 'and' | 'or' } {
  const c = new Cursor(key, 'logic path')
  const names = [fieldName(c)]
  while (c.take('.')) names.push(fieldName(c))
  const operator = names.pop() as 'and' | 'or'
  const negated = names.at(-1) === 'not'
  if (negated) names.pop()
  return { path: names.filter((n) => n !== 'not'), negated, operator }
}

/** The value of an `or`/`and` parameter, e.g. `(a.eq.1,and(b.gt.2,c.lt.3))`. */
export function parseLogicValue(operator: 'and' | 'or', negated: boolean, value: string): LogicTree {
  const c = new Cursor(`${operator}${value}`, 'logic tree')
  const inner = logicGroupBody(c)
  if (!c.eof()) c.fail('"," or end of input')
  return { kind: 'logic', negated, operator, children: inner }
}

function logicGroupBody(c: Cursor): LogicTree[] {
  if (c.take('and')) return group(c)
  if (c.take('or')) return group(c)
  return c.fail('logic operator (and, or)')
}

function group(c: Cursor): LogicTree[] {
  c.skipSpaces()
  c.expect('(')
  const children: LogicTree[] = []
  for (;;) {
    c.skipSpaces()
    children.push(logicTree(c))
    c.skipSpaces()
    if (!c.take(',')) break
  }
  c.expect(')', '")" or ","')
  c.skipSpaces()
  return children
}

function logicTree(c: Cursor): LogicTree {
  const start = c.pos
  try {
    const field = fieldRef(c)
    delimiter(c)
    const expr = opExpr(c, logicValue)
    if (c.eof() || c.peek() === ',' || c.peek() === ')') return { kind: 'filter', filter: { field, expr } }
  } catch {
    // not a filter: read it as a nested and/or group below
  }
  c.pos = start
  const negated = c.take('not.')
  let operator: 'and' | 'or'
  if (c.take('and')) operator = 'and'
  else if (c.take('or')) operator = 'or'
  else return c.fail('field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)')
  return { kind: 'logic', negated, operator, children: group(c) }
}
