// `npm run db:diff -- <name> [--version <YYYYMMDDHHmmss>]`: the declarative-schema workflow's second
// step. Builds one database from supabase/migrations and one from supabase/schemas, asks pg-delta
// (bundled with the pinned Supabase CLI; runs without Docker) for the SQL that takes the first to the
// second, checks that this SQL really does (applied in a transaction that is rolled back, then the
// catalogs compared), and writes it as supabase/migrations/<version>_<name>.sql. The version
// defaults to now, or just after the newest migration when that is later.
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../stack/src/config.ts'
import { migrationFiles } from '../stack/src/db.ts'
import { type Catalog, readCatalog } from './db-schema/catalog.ts'
import { compareFacts, facts } from './db-schema/compare.ts'
import { buildSchemasDatabase, startWithMigrations, stop, withClient } from './db-schema/databases.ts'

/** The schemas our migrations touch; pg_cron's `cron` stays out (its jobs are data, in migrations). */
const DIFFED_SCHEMAS = 'public,internal,auth,storage'

function usage(message: string): never {
  console.error(`db:diff: ${message}\nUsage: npm run db:diff -- <name> [--version <YYYYMMDDHHmmss>]`)
  process.exit(2)
}

const args = process.argv.slice(2)
const name = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--version')
if (!name || !/^[a-z0-9_]+$/.test(name)) usage('give the migration a name in lowercase letters, digits and _')
const versionArg = args[args.indexOf('--version') + 1]
if (args.includes('--version') && !/^\d{14}$/.test(versionArg ?? '')) usage('--version takes 14 digits')

const stamp = (date: Date) => date.toISOString().replace(/\D/g, '').slice(0, 14)
function nextVersion(): string {
  const newest = migrationFiles().at(-1)?.version
  const now = stamp(new Date())
  if (!newest || now > newest) return now
  const [y, mo, d, h, mi, s] = (newest.match(/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/) ?? [])
    .slice(1)
    .map(Number)
  return stamp(new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, (s ?? 0) + 1)))
}
const version = versionArg ?? nextVersion()
const file = join(repoRoot, 'supabase', 'migrations', `${version}_${name}.sql`)
if (existsSync(file)) usage(`${file} exists`)

function pgDelta(from: string, to: string): string {
  const url = (u: string) => `${u}${u.includes('?') ? '&' : '?'}sslmode=disable`
  const result = spawnSync(
    join(repoRoot, 'node_modules', '.bin', 'supabase'),
    ['db', 'diff', '--use-pg-delta', '--from', url(from), '--to', url(to), '--schema', DIFFED_SCHEMAS],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  if (result.status !== 0) throw new Error(`pg-delta failed:\n${(result.stderr || result.stdout).trim()}`)
  // pg-delta prints its notices (boxed lines) on stdout before the SQL.
  const lines = result.stdout.split('\n')
  for (const notice of lines.filter((line) => /^[│▲●◇└┌]/.test(line) && /not manage|omitted/.test(line)))
    if (!/parameter ACL/.test(notice)) console.error(`db:diff: pg-delta: ${notice.replace(/^[│▲●\s]+/, '')}`)
  return lines
    .filter((line) => !/^[│▲●◇└┌]/.test(line))
    .join('\n')
    .trim()
}

/**
 * pg-delta lists a new table's columns (and the columns it adds to a table) by name; put them in
 * the schema file's order, which is the order the check compares.
 */
function inFileOrder(sql: string, wanted: Catalog): string {
  const order = (schema: string, table: string) =>
    wanted.relations.find((r) => r.schema === schema && r.name === table)?.columns.map((c) => c.name) ?? []
  const created = sql.replace(
    /^CREATE TABLE "([^"]+)"\."([^"]+)" \(\n([\s\S]*?)\n\);$/gm,
    (whole, schema: string, table: string, body: string) => {
      const lines = body.split('\n').map((line) => line.replace(/,$/, ''))
      const columns = order(schema, table)
      const position = (line: string) => columns.indexOf(/^\s+"([^"]+)"\s/.exec(line)?.[1] ?? '')
      if (lines.some((line) => !/^\s+(CONSTRAINT |"[^"]+"\s)/.test(line))) return whole
      const sorted = [...lines].sort((a, b) => {
        const [pa, pb] = [position(a), position(b)]
        return (pa < 0 ? 1e6 : pa) - (pb < 0 ? 1e6 : pb)
      })
      return `CREATE TABLE "${schema}"."${table}" (\n${sorted.join(',\n')}\n);`
    },
  )
  // Consecutive ADD COLUMN statements on one table, in the file's order.
  return created.replace(
    /(?:^ALTER TABLE "([^"]+)"\."([^"]+)" ADD COLUMN "[^"]+"[^\n]*;\n\n?)+/gm,
    (block, schema: string, table: string) => {
      const statements = block.trim().split(/\n\n?/)
      if (statements.some((s) => !s.startsWith(`ALTER TABLE "${schema}"."${table}" ADD COLUMN`))) return block
      const columns = order(schema, table)
      const column = (s: string) => columns.indexOf(/ADD COLUMN "([^"]+)"/.exec(s)?.[1] ?? '')
      return `${statements.sort((a, b) => column(a) - column(b)).join('\n\n')}\n\n`
    },
  )
}

const pair = await startWithMigrations('schemas')
try {
  await buildSchemasDatabase(pair)
  const wantedCatalog = await withClient(pair.schemasUrl, readCatalog)
  const sql = inFileOrder(pgDelta(pair.migrationsUrl, pair.schemasUrl), wantedCatalog)
  if (!/\b(create|alter|drop|grant|revoke|comment)\b/i.test(sql)) {
    console.log(
      'db:diff: supabase/schemas and supabase/migrations build the same database; nothing to write.',
    )
    process.exit(0)
  }
  const wanted = facts(wantedCatalog)
  const remaining = await withClient(pair.migrationsUrl, async (client) => {
    await client.query('begin')
    try {
      await client.query(sql)
      return compareFacts(wanted, facts(await readCatalog(client)), {
        wanted: 'schema files',
        actual: 'migrations',
      })
    } finally {
      await client.query('rollback')
    }
  })
  writeFileSync(
    file,
    `-- ${name.replaceAll('_', ' ')}: written by \`npm run db:diff\` (pg-delta) from supabase/schemas. Say here
-- what changed and why; grants pg-delta cannot express, cron jobs and data go below by hand.

${sql}\n`,
  )
  console.log(`db:diff: wrote ${file}`)
  if (remaining.length > 0) {
    console.error('db:diff: after this migration the databases still differ; add these by hand:')
    for (const d of remaining) console.error(`  ${d.object}: ${d.problem}`)
    process.exitCode = 1
  }
} finally {
  stop(pair)
}
