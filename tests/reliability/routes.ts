// Every route a function registers, read from its `app.ts`, so a route added later is probed
// without editing this suite. Handles the two forms the routers use: `get('/path', handler)` and
// `for (const base of ['/a', '/b']) { get(`${base}/:id`, handler) }`.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Route {
  fn: string
  method: Method
  path: string
}

const functionsDir = fileURLToPath(new URL('../../supabase/functions', import.meta.url))
const METHODS: Record<string, Method> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  del: 'DELETE',
  delete: 'DELETE',
}

export function functionRoutes(fn: string): Route[] {
  const source = readFileSync(join(functionsDir, fn, 'app.ts'), 'utf8')
  const loops = [...source.matchAll(/for \(const (\w+) of \[([^\]]*)\]\)/g)].map((m) => ({
    at: m.index ?? 0,
    variable: m[1] ?? '',
    values: [...(m[2] ?? '').matchAll(/'([^']*)'/g)].map((v) => v[1] ?? ''),
  }))
  const routes: Route[] = []
  // A path is a quoted string, a template on a loop variable, or the loop variable itself.
  for (const m of source.matchAll(/\b(get|post|put|del|delete)\((?:(['`])([^'`]+)\2|(\w+))\s*,/g)) {
    const method = METHODS[m[1] ?? '']
    const raw = m[3] ?? (loops.some((l) => l.variable === m[4]) ? `\${${m[4]}}` : '')
    if (!method || (!raw.startsWith('/') && !raw.startsWith('${'))) continue
    const variable = raw.match(/^\$\{(\w+)\}/)?.[1]
    if (!variable) {
      routes.push({ fn, method, path: raw })
      continue
    }
    const loop = loops.filter((l) => l.at < (m.index ?? 0) && l.variable === variable).pop()
    for (const base of loop?.values ?? [])
      routes.push({ fn, method, path: raw.replace(`\${${variable}}`, base) })
  }
  return routes
}

/** Functions with a router (`app.ts`); a function without one is a single endpoint. */
export function functionNames(): string[] {
  return readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_') && !d.name.startsWith('.'))
    .map((d) => d.name)
}

export const hasRouter = (fn: string) => {
  try {
    readFileSync(join(functionsDir, fn, 'app.ts'))
    return true
  } catch {
    return false
  }
}

/** The path with each `:param` replaced by `value`. */
export const fill = (path: string, value: string) => path.replace(/:\w+/g, encodeURIComponent(value))
