// The schema files on disk: each is a kept head (its opening comment and any hand-written preamble,
// such as the runner's role or pg-boss's own schema) followed by rendered sections. Reading them
// tells where every object already lives, so re-rendering never moves one.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type pg from 'pg'
import { pgbossSchemaSql } from '../generate-pgboss-migration.ts'
import type { Catalog } from './catalog.ts'
import { schemasDir } from './databases.ts'
import { DOMAINS } from './domains.ts'
import type { Placement } from './render-files.ts'
import type { Quote } from './sql-text.ts'

const SECTION_RULE =
  /^-- (Schemas and types|Functions the tables' checks and defaults call|Tables|Indexes|Triggers|Helper functions|Views|Row-level security|Grants|RPCs) -{3,}$/m

export const PGBOSS_FILE = '05_pgboss.sql'

const wrapComment = (text: string) =>
  text
    .split('\n')
    .map((line) => `-- ${line}`)
    .join('\n')

const RUNNER_ROLE = `do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'reachflow_runner') then
    create role reachflow_runner nologin noinherit;
  end if;
  -- postgres (not a superuser on hosted Supabase) must be able to act as the runner: the database
  -- tests do. PostgreSQL 16+ gives a role's creator only ADMIN, so SET is asked for explicitly there.
  if current_setting('server_version_num')::int >= 160000 then
    execute 'grant reachflow_runner to postgres with set true';
  else
    execute 'grant reachflow_runner to postgres';
  end if;
end
$$;`

const READ_ME = `The current definition of every object, one file per domain, applied in file-name order.
Write a change here first, then \`npm run db:diff -- <name>\` writes the migration; \`npm run
check:deploy\` fails when these files and supabase/migrations build different catalogs
(docs/database.md "Changing the schema").`

/** The kept head of a file, or a new file's: its title, plus what only a hand (or pg-boss) can write. */
export async function fileHead(file: string): Promise<string> {
  const path = join(schemasDir, file)
  if (file === PGBOSS_FILE) {
    const { version, schemaVersion, sql } = await pgbossSchemaSql()
    return `-- The job queue: pg-boss ${version}'s own schema (schema version ${schemaVersion}), exactly as
-- scripts/generate-pgboss-migration.ts takes it from the pinned pg-boss (re-rendered by
-- \`npm run db:schemas\`; do not edit it here), then what the runner and the scheduler may do in it.

${sql}`
  }
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8')
    const at = SECTION_RULE.exec(text)?.index
    return at === undefined ? text : text.slice(0, at)
  }
  const domain = DOMAINS.find((d) => d.file === file)
  const title = wrapComment(domain?.title ?? file)
  if (file === DOMAINS[0]?.file)
    return `${title}\n--\n${wrapComment(READ_ME)}\n\n-- The runner's database role (roles belong to the cluster; each environment gives it a login).\n${RUNNER_ROLE}\n`
  return `${title}\n`
}

function normalizedName(raw: string): string {
  const name = raw.replaceAll('"', '')
  return name.includes('.') ? name : `public.${name}`
}

/** Where each object already is, from the files' text. */
export function placementFromFiles(): Placement {
  const placement: Placement = new Map()
  if (!existsSync(schemasDir)) return placement
  const patterns: [RegExp, (m: RegExpMatchArray) => string][] = [
    [
      /create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?([\w."]+)/gi,
      (m) => `relation ${normalizedName(m[1] ?? '')}`,
    ],
    [
      /create\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+([\w."]+)/gi,
      (m) => `relation ${normalizedName(m[1] ?? '')}`,
    ],
    [/create\s+(?:sequence|type|domain)\s+([\w."]+)/gi, (m) => `relation ${normalizedName(m[1] ?? '')}`],
    [
      /create\s+(?:or\s+replace\s+)?(?:function|procedure)\s+([\w."]+)\s*\(/gi,
      (m) => `function ${normalizedName(m[1] ?? '')}`,
    ],
    [
      /create\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+("[^"]+"|\w+)[^;]*?\bon\s+("[^"]+"|[\w."]+)/gi,
      (m) => `trigger ${normalizedName(m[2] ?? '')}.${(m[1] ?? '').replaceAll('"', '')}`,
    ],
    [
      /create\s+policy\s+("[^"]+"|\w+)\s+on\s+([\w."]+)/gi,
      (m) => `policy ${normalizedName(m[2] ?? '')}.${(m[1] ?? '').replaceAll('"', '')}`,
    ],
  ]
  for (const file of readdirSync(schemasDir).filter((f) => f.endsWith('.sql'))) {
    const text = readFileSync(join(schemasDir, file), 'utf8')
    for (const [pattern, keyOf] of patterns)
      for (const match of text.matchAll(pattern))
        if (!placement.has(keyOf(match))) placement.set(keyOf(match), file)
  }
  return placement
}

/** quote_ident for every name the catalog holds, asked of the database once. */
export async function quoterFor(client: pg.Client, catalog: Catalog): Promise<Quote> {
  const names = new Set<string>()
  const acl = (grants: { grantee: string }[]) => {
    for (const g of grants) names.add(g.grantee)
  }
  for (const s of catalog.schemas) names.add(s.name)
  for (const r of catalog.relations) {
    names.add(r.schema).add(r.name)
    acl(r.acl)
    for (const c of r.columns) {
      names.add(c.name)
      if (c.collation) names.add(c.collation)
      acl(c.acl)
    }
  }
  for (const list of [
    catalog.constraints,
    catalog.indexes,
    catalog.triggers,
    catalog.policies,
    catalog.types,
  ])
    for (const o of list) names.add(o.name)
  for (const f of catalog.functions) {
    names.add(f.schema).add(f.name)
    acl(f.acl)
  }
  for (const p of catalog.policies) for (const r of p.roles) names.add(r)
  names.delete('')
  const { rows } = await client.query<{ name: string; quoted: string }>(
    'select n as name, quote_ident(n) as quoted from unnest($1::text[]) n',
    [[...names]],
  )
  const map = new Map(rows.map((r) => [r.name, r.quoted]))
  return (name) => map.get(name) ?? name
}

export function writeSchemaFiles(texts: Map<string, string>): void {
  mkdirSync(schemasDir, { recursive: true })
  for (const [file, text] of texts) writeFileSync(join(schemasDir, file), text)
}
