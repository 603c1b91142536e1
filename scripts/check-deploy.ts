// `npm run check:deploy`: what can be checked of a deploy without a Supabase project.
//   1. every function type-checks with `deno check` as `supabase functions deploy` bundles it: from a
//      copy of supabase/functions/ alone (what deploy uploads), with the function's own deno.json as
//      its only config (its import map names @reachflow/domain; npm: specifiers come from the registry);
//   2. supabase/config.toml has the keys the deploy relies on, and every [functions.*] is a function;
//   3. every secret a function reads is listed in docs/operations.md's secrets table;
//   4. every migration's version is a UTC time no later than the commit adding it (now, if not
//      committed yet), and every migration applies, one transaction per file and without the seed (as `db push` does),
//      to a fresh database on its own `deploycheck` instance (destroyed afterwards);
//   5. supabase/schemas/*.sql build, beside it, the same catalog (tables, columns, constraints,
//      indexes, views, functions, triggers, policies, RLS, grants, comments), else it names each object;
//   6. supabase/functions/_shared/database.types.ts is what `supabase gen types` makes of that database.
// Ends with "check:deploy: ok" or the list of problems (exit 1).
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { repoRoot, stackConfig } from '../stack/src/config.ts'
import { destroyCluster, migrationFiles } from '../stack/src/db.ts'
import { authEmailConfig } from '../stack/src/supabase-config.ts'
import { ensureSystemPackages } from '../stack/src/system.ts'
import { readCatalog } from './db-schema/catalog.ts'
import { compareFacts, facts } from './db-schema/compare.ts'
import {
  buildSchemasDatabase,
  type Pair,
  startWithMigrations,
  stop,
  withClient,
} from './db-schema/databases.ts'
import { generateTypes, TYPES_FILE } from './db-schema/types.ts'
import { commitTimesOfAdding, versionProblems } from './lib/migration-versions.ts'

const problems: string[] = []
const step = (line: string) => console.log(`check:deploy: ${line}`)
const functionsDir = join(repoRoot, 'supabase', 'functions')
const functions = readdirSync(functionsDir, { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && !d.name.startsWith('_') && existsSync(join(functionsDir, d.name, 'index.ts')),
  )
  .map((d) => d.name)

/** Secrets hosted Supabase sets for every function itself. */
const PLATFORM_SECRETS = new Set([
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SUPABASE_DB_URL',
])
/** Read by the functions but meant only for the local stack (documented as such). */
const LOCAL_ONLY = new Set(['STRIPE_API_BASE'])
/** Secrets a deploy may leave unset: the feature they enable is off (AI writing) or has a default. */
const OPTIONAL = new Set([
  'X_BASE_URL',
  'AI_BASE_URL',
  'AI_API_KEY',
  'AI_MODEL',
  'AI_TIMEOUT_MS',
  'AI_MAX_RETRY_WAIT_MS',
])

function denoCheck(): void {
  const deno = join(repoRoot, 'node_modules', '.bin', 'deno')
  // Outside the repository, so no package.json, node_modules or root deno.json can make an import
  // resolve that the hosted bundle would not.
  const copy = mkdtempSync(join(tmpdir(), 'reachflow-deploy-check-'))
  try {
    cpSync(functionsDir, join(copy, 'functions'), { recursive: true })
    for (const name of functions) {
      const config = join(copy, 'functions', name, 'deno.json')
      if (!existsSync(config)) {
        problems.push(`function ${name} has no deno.json (deploy reads its import map from there)`)
        continue
      }
      const result = spawnSync(
        deno,
        ['check', '--config', config, '--quiet', join(copy, 'functions', name, 'index.ts')],
        {
          cwd: copy,
          env: { ...process.env, DENO_DIR: join(repoRoot, '.stack', 'deploy-check-deno'), NO_COLOR: '1' },
          encoding: 'utf8',
        },
      )
      if (result.status !== 0)
        problems.push(`deno check of function ${name} failed:\n${(result.stderr || result.stdout).trim()}`)
      else step(`function ${name} type-checks as deployed`)
    }
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

function configToml(): void {
  const toml = readFileSync(join(repoRoot, 'supabase', 'config.toml'), 'utf8')
  const section = (name: string) => {
    const start = toml.search(new RegExp(`^\\[${name.replace(/[.\\[\\]-]/g, '\\$&')}\\]\\s*$`, 'm'))
    if (start < 0) return null
    const rest = toml.slice(start).split('\n').slice(1)
    const end = rest.findIndex((line) => /^\[/.test(line))
    return (end < 0 ? rest : rest.slice(0, end)).join('\n')
  }
  const key = (sectionName: string | null, name: string) => {
    const body = sectionName === null ? toml.slice(0, Math.max(0, toml.search(/^\[/m))) : section(sectionName)
    const match = body?.match(new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm'))
    return match?.[1]?.trim() ?? null
  }
  const required: [string | null, string][] = [
    [null, 'project_id'],
    ['db', 'major_version'],
    ['api', 'schemas'],
    ['auth', 'site_url'],
    ['auth', 'additional_redirect_urls'],
    ['auth', 'minimum_password_length'],
    ['auth.rate_limit', 'sign_in_sign_ups'],
    ['auth.rate_limit', 'token_verifications'],
    ['auth.email', 'otp_length'],
    ['auth.email', 'otp_expiry'],
    ['auth.email', 'max_frequency'],
  ]
  for (const [sectionName, name] of required)
    if (key(sectionName, name) === null)
      problems.push(`supabase/config.toml: ${sectionName ? `[${sectionName}] ` : ''}${name} is missing`)
  // A recovery link carries sha224(e-mail + code), which anyone can compute: the code's length and
  // lifetime are all that keeps it unguessable in production (docs/operations.md, "Recovery codes").
  const email = authEmailConfig(toml)
  if (email.otpLength < 10 || email.otpExpirySeconds > 900)
    problems.push(
      `supabase/config.toml: [auth.email] needs otp_length = 10 and otp_expiry <= 900 (now ${email.otpLength} and ${email.otpExpirySeconds}): shorter or longer-lived codes can be guessed`,
    )
  if (key('functions.stripe-webhook', 'verify_jwt') !== 'false')
    problems.push(
      'supabase/config.toml: [functions.stripe-webhook] verify_jwt must be false (Stripe sends no JWT)',
    )
  for (const match of toml.matchAll(/^\[functions\.([a-z0-9-_]+)\]/gm))
    if (!functions.includes(match[1] ?? ''))
      problems.push(`supabase/config.toml: [functions.${match[1]}] names no function`)
  step(`config.toml keys present (${required.length} checked, functions: ${functions.join(', ')})`)
}

function secretsListed(): void {
  const read = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const source = readFileSync(path, 'utf8')
        for (const m of source.matchAll(/(?:requireEnv|env|Deno\.env\.get)\(\s*'([A-Z][A-Z0-9_]+)'/g))
          if (m[1]) read.add(m[1])
      }
    }
  }
  walk(functionsDir)
  const operations = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8')
  const table = operations.slice(operations.indexOf('### Function secrets'))
  for (const name of [...read].sort()) {
    if (PLATFORM_SECRETS.has(name)) continue
    if (!table.includes(`\`${name}\``))
      problems.push(
        `docs/operations.md "Function secrets" does not list ${name}${LOCAL_ONLY.has(name) ? ' (local only)' : ''}`,
      )
    else if (OPTIONAL.has(name) && !new RegExp(`\`${name}\`[^\\n]*optional`).test(table))
      problems.push(`docs/operations.md "Function secrets" must say ${name} is optional`)
  }
  step(
    `secrets the functions read are documented: ${[...read]
      .filter((n) => !PLATFORM_SECRETS.has(n))
      .sort()
      .map((n) => (OPTIONAL.has(n) ? `${n} (optional)` : n))
      .join(', ')}`,
  )
}

/** The runner's container and unit say what the guide promises: non-root, health check, SIGTERM. */
function runnerPackaging(): void {
  const docker = readFileSync(join(repoRoot, 'runner', 'Dockerfile'), 'utf8')
  const unit = readFileSync(join(repoRoot, 'deploy', 'reachflow-runner.service'), 'utf8')
  const expectations: [string, boolean][] = [
    ['runner/Dockerfile is Debian-based', /^FROM\s+\S*bookworm/m.test(docker)],
    ['runner/Dockerfile installs Chromium', /apt-get install[^\n]*\bchromium\b/.test(docker)],
    ['runner/Dockerfile runs as a non-root USER', /^USER\s+(?!root\b)\S+/m.test(docker)],
    [
      'runner/Dockerfile has a HEALTHCHECK on RUNNER_HEALTH_PORT',
      /^HEALTHCHECK[\s\S]*RUNNER_HEALTH_PORT/m.test(docker),
    ],
    ['runner/Dockerfile stops with SIGTERM', /^STOPSIGNAL\s+SIGTERM/m.test(docker)],
    ['the systemd unit restarts the runner', /^Restart=always/m.test(unit)],
    ['the systemd unit runs as a non-root user', /^User=(?!root\b)\S+/m.test(unit)],
    [
      'the systemd unit waits longer than the 60 s graceful stop',
      Number(/^TimeoutStopSec=(\d+)/m.exec(unit)?.[1]) > 60,
    ],
  ]
  for (const [what, ok] of expectations) if (!ok) problems.push(`${what}: not so`)
  const copied = [...docker.matchAll(/^COPY\s+(\S+)\s+\S+\s*$/gm)].map((m) => m[1] as string)
  for (const file of runnerImports())
    if (!copied.some((source) => file === source || file.startsWith(`${source.replace(/\/$/, '')}/`)))
      problems.push(`runner/Dockerfile does not copy ${file}, which the runner imports`)
  step(
    'runner Dockerfile and systemd unit: non-root, health check, graceful SIGTERM, every imported file copied',
  )
}

/** Every repository file the runner's entry point reaches through relative imports. */
function runnerImports(): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(join(repoRoot, file), 'utf8')
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g))
      visit(relative(repoRoot, resolve(dirname(join(repoRoot, file)), m[1] as string)))
  }
  visit('runner/src/main.ts')
  return seen
}

function migrationVersions(): void {
  const files = migrationFiles().map((m) => ({ version: m.version, path: relative(repoRoot, m.file) }))
  const found = versionProblems(files, commitTimesOfAdding(repoRoot, 'supabase/migrations'), new Date())
  problems.push(...found)
  if (found.length === 0) step('migration versions are UTC times no later than the commits adding them')
}

/**
 * Migrations apply to a fresh hosted-shaped database; the schema files build the same catalog; the
 * committed database types are what that database generates.
 */
async function databaseChecks(): Promise<void> {
  let pair: Pair
  try {
    pair = await startWithMigrations('deploycheck')
    step(
      `${migrationFiles().length} migrations apply as postgres (not a superuser) to a fresh hosted-shaped database, one transaction each, without the seed`,
    )
  } catch (error) {
    problems.push(`migrations: ${error instanceof Error ? error.message : String(error)}`)
    destroyCluster(stackConfig('deploycheck'))
    return
  }
  try {
    await buildSchemasDatabase(pair)
    const wanted = facts(await withClient(pair.migrationsUrl, readCatalog))
    const differences = compareFacts(wanted, facts(await withClient(pair.schemasUrl, readCatalog)))
    if (differences.length > 0)
      problems.push(
        `supabase/schemas and supabase/migrations build different databases (${differences.length}):\n${differences
          .map((d) => `    ${d.object}: ${d.problem}`)
          .join(
            '\n',
          )}\n  Write the change in the schema file and run \`npm run db:diff -- <name>\` (or, after a plain migration, \`npm run db:schemas\`).`,
      )
    else step(`supabase/schemas builds the same catalog as the migrations (${wanted.size} objects compared)`)
  } catch (error) {
    problems.push(`supabase/schemas: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    const committed = existsSync(TYPES_FILE) ? readFileSync(TYPES_FILE, 'utf8') : ''
    if (generateTypes(pair.migrationsUrl) !== committed)
      problems.push(
        `${relative(repoRoot, TYPES_FILE)} is not what the migrations generate: run \`npm run db:types\``,
      )
    else step(`${relative(repoRoot, TYPES_FILE)} is what the migrations generate`)
  } catch (error) {
    problems.push(`database types: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    stop(pair)
  }
}

ensureSystemPackages(step)
denoCheck()
configToml()
secretsListed()
runnerPackaging()
migrationVersions()
await databaseChecks()
if (problems.length > 0) {
  console.error(
    `check:deploy: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n- ${problems.join('\n- ')}`,
  )
  process.exit(1)
}
step('ok')
