// `npm run db:types`: writes supabase/functions/_shared/database.types.ts from the database the
// migrations build (web, functions and runner all import it).
import { writeFileSync } from 'node:fs'
import { startWithMigrations, stop } from './db-schema/databases.ts'
import { generateTypes, TYPES_FILE } from './db-schema/types.ts'

const pair = await startWithMigrations('schemas')
try {
  writeFileSync(TYPES_FILE, generateTypes(pair.migrationsUrl))
  console.log(`db:types: wrote ${TYPES_FILE}`)
} finally {
  stop(pair)
}
