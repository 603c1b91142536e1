// `npm run db:schemas`: re-renders supabase/schemas/*.sql from the database the migrations build, for
// when a plain migration changed the schema (e.g. after merging a branch that wrote one). Objects
// stay in the file they are in; new ones go by scripts/db-schema/domains.ts. Each file keeps its
// head (opening comment and hand-written preamble). Then it builds a database from the files and
// compares it with the migrations' one, as `npm run check:deploy` does.
import { readCatalog } from './db-schema/catalog.ts'
import { compareFacts, facts } from './db-schema/compare.ts'
import {
  buildSchemasDatabase,
  type Pair,
  startWithMigrations,
  stop,
  withClient,
} from './db-schema/databases.ts'
import { DOMAINS } from './db-schema/domains.ts'
import { fileText } from './db-schema/file-text.ts'
import { renderSchemaFiles } from './db-schema/render-files.ts'
import { fileHead, placementFromFiles, quoterFor, writeSchemaFiles } from './db-schema/schema-files.ts'

const log = (line: string) => console.log(`db:schemas: ${line}`)

async function render(pair: Pair): Promise<string[]> {
  const heads = new Map<string, string>()
  for (const { file } of DOMAINS) heads.set(file, await fileHead(file))
  // The baseline: the platform layer plus the heads, i.e. what the rendered sections must add.
  await buildSchemasDatabase(
    pair,
    [...heads].map(([file, sql]) => ({ label: `the head of supabase/schemas/${file}`, sql })),
  )
  const wanted = await withClient(pair.migrationsUrl, readCatalog)
  const baseline = await withClient(pair.schemasUrl, readCatalog)
  const quote = await withClient(pair.migrationsUrl, (client) => quoterFor(client, wanted))
  const { files, problems } = renderSchemaFiles(wanted, baseline, quote, placementFromFiles())
  const texts = new Map<string, string>()
  for (const [file, head] of heads) texts.set(file, fileText(head, files.get(file)))
  for (const file of files.keys())
    if (!heads.has(file)) problems.push(`${file} is not a domain in domains.ts`)
  writeSchemaFiles(texts)
  log(`wrote ${texts.size} files in supabase/schemas/`)
  return problems
}

const pair = await startWithMigrations('schemas')
try {
  const problems = await render(pair)
  await buildSchemasDatabase(pair)
  const differences = compareFacts(
    facts(await withClient(pair.migrationsUrl, readCatalog)),
    facts(await withClient(pair.schemasUrl, readCatalog)),
  )
  for (const problem of problems) console.error(`db:schemas: ${problem}`)
  for (const d of differences) console.error(`db:schemas: ${d.object}: ${d.problem}`)
  if (problems.length + differences.length > 0) process.exitCode = 1
  else log('the schema files build the same catalog as the migrations')
} finally {
  stop(pair)
}
