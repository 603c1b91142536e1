// The SQL that takes one database to another: pg-delta (bundled with the pinned Supabase CLI; it
// reads both catalogs over plain connections, no Docker), with new columns put in the wanted order,
// then checked: applied to the first database in a transaction that is rolled back, whose catalog
// must then equal the second's. What pg-delta cannot express comes back as `remaining`.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '../../stack/src/config.ts'
import { type Catalog, readCatalog } from './catalog.ts'
import { compareFacts, type Difference, facts } from './compare.ts'
import { withClient } from './databases.ts'

/** The schemas our migrations touch; pg_cron's `cron` stays out (its jobs are data, in migrations). */
const DIFFED_SCHEMAS = 'public,internal,auth,storage'

function pgDelta(from: string, to: string): { sql: string; notices: string[] } {
  const url = (u: string) => `${u}${u.includes('?') ? '&' : '?'}sslmode=disable`
  const result = spawnSync(
    join(repoRoot, 'node_modules', '.bin', 'supabase'),
    ['db', 'diff', '--use-pg-delta', '--from', url(from), '--to', url(to), '--schema', DIFFED_SCHEMAS],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  if (result.status !== 0) throw new Error(`pg-delta failed:\n${(result.stderr || result.stdout).trim()}`)
  // pg-delta prints its notices (boxed lines) on stdout before the SQL.
  // Parameter ACLs (grants on settings) are the platform's, never ours.
  const lines = result.stdout.split('\n')
  const notices = lines
    .filter(
      (line) => /^[│▲●◇└┌]/.test(line) && /not manage|omitted/.test(line) && !/parameter ACL/.test(line),
    )
    .map((line) => line.replace(/^[│▲●\s]+/, ''))
  const sql = lines
    .filter((line) => !/^[│▲●◇└┌]/.test(line))
    .join('\n')
    .trim()
  return { sql, notices }
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

export async function migrationBetween(
  fromUrl: string,
  toUrl: string,
): Promise<{ sql: string; notices: string[]; remaining: Difference[] }> {
  const wantedCatalog = await withClient(toUrl, readCatalog)
  const delta = pgDelta(fromUrl, toUrl)
  const sql = inFileOrder(delta.sql, wantedCatalog)
  if (!/\b(create|alter|drop|grant|revoke|comment)\b/i.test(sql))
    return { sql: '', notices: delta.notices, remaining: [] }
  const wanted = facts(wantedCatalog)
  const remaining = await withClient(fromUrl, async (client) => {
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
  return { sql, notices: delta.notices, remaining }
}
