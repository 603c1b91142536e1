// Stripe's v1 API takes application/x-www-form-urlencoded bodies (and query strings) with nested keys:
// `line_items[0][price_data][currency]=usd`, `metadata[plan]=growth`, `expand[]=customer`.
// This turns such a body into plain objects and arrays, as Stripe's own parser does.

export type FormValue = string | FormObject | FormValue[]
export interface FormObject {
  [key: string]: FormValue
}

export class FormParseError extends Error {
  override name = 'FormParseError'
}

/** Splits `a[b][0][]` into ['a', 'b', '0', '']. */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key)
  if (!match?.[1]) throw new FormParseError(`Invalid parameter name: ${key}`)
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')
  return [match[1], ...rest]
}

const isIndex = (segment: string) => segment === '' || /^\d+$/.test(segment)

function setPath(target: FormObject | FormValue[], path: string[], value: string, fullKey: string): void {
  const [head, ...rest] = path
  if (head === undefined) return
  if (Array.isArray(target)) {
    if (!isIndex(head)) throw new FormParseError(`Invalid array index in ${fullKey}`)
    const index = head === '' ? target.length : Number(head)
    if (index > 10_000) throw new FormParseError(`Array index too large in ${fullKey}`)
    if (rest.length === 0) {
      target[index] = value
      return
    }
    const next = target[index] ?? (isIndex(rest[0] ?? '') ? [] : {})
    if (typeof next === 'string') throw new FormParseError(`Conflicting values for ${fullKey}`)
    target[index] = next
    setPath(next, rest, value, fullKey)
    return
  }
  if (head === '__proto__' || head === 'constructor' || head === 'prototype') {
    throw new FormParseError(`Invalid parameter name: ${fullKey}`)
  }
  if (rest.length === 0) {
    target[head] = value
    return
  }
  const existing = Object.hasOwn(target, head) ? target[head] : undefined
  const next = existing ?? (isIndex(rest[0] ?? '') ? [] : {})
  if (typeof next === 'string') throw new FormParseError(`Conflicting values for ${fullKey}`)
  target[head] = next
  setPath(next, rest, value, fullKey)
}

/** Removes holes left by sparse indices (`a[0]`, `a[2]`) so arrays stay dense, as Stripe requires. */
function compact(value: FormValue): FormValue {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact)
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]))
}

/** Parses a form-encoded string (a request body or a URL's query without `?`). */
export function parseForm(encoded: string): FormObject {
  const root: FormObject = {}
  if (!encoded) return root
  for (const [key, value] of new URLSearchParams(encoded)) {
    setPath(root, keyPath(key), value, key)
  }
  return compact(root) as FormObject
}
