// Who may import whom (docs/architecture.md, "Import boundaries"). Each part of the product ships on
// its own: web is a static bundle, every edge function deploys from its own folder plus `_shared/`,
// the runner's image holds `runner/src` and `_shared/`, and `stack/` is the local stand-in for
// hosted Supabase that is never deployed. An import across those lines either breaks a deploy or
// ties two parts together that should change alone; inside web, features stay independent so one
// can change without reading the others (app → features → shared). Everything may import the domain
// package (`_shared/domain/`, `@reachflow/domain`), which imports nothing but itself. The schemas
// package (`_shared/schemas/`, `@reachflow/schemas`) imports only itself, the domain and zod. Web and
// the runner reach `_shared/` only by the package names scripts/aliases/list.ts gives them (web: the
// domain, the schemas and the database types, never server code such as the service-role
// clients.ts), and no relative path leaves a program's folder.
import { type Program, packagesFor } from '../aliases/list.ts'

export type Zone =
  | { kind: 'web-app' }
  | { kind: 'web-feature'; name: string }
  | { kind: 'web-shared' }
  | { kind: 'runner' }
  | { kind: 'function'; name: string }
  | { kind: 'functions-shared' }
  /** @reachflow/domain: supabase/functions/_shared/domain/, the dependency-free shared package. */
  | { kind: 'domain' }
  /** @reachflow/schemas: supabase/functions/_shared/schemas/, the domain's rules as zod schemas. */
  | { kind: 'schemas' }
  | { kind: 'stack' }
  /** Tests outside the product folders, scripts, build and tool config: they may import anything. */
  | { kind: 'tests-and-tools' }

export const DOMAIN_NAME = '@reachflow/domain'
export const DOMAIN_DIR = 'supabase/functions/_shared/domain'
export const SCHEMAS_NAME = '@reachflow/schemas'
export const SCHEMAS_DIR = 'supabase/functions/_shared/schemas'

/** The zone of a repository path (forward slashes, relative to the root). */
export function zoneOf(path: string): Zone {
  const feature = /^web\/src\/features\/([^/]+)\//.exec(path)
  if (feature?.[1]) return { kind: 'web-feature', name: feature[1] }
  // The entry points beside src/app (main.tsx, prerender.tsx) assemble the app, so they are the app.
  if (/^web\/src\/(app\/|[^/]+$)/.test(path)) return { kind: 'web-app' }
  if (path.startsWith('web/src/')) return { kind: 'web-shared' }
  if (path.startsWith('runner/src/')) return { kind: 'runner' }
  if (path.startsWith(`${DOMAIN_DIR}/`)) return { kind: 'domain' }
  if (path.startsWith(`${SCHEMAS_DIR}/`)) return { kind: 'schemas' }
  if (path.startsWith('supabase/functions/_shared/')) return { kind: 'functions-shared' }
  const fn = /^supabase\/functions\/([^/]+)\//.exec(path)
  if (fn?.[1]) return { kind: 'function', name: fn[1] }
  if (path.startsWith('stack/')) return { kind: 'stack' }
  return { kind: 'tests-and-tools' }
}

/** Whether a file in this zone can break a rule at all: tests, tools and the stack import freely. */
export const hasRules = (zone: Zone) => zone.kind !== 'stack' && zone.kind !== 'tests-and-tools'

/** `_shared/` as a whole: its server code and the two packages inside it. */
const isFunctionsShared = (zone: Zone) =>
  zone.kind === 'functions-shared' || zone.kind === 'domain' || zone.kind === 'schemas'

const isWeb = (zone: Zone) =>
  zone.kind === 'web-app' || zone.kind === 'web-feature' || zone.kind === 'web-shared'

/** The rule an import from `from` to `to` breaks, in words, or null when it is allowed. */
export function brokenRule(from: Zone, to: Zone): string | null {
  if (to.kind === 'stack' && from.kind !== 'stack' && from.kind !== 'tests-and-tools')
    return 'nothing but tests and scripts imports stack/ (the local stack is never deployed)'
  switch (from.kind) {
    case 'web-feature':
      if (to.kind === 'web-feature' && to.name !== from.name)
        return 'a feature does not import another feature (move the shared piece to src/lib or src/components, or compose both in src/app)'
      if (to.kind === 'web-app') return 'a feature does not import src/app (app → features → shared)'
      break
    case 'web-shared':
      if (to.kind === 'web-feature' || to.kind === 'web-app')
        return 'shared web code (src/components, src/lib, src/config, src/testing) does not import features or src/app'
      break
    case 'runner':
      if (to.kind !== 'runner' && !isFunctionsShared(to))
        return 'the runner imports only runner/src and supabase/functions/_shared (what its image holds)'
      return null
    case 'function':
      if (to.kind === 'function' && to.name !== from.name)
        return 'a function does not import another function (each deploys alone; share through _shared)'
      if (to.kind !== 'function' && !isFunctionsShared(to))
        return 'a function imports only its own folder and supabase/functions/_shared (what its deploy bundles)'
      return null
    case 'functions-shared':
      if (!isFunctionsShared(to))
        return 'supabase/functions/_shared imports only _shared (every function, web and the runner import it)'
      return null
    case 'domain':
      if (to.kind !== 'domain') return DOMAIN_ALONE
      return null
    case 'schemas':
      if (to.kind !== 'schemas' && to.kind !== 'domain') return SCHEMAS_ALONE
      return null
    default:
      return null
  }
  if (!isWeb(to) && !isFunctionsShared(to)) return WEB_ONLY
  return null
}

const namesFor = (program: Program) => packagesFor(program).map((p) => p.name)
const listed = (names: string[]) => `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
const WEB_ONLY = `the web app imports only web/src, ${listed(namesFor('web'))}`
const RUNNER_SHARED = `the runner imports supabase/functions/_shared only by the names scripts/aliases/list.ts gives it (${namesFor('runner').join(', ')})`

const withoutExtension = (path: string) => path.replace(/\.tsx?$/, '')

const programOf = (zone: Zone): Program | null =>
  isWeb(zone) ? 'web' : zone.kind === 'runner' ? 'runner' : null

/**
 * The rule that depends on how web or the runner writes an import of `supabase/functions/`: only by
 * a package name listed for it. With brokenRule (nothing outside its own folder but `_shared/`), no
 * relative path leaves web or the runner, and a function's reach only its folder and `_shared/`.
 */
export function brokenProgramImport(file: string, specifier: string, target: string): string | null {
  const program = programOf(zoneOf(file))
  if (!program || !target.startsWith('supabase/functions/')) return null
  const listed = packagesFor(program).some(
    (p) => p.name === specifier && withoutExtension(p.entry) === withoutExtension(target),
  )
  if (listed) return null
  return program === 'web'
    ? `${WEB_ONLY} (the rest of supabase/functions/_shared is server code: keys, the service role)`
    : RUNNER_SHARED
}

const DOMAIN_ALONE = `${DOMAIN_NAME} imports only its own files (dependency-free, so Deno, Node and the browser run it as it is), and the database's types with \`import type\``

/** The one file outside it the domain may name, for types only: the database's rows (docs/decisions.md). */
export const DOMAIN_TYPES_FROM = 'supabase/functions/_shared/database.ts'

/** Whether this import is the domain naming database rows: erased at build, so it stays dependency-free. */
export const isDomainTypeImport = (file: string, target: string, typeOnly: boolean) =>
  typeOnly &&
  zoneOf(file).kind === 'domain' &&
  withoutExtension(target) === withoutExtension(DOMAIN_TYPES_FROM)

/** The one package the schemas may import, by the bare name every runtime maps (list.ts). */
const SCHEMAS_PACKAGE = 'zod'
const SCHEMAS_ALONE = `${SCHEMAS_NAME} imports only its own files, ${DOMAIN_NAME} and '${SCHEMAS_PACKAGE}' (web bundles it: no server code)`

/**
 * The rules of the domain and schemas packages that depend on how an import is written: the
 * domain's own source files import no package at all (`npm:`, `node:`, `jsr:`, bare names; its tests
 * may use `node:assert`), the schemas' only `zod`, and every other file imports each by its one
 * name, never by a path into it, so each runtime's alias is the only way in. `target` is null for a
 * package.
 */
export function brokenPackageImport(file: string, specifier: string, target: string | null): string | null {
  const from = zoneOf(file).kind
  const isTest = /\.test\.tsx?$/.test(file)
  if (target === null) {
    if (from === 'domain' && !isTest) return `${DOMAIN_ALONE}; '${specifier}' is not one of its files`
    if (from === 'schemas' && !isTest && specifier !== SCHEMAS_PACKAGE)
      return `${SCHEMAS_ALONE}; '${specifier}' is not one of them`
    return null
  }
  const to = zoneOf(target).kind
  if (from !== 'domain' && to === 'domain' && specifier !== DOMAIN_NAME)
    return `import the domain package by its name, '${DOMAIN_NAME}', not by a path into it`
  if (from !== 'schemas' && to === 'schemas' && specifier !== SCHEMAS_NAME)
    return `import the schemas package by its name, '${SCHEMAS_NAME}', not by a path into it`
  return null
}
