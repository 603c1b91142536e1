// The two pieces of hosted Supabase's database that are C extensions Debian does not package:
// pg-safeupdate (the Data API's sessions refuse UPDATE/DELETE without WHERE) and supautils' policy
// grants (postgres manages the policies of Storage's and Auth's tables without owning them). Their
// local equivalents live in stack/platform/ext/*.c and are compiled here, once per source change,
// against postgresql-server-dev-15 (installed by ensureSystemPackages) into .stack/pglib, which
// every cluster of this checkout finds through dynamic_library_path. docs/decisions.md says why.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDir, repoRoot } from './config.ts'
import { StackError } from './system.ts'

const sourceDir = join(repoRoot, 'stack', 'platform', 'ext')
export const platformLibDir = join(repoRoot, '.stack', 'pglib')
export const PG_SERVER_INCLUDE = '/usr/include/postgresql/15/server'

/** gcc when the machine has it; otherwise the clang that postgresql-server-dev-15 depends on. */
function compiler(): string[] {
  if (existsSync('/usr/bin/gcc')) return ['/usr/bin/gcc']
  return ['/usr/bin/clang-14', '-Wno-ignored-attributes']
}

/** Builds every extension whose source changed since its last build; returns the library names. */
export function buildPlatformExtensions(): string[] {
  ensureDir(platformLibDir)
  chmodSync(platformLibDir, 0o755) // the postgres OS user loads from here
  const names: string[] = []
  for (const file of readdirSync(sourceDir).filter((f) => f.endsWith('.c'))) {
    const name = file.slice(0, -2)
    names.push(name)
    const source = readFileSync(join(sourceDir, file))
    const hash = createHash('sha256').update(source).digest('hex')
    const library = join(platformLibDir, `${name}.so`)
    const stamp = join(platformLibDir, `${name}.sha256`)
    if (existsSync(library) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) continue
    // Built beside the target and renamed into place: instances starting together never load half a file.
    const partial = `${library}.${process.pid}.tmp`
    const [cc = 'cc', ...flags] = compiler()
    const result = spawnSync(
      cc,
      [
        ...flags,
        '-O2',
        '-fPIC',
        '-shared',
        '-Wall',
        `-I${PG_SERVER_INCLUDE}`,
        '-o',
        partial,
        join(sourceDir, file),
      ],
      { encoding: 'utf8' },
    )
    if (result.status !== 0) {
      throw new StackError(
        `Compiling stack/platform/ext/${file} failed:\n${(result.stderr || result.stdout || String(result.error)).trim()}`,
      )
    }
    chmodSync(partial, 0o755)
    renameSync(partial, library)
    writeFileSync(stamp, hash)
  }
  return names
}
