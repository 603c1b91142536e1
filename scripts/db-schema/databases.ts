// The two databases the schema tools compare, side by side in one throwaway cluster: `postgres` built
// from supabase/migrations (as `supabase db push` would, without the seed) and `schemas` built from
// the platform layer and supabase/schemas/*.sql. pg_cron can only live in the database named by
// cron.database_name, so the second one has no pg_cron: its jobs are data, kept in migrations.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { repoRoot, type StackConfig, stackConfig } from '../../stack/src/config.ts'
import { applyPlatformLayer, destroyCluster, initCluster, migrate, startDb } from '../../stack/src/db.ts'

export const schemasDir = join(repoRoot, 'supabase', 'schemas')
export const SCHEMAS_DATABASE = 'schemas'
const PG_CRON_PLATFORM_FILE = '05-pg-cron.sql'

export interface SqlSource {
  label: string
  sql: string
}

/** supabase/schemas/*.sql in the order they apply (file names). */
export function schemaSources(): SqlSource[] {
  if (!existsSync(schemasDir)) return []
  return readdirSync(schemasDir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ label: `supabase/schemas/${name}`, sql: readFileSync(join(schemasDir, name), 'utf8') }))
}

function urlFor(base: string, database: string): string {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}

export interface Pair {
  config: StackConfig
  migrationsUrl: string
  schemasUrl: string
}

/** A fresh cluster for `instance` with the migrations applied to its `postgres` database. */
export async function startWithMigrations(instance: string): Promise<Pair> {
  process.env.STACK_PORT_BASE ??= '0'
  const config = stackConfig(instance)
  destroyCluster(config)
  initCluster(config)
  await startDb(config)
  await migrate(config, () => {}, { seed: false })
  return { config, migrationsUrl: config.dbUrl, schemasUrl: urlFor(config.dbUrl, SCHEMAS_DATABASE) }
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/**
 * (Re)creates `database` in the cluster of `config`, with the platform layer (all but
 * pg_cron); then applies `sources` as `postgres`, one transaction each. Function bodies are checked
 * when they run, not when created (as pg_dump and the Supabase CLI apply schema files), so a SQL
 * function may read a table of a later file. Returns the database's URL for `postgres`.
 */
export async function createDatabaseFrom(
  config: StackConfig,
  database: string,
  sources: SqlSource[],
): Promise<string> {
  await withClient(config.adminDbUrl, async (admin) => {
    await admin.query(`drop database if exists ${database} with (force)`)
    await admin.query(`create database ${database} owner postgres`)
  })
  await applyPlatformLayer(config, { database, except: [PG_CRON_PLATFORM_FILE] })
  const url = urlFor(config.dbUrl, database)
  await withClient(url, async (client) => {
    await client.query('set client_min_messages = warning')
    await client.query('set check_function_bodies = off')
    for (const source of sources) await applySql(client, source)
  })
  return url
}

/** The pair's `schemas` database from `sources` (by default supabase/schemas/*.sql). */
export async function buildSchemasDatabase(
  pair: Pair,
  sources: SqlSource[] = schemaSources(),
): Promise<void> {
  await createDatabaseFrom(pair.config, SCHEMAS_DATABASE, sources)
}

/** One source in one transaction; a failure names the source and the line. */
export async function applySql(client: pg.Client, { label, sql }: SqlSource): Promise<void> {
  try {
    await client.query('begin')
    await client.query(sql)
    await client.query('commit')
  } catch (error) {
    await client.query('rollback').catch(() => {})
    const e = error as { message: string; position?: string }
    const line = e.position ? ` (line ${sql.slice(0, Number(e.position)).split('\n').length})` : ''
    throw new Error(`${label} failed${line}: ${e.message}`)
  }
}

export function stop(pair: Pair): void {
  destroyCluster(pair.config)
}
