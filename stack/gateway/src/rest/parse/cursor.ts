// A small scanner shared by the query-string parsers, with PostgREST-style parse errors (PGRST100).
import { parseError } from '../errors.ts'
import type { FieldRef, JsonStep } from './types.ts'

const IDENTIFIER_CHAR = /[\p{L}\p{N}_ $]/u
const JSON_KEY_STOP = new Set(['(', '-', ':', '.', ',', '>', ')'])

export class Cursor {
  pos = 0
  constructor(
    readonly input: string,
    readonly what: string,
  ) {}

  get rest(): string {
    return this.input.slice(this.pos)
  }
  eof(): boolean {
    return this.pos >= this.input.length
  }
  peek(offset = 0): string {
    return this.input.charAt(this.pos + offset)
  }
  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos)
  }
  /** Consumes `text` if it comes next. */
  take(text: string): boolean {
    if (!this.startsWith(text)) return false
    this.pos += text.length
    return true
  }
  expect(text: string, expecting = `"${text}"`): void {
    if (!this.take(text)) this.fail(expecting)
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++
  }
  fail(expecting: string): never {
    const found = this.eof() ? 'end of input' : `"${this.peek()}"`
    throw parseError(this.what, this.input, this.pos + 1, `unexpected ${found} expecting ${expecting}`)
  }
}

/** `"quoted \" value"` → its text, backslash escaping any character. */
export function quotedValue(c: Cursor): string | undefined {
  if (c.peek() !== '"') return undefined
  c.pos++
  let out = ''
  while (!c.eof() && c.peek() !== '"') {
    if (c.peek() === '\\') c.pos++
    if (c.eof()) break
    out += c.peek()
    c.pos++
  }
  if (!c.take('"')) c.fail('"\\""')
  return out
}

/** Runs of `charOk` separated by single dashes that are not the start of `->`. */
function dashSeparated(c: Cursor, charOk: (ch: string) => boolean): string {
  let out = ''
  for (;;) {
    const start = c.pos
    while (!c.eof() && charOk(c.peek())) c.pos++
    if (c.pos === start) break
    out += c.input.slice(start, c.pos)
    if (c.peek() === '-' && c.peek(1) !== '>' && charOk(c.peek(1))) {
      out += '-'
      c.pos++
      continue
    }
    break
  }
  return out
}

/** A column, table or alias name: quoted, or letters, digits, `_`, `$`, spaces and inner dashes. */
export function fieldName(c: Cursor): string {
  const quoted = quotedValue(c)
  if (quoted !== undefined) return quoted
  const name = dashSeparated(c, (ch) => IDENTIFIER_CHAR.test(ch)).trim()
  if (!name) c.fail('field name (* or [a..z0..9_$])')
  return name
}

function atJsonIndexEnd(c: Cursor): boolean {
  return c.eof() || ['->', '::', '.', ',', ')'].some((end) => c.startsWith(end))
}

export function jsonPath(c: Cursor): JsonStep[] {
  const steps: JsonStep[] = []
  for (;;) {
    let arrow: '->' | '->>'
    if (c.take('->>')) arrow = '->>'
    else if (c.take('->')) arrow = '->'
    else return steps
    const start = c.pos
    const index = /^-?\d+/.exec(c.rest)
    if (index) {
      c.pos += index[0].length
      if (atJsonIndexEnd(c)) {
        steps.push({ arrow, key: index[0], index: true })
        continue
      }
      c.pos = start
    }
    const quoted = quotedValue(c)
    const key = quoted ?? dashSeparated(c, (ch) => !JSON_KEY_STOP.has(ch)).trim()
    if (!key) c.fail('any non reserved character different from: .,>()')
    steps.push({ arrow, key, index: false })
  }
}

export function fieldRef(c: Cursor): FieldRef {
  c.skipSpaces()
  const name = fieldName(c)
  const path = jsonPath(c)
  c.skipSpaces()
  return { name, path }
}

/** A type name for casts: letters, digits, `_`, `$` and spaces (`double precision`). */
export function typeIdentifier(c: Cursor): string {
  const start = c.pos
  while (!c.eof() && IDENTIFIER_CHAR.test(c.peek())) c.pos++
  const name = c.input.slice(start, c.pos).trim()
  if (!name) c.fail('letter or digit')
  return name
}
