// `npm run db:diff -- <name> [--version <YYYYMMDDHHmmss>]`: the declarative-schema workflow's second
// step. Builds one database from supabase/migrations and one from supabase/schemas, asks pg-delta
// (bundled with the pinned Supabase CLI; runs without Docker) for the SQL that takes the first to the
// second, checks that this SQL really does (applied in a transaction that is rolled back, then the
// catalogs compared), and writes it as supabase/migrations/<version>_<name>.sql. The version is
// the UTC time now, or one second after the newest migration when that is not earlier
// (`check:deploy` refuses a version later than the commit adding it).
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../stack/src/config.ts'
import { migrationFiles } from '../stack/src/db.ts'
import { buildSchemasDatabase, startWithMigrations, stop } from './db-schema/databases.ts'
import { migrationBetween } from './db-schema/diff.ts'
import { nextVersion, timeOfVersion } from './lib/migration-versions.ts'

function usage(message: string): never {
  console.error(`db:diff: ${message}\nUsage: npm run db:diff -- <name> [--version <YYYYMMDDHHmmss>]`)
  process.exit(2)
}

const args = process.argv.slice(2)
const name = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--version')
if (!name || !/^[a-z0-9_]+$/.test(name)) usage('give the migration a name in lowercase letters, digits and _')
const versionArg = args.includes('--version') ? args[args.indexOf('--version') + 1] : undefined
if (args.includes('--version') && !timeOfVersion(versionArg ?? ''))
  usage('--version takes a UTC time as 14 digits, YYYYMMDDHHMMSS')

const version = versionArg ?? nextVersion(migrationFiles().at(-1)?.version, new Date())
const file = join(repoRoot, 'supabase', 'migrations', `${version}_${name}.sql`)
if (existsSync(file)) usage(`${file} exists`)

const pair = await startWithMigrations('schemas')
try {
  await buildSchemasDatabase(pair)
  const { sql, notices, remaining } = await migrationBetween(pair.migrationsUrl, pair.schemasUrl)
  for (const notice of notices) console.error(`db:diff: pg-delta: ${notice}`)
  if (!sql) {
    console.log(
      'db:diff: supabase/schemas and supabase/migrations build the same database; nothing to write.',
    )
  } else {
    writeFileSync(
      file,
      `-- ${name.replaceAll('_', ' ')}: written by \`npm run db:diff\` (pg-delta) from supabase/schemas. Say here
-- what changed and why; grants pg-delta cannot express, cron jobs and data go below by hand.

${sql}\n`,
    )
    console.log(`db:diff: wrote ${file}`)
  }
  if (remaining.length > 0) {
    console.error('db:diff: after this migration the databases still differ; add these by hand:')
    for (const d of remaining) console.error(`  ${d.object}: ${d.problem}`)
    process.exitCode = 1
  }
} finally {
  stop(pair)
}
