// Who may import whom (docs/architecture.md, "Import boundaries"). Each part of the product ships on
// its own: web is a static bundle, every edge function deploys from its own folder plus `_shared/`,
// the runner's image holds `runner/src` and `_shared/`, and `stack/` is the local stand-in for
// hosted Supabase that is never deployed. An import across those lines either breaks a deploy or
// ties two parts together that should change alone; inside web, features stay independent so one
// can change without reading the others (app → features → shared).

export type Zone =
  | { kind: 'web-app' }
  | { kind: 'web-feature'; name: string }
  | { kind: 'web-shared' }
  | { kind: 'runner' }
  | { kind: 'function'; name: string }
  | { kind: 'functions-shared' }
  | { kind: 'stack' }
  /** Tests outside the product folders, scripts, build and tool config: they may import anything. */
  | { kind: 'tests-and-tools' }

/** The zone of a repository path (forward slashes, relative to the root). */
export function zoneOf(path: string): Zone {
  const feature = /^web\/src\/features\/([^/]+)\//.exec(path)
  if (feature?.[1]) return { kind: 'web-feature', name: feature[1] }
  // The entry points beside src/app (main.tsx, prerender.tsx) assemble the app, so they are the app.
  if (/^web\/src\/(app\/|[^/]+$)/.test(path)) return { kind: 'web-app' }
  if (path.startsWith('web/src/')) return { kind: 'web-shared' }
  if (path.startsWith('runner/src/')) return { kind: 'runner' }
  if (path.startsWith('supabase/functions/_shared/')) return { kind: 'functions-shared' }
  const fn = /^supabase\/functions\/([^/]+)\//.exec(path)
  if (fn?.[1]) return { kind: 'function', name: fn[1] }
  if (path.startsWith('stack/')) return { kind: 'stack' }
  return { kind: 'tests-and-tools' }
}

/** Whether a file in this zone can break a rule at all: tests, tools and the stack import freely. */
export const hasRules = (zone: Zone) => zone.kind !== 'stack' && zone.kind !== 'tests-and-tools'

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
      if (to.kind !== 'runner' && to.kind !== 'functions-shared')
        return 'the runner imports only runner/src and supabase/functions/_shared (what its image holds)'
      return null
    case 'function':
      if (to.kind === 'function' && to.name !== from.name)
        return 'a function does not import another function (each deploys alone; share through _shared)'
      if (to.kind !== 'function' && to.kind !== 'functions-shared')
        return 'a function imports only its own folder and supabase/functions/_shared (what its deploy bundles)'
      return null
    case 'functions-shared':
      if (to.kind !== 'functions-shared')
        return 'supabase/functions/_shared imports only _shared (every function, web and the runner import it)'
      return null
    default:
      return null
  }
  if (!isWeb(to) && to.kind !== 'functions-shared')
    return 'the web app imports only web/src and supabase/functions/_shared'
  return null
}
