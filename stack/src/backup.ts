// `npm run db:backup [file]` / `npm run db:restore <file> [database]`: a pg_dump (custom format) of
// the local stack's database and its restore, as docs/reliability.md describes. Storage bytes live
// beside the database (.stack/<instance>/storage) and are copied with it. pg_cron can only live in
// the `postgres` database, so a restore into another (scratch) database leaves pg_cron out; a
// restore into a fresh `postgres` database of a new cluster keeps it.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type StackConfig, stackConfig } from './config.ts'
import { PG_BIN, StackError } from './system.ts'

function pg(config: StackConfig, tool: string, args: string[], input?: string) {
  const result = spawnSync(
    join(PG_BIN, tool),
    ['-h', config.host, '-p', String(config.ports.db), '-U', 'supabase_admin', ...args],
    {
      env: { ...process.env, PGPASSWORD: 'postgres' },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      input,
    },
  )
  if (result.status !== 0) throw new StackError(`${tool} failed: ${result.stderr || result.stdout}`)
  return result.stdout
}

/** Dumps the whole database (every schema: public, auth, storage, pgboss, internal, cron). */
export function dumpDatabase(config: StackConfig, file: string, snapshot?: string): void {
  pg(config, 'pg_dump', ['-Fc', '-f', file, ...(snapshot ? [`--snapshot=${snapshot}`] : []), 'postgres'])
}

/**
 * Restores a dump into `database` (created when missing). Into a database other than `postgres`,
 * pg_cron's extension and job table are left out: the extension refuses any other database.
 */
export function restoreDatabase(config: StackConfig, file: string, database: string): void {
  const exists = pg(config, 'psql', [
    '-Atc',
    `select 1 from pg_database where datname = '${database.replaceAll("'", "''")}'`,
    'postgres',
  ])
  if (exists.trim() !== '1') pg(config, 'createdb', ['--owner=postgres', database])
  const list = pg(config, 'pg_restore', ['-l', file])
  const keep =
    database === 'postgres'
      ? list
      : list
          .split('\n')
          .filter((line) => !/\bpg_cron\b|\bcron\b/.test(line))
          .join('\n')
  const listFile = `${file}.list`
  writeFileSync(listFile, keep)
  try {
    pg(config, 'pg_restore', [
      '--exit-on-error',
      '--single-transaction',
      '-L',
      listFile,
      '-d',
      database,
      file,
    ])
  } finally {
    rmSync(listFile, { force: true })
  }
}

async function main(): Promise<void> {
  const [command, fileArg, database] = process.argv.slice(2)
  const config = stackConfig()
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const file = resolve(fileArg ?? join(config.dir, `backup-${stamp}.dump`))
  if (command === 'backup') {
    dumpDatabase(config, file)
    const storage = join(config.dir, 'storage')
    if (existsSync(storage)) cpSync(storage, `${file}.storage`, { recursive: true })
    console.log(`[backup] ${file}${existsSync(storage) ? ` (+ storage in ${file}.storage)` : ''}`)
  } else if (command === 'restore' && fileArg) {
    restoreDatabase(config, file, database ?? 'reachflow_restored')
    console.log(`[backup] restored ${file} into database ${database ?? 'reachflow_restored'}`)
  } else {
    throw new StackError('Usage: tsx stack/src/backup.ts backup [file] | restore <file> [database]')
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
