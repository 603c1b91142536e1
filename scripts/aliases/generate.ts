// Writes the alias maps that cannot read scripts/aliases/list.ts themselves: the `paths` of
// tsconfig.json (stack, runner, scripts, tests: every package) and web/tsconfig.json (web's), and
// the `imports` of the root deno.json and of every function's deno.json (what deploy reads), which
// also pin the npm packages shared code imports by bare name.
// `--check` (run by `npm run lint`) writes nothing and lists every map that differs from the list.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DENO_NPM_IMPORTS, packagesFor, SHARED_PACKAGES, type SharedPackage } from './list.ts'

type Json = { [key: string]: unknown }

/** One config file and the map it must hold, relative to the config's own folder. */
interface AliasMap {
  file: string
  /** Where in the JSON the map sits. */
  key: 'compilerOptions.paths' | 'imports'
  /** Entries of the map this list does not own (web's `@/*`), kept first. */
  own?: Record<string, unknown>
  packages: readonly SharedPackage[]
}

const relativeTo = (configDir: string, entry: string) => {
  const path = posix.relative(configDir, entry)
  return path.startsWith('.') ? path : `./${path}`
}

/** Every alias map of the repository rooted at `root`. */
export function aliasMaps(root: string): AliasMap[] {
  const functionsDir = join(root, 'supabase/functions')
  const functions = existsSync(functionsDir)
    ? readdirSync(functionsDir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('_') && !e.name.startsWith('.'))
        .map((e) => e.name)
        .sort()
    : []
  return [
    { file: 'tsconfig.json', key: 'compilerOptions.paths', packages: SHARED_PACKAGES },
    {
      file: 'web/tsconfig.json',
      key: 'compilerOptions.paths',
      own: { '@/*': ['./src/*'] },
      packages: packagesFor('web'),
    },
    { file: 'deno.json', key: 'imports', packages: packagesFor('functions') },
    ...functions.map(
      (name): AliasMap => ({
        file: `supabase/functions/${name}/deno.json`,
        key: 'imports',
        packages: packagesFor('functions'),
      }),
    ),
  ]
}

/** The map's content as the list says it must be. */
function expected(map: AliasMap): Record<string, unknown> {
  const dir = posix.dirname(map.file)
  const entries = map.packages.map((p) => {
    const path = relativeTo(dir, p.entry)
    return [p.name, map.key === 'imports' ? path : [path]] as const
  })
  const npm = map.key === 'imports' ? DENO_NPM_IMPORTS : {}
  return { ...map.own, ...Object.fromEntries(entries), ...npm }
}

function holder(json: Json, key: AliasMap['key']): Json {
  if (key === 'imports') return json
  json.compilerOptions ??= {}
  return json.compilerOptions as Json
}

const leaf = (key: AliasMap['key']) => (key === 'imports' ? 'imports' : 'paths')

/** The maps that differ from the list, one line each; empty when all agree. */
export function checkAliases(root: string): string[] {
  return aliasMaps(root).flatMap((map) => {
    const path = join(root, map.file)
    if (!existsSync(path))
      return [`${map.file}: missing (it must hold the aliases of scripts/aliases/list.ts)`]
    const json = JSON.parse(readFileSync(path, 'utf8')) as Json
    const actual = holder(json, map.key)[leaf(map.key)]
    return JSON.stringify(actual) === JSON.stringify(expected(map))
      ? []
      : [
          `${map.file}: ${map.key} differs from scripts/aliases/list.ts (run: npx tsx scripts/aliases/generate.ts)`,
        ]
  })
}

/** Rewrites every map from the list; returns the files written. */
export function writeAliases(root: string): string[] {
  return aliasMaps(root).map((map) => {
    const path = join(root, map.file)
    const json = (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {}) as Json
    holder(json, map.key)[leaf(map.key)] = expected(map)
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`)
    return map.file
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  if (process.argv.includes('--check')) {
    const problems = checkAliases(root)
    for (const problem of problems) console.error(problem)
    if (problems.length > 0) process.exit(1)
    console.log('aliases: ok')
  } else {
    const files = writeAliases(root)
    // Biome keeps the repository's JSON layout; the check above compares values, not text.
    execFileSync('npx', ['biome', 'format', '--write', ...files], { cwd: root, stdio: 'ignore' })
    for (const file of files) console.log(`wrote ${file}`)
  }
}
