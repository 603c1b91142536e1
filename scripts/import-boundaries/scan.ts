// Finds every import in the repository and resolves it to a repository path, as the tools that
// build each part would: relative paths, and the `paths` aliases of the nearest tsconfig.json (which
// web/vite.config.ts repeats for the bundle). Packages (`react`, `node:fs`, `npm:stripe@…`) are not
// files of ours and are skipped. oxc's parser reads the module record, so imports written inside
// strings or comments are never mistaken for real ones, and type-only imports count like any other
// (each import says whether it is one, for the one rule that allows them where values are not).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { parseSync } from 'oxc-parser'

export interface Import {
  /** The importing file, relative to the root. */
  file: string
  line: number
  specifier: string
  /** The imported path relative to the root (extension as written, or none). */
  target: string
  /** `import type` / `export type … from`: nothing of it is left at run time. */
  typeOnly: boolean
}

const SOURCE = /\.(ts|tsx|mts|js|jsx|mjs)$/
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report'])

/** Source files under `root`, relative and with forward slashes; git-ignored output folders skipped. */
export function sourceFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) walk(path)
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path)
    }
  }
  walk('')
  return files.sort()
}

type Aliases = { from: string; to: string; wildcard: boolean }[]

/** The `paths` of a tsconfig (following relative `extends`), as prefixes relative to the root. */
function aliasesOf(root: string, config: string): Aliases {
  const json = JSON.parse(readFileSync(join(root, config), 'utf8')) as {
    extends?: string
    compilerOptions?: { paths?: Record<string, string[]> }
  }
  const paths = json.compilerOptions?.paths
  if (!paths)
    return json.extends?.startsWith('.')
      ? aliasesOf(root, posix.join(posix.dirname(config), json.extends))
      : []
  return Object.entries(paths).flatMap(([pattern, [first]]) => {
    if (!first) return []
    const wildcard = pattern.endsWith('/*')
    const to = posix.join(posix.dirname(config), wildcard ? first.slice(0, -1) : first)
    return [{ from: wildcard ? pattern.slice(0, -1) : pattern, to, wildcard }]
  })
}

/** The aliases that apply to a file: those of the nearest tsconfig.json above it. */
function aliasResolver(root: string) {
  const byDir = new Map<string, Aliases>()
  const forDir = (dir: string): Aliases => {
    const known = byDir.get(dir)
    if (known) return known
    const config = posix.join(dir, 'tsconfig.json')
    const aliases = existsSync(join(root, config))
      ? aliasesOf(root, config)
      : dir === '.'
        ? []
        : forDir(posix.dirname(dir))
    byDir.set(dir, aliases)
    return aliases
  }
  return (file: string, specifier: string): string | null => {
    for (const alias of forDir(posix.dirname(file))) {
      if (alias.wildcard ? specifier.startsWith(alias.from) : specifier === alias.from)
        return alias.wildcard ? posix.join(alias.to, specifier.slice(alias.from.length)) : alias.to
    }
    return null
  }
}

/** A string literal's text, or null for a computed specifier (`import(\`./${name}\`)`). */
function literal(source: string): string | null {
  const match = /^(['"`])([^'"`]*)\1$/.exec(source)
  if (!match || (match[1] === '`' && match[2]?.includes('${'))) return null
  return match[2] ?? null
}

export interface Scan {
  imports: Import[]
  /** Imports of packages (`react`, `node:fs`, `npm:zod@…`): no file of ours. */
  packages: Omit<Import, 'target' | 'typeOnly'>[]
  /** Files the parser could not read: an unchecked file must not pass silently. */
  unreadable: { file: string; message: string }[]
}

export function scanImports(root: string, files = sourceFiles(root)): Scan {
  const aliasFor = aliasResolver(root)
  const scan: Scan = { imports: [], packages: [], unreadable: [] }
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8')
    const parsed = parseSync(file, source)
    if (parsed.errors.length > 0) {
      scan.unreadable.push({ file, message: parsed.errors[0]?.message ?? 'parse error' })
      continue
    }
    const { staticImports, staticExports, dynamicImports } = parsed.module
    const requests = [
      ...staticImports.map((i) => ({
        start: i.moduleRequest.start,
        specifier: i.moduleRequest.value,
        // A bare `import './x'` has no entries and runs the module, so it is not type-only.
        typeOnly: i.entries.length > 0 && i.entries.every((entry) => entry.isType),
      })),
      ...staticExports.flatMap((e) =>
        e.entries.flatMap((x) =>
          x.moduleRequest
            ? [{ start: x.moduleRequest.start, specifier: x.moduleRequest.value, typeOnly: x.isType }]
            : [],
        ),
      ),
      ...dynamicImports.map((d) => ({
        start: d.moduleRequest.start,
        specifier: literal(source.slice(d.moduleRequest.start, d.moduleRequest.end)),
        typeOnly: false,
      })),
    ]
    const seen = new Set<number>()
    for (const { start, specifier, typeOnly } of requests) {
      if (specifier === null || seen.has(start)) continue
      seen.add(start)
      const target = specifier.startsWith('.')
        ? posix.join(posix.dirname(file), specifier)
        : aliasFor(file, specifier)
      const line = source.slice(0, start).split('\n').length
      if (target === null) scan.packages.push({ file, line, specifier })
      else scan.imports.push({ file, line, specifier, target, typeOnly })
    }
  }
  return scan
}
