// The local database: a PostgreSQL 15 cluster under .stack/<instance>/db with pg_cron preloaded,
// the Supabase platform layer, then the project's migrations and seed, as `supabase db reset` does.
// Shaped like hosted Supabase (docs/database.md "Hosted shape"): `supabase_admin` is the bootstrap
// superuser and applies the platform layer; migrations and the seed run as the non-superuser
// `postgres`, one transaction per file, as `supabase db push` does.
import { createHash } from 'node:crypto'
import { chownSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { DB_PASSWORD, ensureDir, RUNNER_DB_PASSWORD, repoRoot, type StackConfig } from './config.ts'
import { buildPlatformExtensions, platformLibDir } from './platform-ext.ts'
import { isRoot, PG_BIN, runAsPostgres, StackError, sleep } from './system.ts'

const platformDir = join(repoRoot, 'stack', 'platform')
const migrationsDir = join(repoRoot, 'supabase', 'migrations')
const seedFile = join(repoRoot, 'supabase', 'seed.sql')

function postgresUid(): { uid: number; gid: number } {
  const passwd = readFileSync('/etc/passwd', 'utf8')
  const line = passwd.split('\n').find((entry) => entry.startsWith('postgres:'))
  if (!line)
    throw new StackError(
      'The postgres OS user is missing. Reinstall the package: apt-get install -y postgresql-15',
    )
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}

export function clusterExists(config: StackConfig): boolean {
  return existsSync(join(config.dataDir, 'PG_VERSION'))
}

export function initCluster(config: StackConfig): void {
  if (clusterExists(config)) return
  ensureDir(config.dataDir)
  if (isRoot()) {
    const { uid, gid } = postgresUid()
    chownSync(config.dataDir, uid, gid)
  }
  const pwfile = join(config.dataDir, '..', 'pwfile')
  writeFileSync(pwfile, `${DB_PASSWORD}\n`, { mode: 0o644 })
  try {
    runAsPostgres(`${PG_BIN}/initdb`, [
      '-D',
      config.dataDir,
      '-U',
      'supabase_admin',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ])
  } finally {
    rmSync(pwfile, { force: true })
  }
}

/** The policy grants hosted's supautils gives postgres, for the tables the local platform layer has. */
const POLICY_GRANT_TABLES = [
  'auth.audit_log_entries',
  'auth.identities',
  'auth.refresh_tokens',
  'auth.sessions',
  'auth.users',
  'storage.buckets',
  'storage.objects',
]

const SETTINGS_MARK = '# Written by stack/src/db.ts'

function clusterSettings(config: StackConfig): string {
  const fastTests = config.instance === 'dev' ? '' : '\nfsync = off\nfull_page_writes = off\n'
  return `${SETTINGS_MARK}
listen_addresses = '127.0.0.1'
port = ${config.ports.db}
unix_socket_directories = ''
max_connections = 300
shared_buffers = 256MB
# Hosted preloads pg_stat_statements, which turns query ids on (EXPLAIN VERBOSE shows them).
compute_query_id = on
# policy_grants and safeupdate are compiled into this checkout's .stack/pglib (stack/src/platform-ext.ts).
dynamic_library_path = '$libdir:${platformLibDir}'
shared_preload_libraries = 'pg_cron, policy_grants'
policy_grants.role = 'postgres'
policy_grants.tables = '${POLICY_GRANT_TABLES.join(', ')}'
cron.database_name = 'postgres'
cron.timezone = 'UTC'
# pg_cron runs jobs in background workers: no unix socket and no password for it to connect with.
cron.use_background_workers = on
max_worker_processes = 16
synchronous_commit = off
log_min_messages = warning
log_line_prefix = '%m [%p] %u@%d '
${fastTests}`
}

/**
 * Writes the stack's settings at the end of postgresql.auto.conf (replacing an older version of
 * them, so clusters made before a settings change get it on their next start); true when changed.
 */
function writeClusterSettings(config: StackConfig): boolean {
  const confPath = join(config.dataDir, 'postgresql.auto.conf')
  const current = readFileSync(confPath, 'utf8')
  const mark = current.indexOf(SETTINGS_MARK)
  const base = mark < 0 ? current : current.slice(0, mark)
  const next = `${base.endsWith('\n') ? base : `${base}\n`}${clusterSettings(config)}`
  if (next === current) return false
  writeFileSync(confPath, next)
  return true
}

export function dbIsRunning(config: StackConfig): boolean {
  if (!clusterExists(config)) return false
  return runAsPostgres(`${PG_BIN}/pg_ctl`, ['-D', config.dataDir, 'status'], { quiet: true }).status === 0
}

export async function startDb(config: StackConfig): Promise<void> {
  buildPlatformExtensions()
  const changed = writeClusterSettings(config)
  if (dbIsRunning(config)) {
    if (!changed) return
    // Preloaded libraries are read at server start only.
    stopDb(config)
  }
  const logFile = join(config.dataDir, 'server.log')
  const result = runAsPostgres(
    `${PG_BIN}/pg_ctl`,
    ['-D', config.dataDir, '-l', logFile, '-w', '-t', '60', 'start'],
    {
      quiet: true,
    },
  )
  if (result.status !== 0) {
    const tail = existsSync(logFile)
      ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n')
      : ''
    throw new StackError(`PostgreSQL did not start on port ${config.ports.db}. Its log says:\n${tail}`)
  }
  await waitForDb(config)
}

export function stopDb(config: StackConfig): void {
  if (!dbIsRunning(config)) return
  runAsPostgres(`${PG_BIN}/pg_ctl`, ['-D', config.dataDir, '-m', 'fast', '-w', 'stop'], { quiet: true })
}

async function waitForDb(config: StackConfig): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const client = new pg.Client({ connectionString: config.adminDbUrl })
    try {
      await client.connect()
      await client.end()
      return
    } catch {
      await client.end().catch(() => {})
      await sleep(100)
    }
  }
  throw new StackError(`PostgreSQL on port ${config.ports.db} does not accept connections.`)
}

/** A connection as `supabase_admin`, the superuser: for the stack's own work, never for migrations. */
export async function withDb<T>(config: StackConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withDbAs(config.adminDbUrl, work)
}

/** A connection as `postgres`, the role `supabase db push` and the SQL editor use on hosted Supabase. */
export async function withProjectDb<T>(
  config: StackConfig,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  return withDbAs(config.dbUrl, work)
}

async function withDbAs<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

function lineOf(sql: string, position: string | undefined): string {
  if (!position) return ''
  const line = sql.slice(0, Number(position)).split('\n').length
  return ` (line ${line})`
}

/** Attempts a file gets when PostgreSQL picks its transaction as a deadlock's victim. */
export const DEADLOCK_ATTEMPTS = 3

/**
 * One SQL file in one transaction. A migration's DDL takes table locks while pg_cron's jobs (every
 * minute: due work, canaries, follow-ups) hold row locks on the same tables in another order, so
 * PostgreSQL may end either transaction with `deadlock detected` (40P01). The file's transaction
 * rolled back whole, so it is run again, as PostgreSQL's manual advises for that error; any other
 * error is the file's.
 */
export async function runSqlFile(
  client: pg.Client,
  file: string,
  label: string,
  record?: string,
  log: (line: string) => void = () => {},
): Promise<void> {
  const sql = readFileSync(file, 'utf8')
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query('begin')
      await client.query(sql)
      if (record) await client.query(record)
      await client.query('commit')
      return
    } catch (error) {
      await client.query('rollback').catch(() => {})
      const e = error as { message: string; position?: string; code?: string }
      if (e.code === '40P01' && attempt < DEADLOCK_ATTEMPTS) {
        log(
          `${label}: deadlock with concurrent work, rolled back; attempt ${attempt + 1} of ${DEADLOCK_ATTEMPTS}`,
        )
        continue
      }
      throw new StackError(
        e.code === '40P01'
          ? `${label} failed: ${e.message} on each of ${DEADLOCK_ATTEMPTS} attempts; it rolled back each time. Run again when the database is quieter.`
          : `${label} failed${lineOf(sql, e.position)}: ${e.message}. Fix the file and run again.`,
      )
    }
  }
}

export function migrationFiles(): { version: string; name: string; file: string }[] {
  if (!existsSync(migrationsDir)) return []
  return readdirSync(migrationsDir)
    .filter((name) => /^\d{14}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      version: name.slice(0, 14),
      name: name.slice(15, -4),
      file: join(migrationsDir, name),
    }))
}

/**
 * Refuses a database that applied migrations under versions no file has any more: made before the
 * migrations were renamed to follow the clock (or from another branch's files), it would otherwise
 * get the renamed files applied a second time.
 */
function refuseRenamedMigrations(applied: ReadonlySet<string>): void {
  const known = new Set(migrationFiles().map((m) => m.version))
  const unknown = [...applied].filter((version) => !known.has(version)).sort()
  if (unknown.length === 0) return
  throw new StackError(
    `This local database applied ${unknown.length} migration${unknown.length === 1 ? '' : 's'} under versions supabase/migrations no longer has (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}): ` +
      'the migrations were renamed to follow the clock, and applying them again would fail. ' +
      'Save what you need (`npm run db:backup`), then recreate it with `npm run stack:reset`.',
  )
}

/** Refuses a cluster made before the hosted shape (its bootstrap superuser is `postgres`). */
async function checkClusterShape(client: pg.Client): Promise<void> {
  const bootstrap = await client.query<{ rolname: string }>('select rolname from pg_roles where oid = 10')
  if (bootstrap.rows[0]?.rolname !== 'supabase_admin') {
    throw new StackError(
      'This local database was created before the stack took the hosted Supabase shape (postgres was its superuser). ' +
        'Save what you need (`npm run db:backup`), then recreate it with `npm run stack:reset`.',
    )
  }
}

/**
 * What hosted Supabase has before any migration: roles, auth, storage, the Data API's settings. By
 * default into the `postgres` database; `database` names another one of the cluster (the schema
 * check's), and `except` leaves platform files out.
 */
export async function applyPlatformLayer(
  config: StackConfig,
  { database, except = [] }: { database?: string; except?: string[] } = {},
): Promise<void> {
  const url = new URL(config.adminDbUrl)
  if (database) url.pathname = `/${database}`
  await withDbAs(url.toString(), async (admin) => {
    await admin.query('set client_min_messages = warning')
    await checkClusterShape(admin)
    for (const name of readdirSync(platformDir)
      .filter((f) => f.endsWith('.sql') && !except.includes(f))
      .sort()) {
      await runSqlFile(admin, join(platformDir, name), `Platform layer ${name}`)
    }
  })
}

/**
 * Applies the platform layer, then every migration not applied yet (one transaction per file, as the
 * Supabase CLI does), then the seed once (`seed: false` leaves it out, as `supabase db push` must).
 * `before` stops at that migration version (to test an upgrade from the database it would meet).
 */
export async function migrate(
  config: StackConfig,
  log: (line: string) => void = () => {},
  { seed = true, before }: { seed?: boolean; before?: string } = {},
): Promise<void> {
  await applyPlatformLayer(config)
  await withProjectDb(config, async (client) => {
    await client.query('set client_min_messages = warning')
    const applied = new Set(
      (
        await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations')
      ).rows.map((row) => row.version),
    )
    refuseRenamedMigrations(applied)
    let count = 0
    for (const migration of migrationFiles()) {
      if (applied.has(migration.version)) continue
      if (before !== undefined && migration.version >= before) break
      const record = client.escapeLiteral(migration.version)
      await runSqlFile(
        client,
        migration.file,
        `Migration ${migration.version}_${migration.name}.sql`,
        `insert into supabase_migrations.schema_migrations (version, name) values (${record}, ${client.escapeLiteral(migration.name)})`,
        log,
      )
      count++
    }
    if (count > 0) log(`Applied ${count} migration${count === 1 ? '' : 's'}.`)
  })
  await withDb(config, (admin) => allowRunnerLogin(admin))
  await withProjectDb(config, async (client) => {
    await client.query('set client_min_messages = warning')
    if (seed && existsSync(seedFile)) {
      const hash = createHash('sha256').update(readFileSync(seedFile)).digest('hex')
      const seeded = await client.query<{ hash: string }>(
        "select hash from supabase_migrations.seed_files where path = 'supabase/seed.sql'",
      )
      if (seeded.rowCount === 0) {
        await runSqlFile(
          client,
          seedFile,
          'supabase/seed.sql',
          `insert into supabase_migrations.seed_files (path, hash) values ('supabase/seed.sql', '${hash}')`,
        )
        log('Loaded supabase/seed.sql.')
      } else if (seeded.rows[0]?.hash !== hash) {
        log('supabase/seed.sql changed since it was loaded; run `npm run stack:reset` to load it again.')
      }
    }
    await client.query("notify pgrst, 'reload schema'")
  })
}

/**
 * The runner's role is NOLOGIN in the migrations (each environment gives it its own password);
 * the local stack lets it log in with a fixed local password so the runner service and tests connect as it.
 */
async function allowRunnerLogin(client: pg.Client): Promise<void> {
  const role = await client.query("select 1 from pg_roles where rolname = 'reachflow_runner'")
  if (role.rowCount === 0) return
  await client.query(`alter role reachflow_runner login password ${client.escapeLiteral(RUNNER_DB_PASSWORD)}`)
}

export function destroyCluster(config: StackConfig): void {
  stopDb(config)
  rmSync(config.dir, { recursive: true, force: true })
}
