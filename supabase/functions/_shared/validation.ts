// Reading and validating request input with zod 4. Bodies are capped in size and must be JSON;
// schema failures become one clear 400 message (the schema's own text when it sets one, as the
// product's exact error texts do; otherwise "<field> must be …"), with every issue listed beside it.
import { z } from 'npm:zod@4.6.7'
import { badRequest, notFound, payloadTooLarge } from './errors.ts'

export { z }

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

export interface BodyOptions {
  maxBytes?: number
}

function tooLarge(maxBytes: number) {
  return payloadTooLarge(`Request body is too large (limit ${Math.round(maxBytes / 1024)} KB)`)
}

/** The raw body as text, refusing more than `maxBytes` without reading it all. */
export async function readText(
  req: Request,
  { maxBytes = DEFAULT_MAX_BODY_BYTES }: BodyOptions = {},
): Promise<string> {
  const declared = Number(req.headers.get('Content-Length') ?? '')
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes)
  if (!req.body) return ''
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw badRequest('Request body must be UTF-8 text')
  }
}

/** The body parsed as JSON; 400 when empty or malformed, 413 when too large. */
export async function readJson(req: Request, options: BodyOptions = {}): Promise<unknown> {
  const text = await readText(req, options)
  if (!text.trim()) throw badRequest('Request body is required')
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('Request body must be valid JSON')
  }
}

// Marks messages zod wrote itself, so they can be rewritten with the field name; messages a
// schema sets (`z.string().min(1, 'Please fill in campaign details')`) are kept verbatim.
const DEFAULT_MESSAGE = '\u0000default'

/** `authData.cookies`, `sequences[0].message`: a path as a person reads it. */
export function fieldName(path: ReadonlyArray<PropertyKey>): string {
  let name = ''
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`
    else name += name ? `.${String(part)}` : String(part)
  }
  return name
}

const FORMAT_NAMES: Record<string, string> = {
  email: 'email address',
  url: 'URL',
  uuid: 'UUID',
  datetime: 'date and time',
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path) || 'Request body'
  const missing = issue.path.length > 0 && 'input' in issue && issue.input === undefined
  if (
    missing &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')
  ) {
    return `${field} is required`
  }
  switch (issue.code) {
    case 'invalid_type':
      return `${field} must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`
    case 'too_small': {
      const bound = issue.inclusive ? 'at least' : 'more than'
      if (issue.origin === 'string')
        return Number(issue.minimum) === 1
          ? `${field} must not be empty`
          : `${field} must be ${bound} ${issue.minimum} characters`
      if (issue.origin === 'array')
        return `${field} must have ${bound} ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`
      return `${field} must be ${bound} ${issue.minimum}`
    }
    case 'too_big': {
      const bound = issue.inclusive ? 'at most' : 'less than'
      if (issue.origin === 'string') return `${field} must be ${bound} ${issue.maximum} characters`
      if (issue.origin === 'array') return `${field} must have ${bound} ${issue.maximum} items`
      return `${field} must be ${bound} ${issue.maximum}`
    }
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}`
    case 'invalid_format':
      return `${field} must be a valid ${FORMAT_NAMES[issue.format] ?? issue.format}`
    case 'unrecognized_keys': {
      const keys = issue.keys.map((key) => fieldName([...issue.path, key]))
      return `Unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`
    }
    case 'not_multiple_of':
      return `${field} must be a multiple of ${issue.divisor}`
    default:
      return `${field} is invalid`
  }
}

export interface ValidationIssue {
  path: string
  message: string
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: fieldName(issue.path),
    message: issue.message === DEFAULT_MESSAGE ? describeIssue(issue) : issue.message,
  }))
}

/**
 * Where a string holding U+0000 sits in the input, if anywhere. Postgres text cannot store NUL, so
 * such a value would otherwise fail deep in the database as a 500 (a fuzzed `?status=%00` did).
 */
function pathWithNul(value: unknown, path: PropertyKey[]): PropertyKey[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathWithNul(value[i], [...path, i])
      if (found) return found
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key]
      const found = pathWithNul(item, [...path, key])
      if (found) return found
    }
  }
  return undefined
}

/** The parsed value, or a 400 `{error: <first problem>, issues: [...]}`. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nul = pathWithNul(input, [])
  if (nul) throw badRequest(`${fieldName(nul) || 'Input'} must not contain NUL characters`)
  // reportInput keeps each issue's input, which tells a missing field from a wrong one.
  const result = schema.safeParse(input, { error: () => DEFAULT_MESSAGE, reportInput: true })
  if (result.success) return result.data
  const issues = describeIssues(result.error.issues)
  throw badRequest(issues[0]?.message ?? 'Invalid request', { issues })
}

export async function parseBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  options: BodyOptions = {},
): Promise<z.output<S>> {
  return parseWith(schema, await readJson(req, options))
}

/** Query parameters as an object of strings (repeated keys keep the last), then validated. */
export function parseQuery<S extends z.ZodType>(url: URL, schema: S): z.output<S> {
  return parseWith(schema, Object.fromEntries(url.searchParams))
}

/** A path id that must be a UUID: anything else names no row, so it is a 404, not a 400. */
export function parseId(value: string | undefined, notFoundMessage = 'Not found'): string {
  if (!value || !z.uuid().safeParse(value).success) throw notFound(notFoundMessage)
  return value.toLowerCase()
}
