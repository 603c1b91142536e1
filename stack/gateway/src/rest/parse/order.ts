// `order=a.desc.nullslast,b,rel(col).asc`.
import { Cursor, fieldName, fieldRef } from './cursor.ts'
import type { OrderTerm } from './types.ts'

export function parseOrder(input: string): OrderTerm[] {
  const c = new Cursor(input, 'order')
  const terms: OrderTerm[] = []
  for (;;) {
    terms.push(term(c))
    if (!c.take(',')) break
  }
  if (!c.eof()) c.fail('"," or end of input')
  return terms
}

function term(c: Cursor): OrderTerm {
  c.skipSpaces()
  const start = c.pos
  let relation: string | undefined
  try {
    const name = fieldName(c)
    if (c.take('(')) {
      relation = name
    } else {
      c.pos = start
    }
  } catch {
    c.pos = start
  }
  const field = fieldRef(c)
  if (relation !== undefined) c.expect(')')
  const result: OrderTerm = { field, ...(relation !== undefined && { relation }) }
  if (c.take('.asc')) result.direction = 'asc'
  else if (c.take('.desc')) result.direction = 'desc'
  if (c.take('.nullsfirst')) result.nulls = 'first'
  else if (c.take('.nullslast')) result.nulls = 'last'
  c.skipSpaces()
  if (!c.eof() && c.peek() !== ',') c.fail('"asc", "desc", "nullsfirst" or "nullslast"')
  return result
}
