// The one list of names by which a program imports code that lives in another program's folder.
// tsconfig.json, web/tsconfig.json and the deno.json import maps are written from it by
// `tsx scripts/aliases/generate.ts` (lint fails when they differ), web/vite.config.ts and
// vitest.config.ts read it directly, and the import rules (scripts/import-boundaries) allow each
// program exactly the names listed for it. A relative path never leaves a program.

/** A program as the tools see it: its own folder, its own config. */
export type Program = 'web' | 'runner' | 'functions'

export interface SharedPackage {
  /** The import specifier. */
  name: string
  /** The entry file, relative to the repository root. */
  entry: string
  /** The programs that may import it (stack, scripts and tests may import every one). */
  for: readonly Program[]
}

export const SHARED_PACKAGES: readonly SharedPackage[] = [
  {
    name: '@reachflow/domain',
    entry: 'supabase/functions/_shared/domain/index.ts',
    for: ['web', 'runner', 'functions'],
  },
  // Zod schemas web and the functions both validate with; imports only the domain and zod.
  {
    name: '@reachflow/schemas',
    entry: 'supabase/functions/_shared/schemas/index.ts',
    for: ['web', 'functions'],
  },
  // The generated database types plus what the generator cannot know; types only.
  { name: '@reachflow/db', entry: 'supabase/functions/_shared/database.ts', for: ['web', 'runner'] },
  // Server code the runner shares with the functions; never the browser (keys, service role).
  { name: '@reachflow/ai', entry: 'supabase/functions/_shared/ai.ts', for: ['runner'] },
  { name: '@reachflow/instagram-api', entry: 'supabase/functions/_shared/instagram-api.ts', for: ['runner'] },
  { name: '@reachflow/x-verify', entry: 'supabase/functions/_shared/x-verify.ts', for: ['runner'] },
]

/**
 * npm packages that shared code imports by their bare name, as Node, Vite and tsc resolve it from
 * node_modules. Deno's import maps pin each to the `npm:` specifier the functions use (deploy bundles
 * no node_modules); the version is package.json's.
 */
export const DENO_NPM_IMPORTS: Readonly<Record<string, string>> = { zod: 'npm:zod@4.6.7' }

/** The packages a program may import. */
export const packagesFor = (program: Program) => SHARED_PACKAGES.filter((p) => p.for.includes(program))
