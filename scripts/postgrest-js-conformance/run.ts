// `npm run conformance:postgrest-js -- [--repo <supabase-js clone>] [--ref <commit>] [--verbose] [file
// filters…]`: how much of
// supabase-js's own PostgREST client suite (packages/core/postgrest-js/test, written against a real
// PostgREST behind the Supabase CLI) passes against the local gateway. Not part of `npm test`: it
// needs the supabase-js sources, which are extracted under .stack/conformance (never committed).
//
// It sets up its own database instance (`pgrstjs`) with the platform layer and the suite's own
// schema and seed (test/supabase/migrations, seed.sql) instead of our migrations, starts a gateway
// on it exposing `public` and `personal` as the suite's config.toml does, and runs the test files
// one at a time with vitest (scripts/postgrest-js-conformance/setup.ts stands in for Jest). The score
// counts the tests that sent at least one request to the gateway (the others test the client alone)
// and files that failed to load (./summary.ts); the exit status is vitest's. Its Postgres is stopped
// whatever happens once it started.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot, stackConfig } from '../../stack/src/config.ts'
import {
  applyPlatformLayer,
  destroyCluster,
  initCluster,
  startDb,
  stopDb,
  withDb,
  withProjectDb,
} from '../../stack/src/db.ts'
import { gatewayEnv, sharedEnv } from '../../stack/src/services.ts'
import { ensureSystemPackages, sleep } from '../../stack/src/system.ts'
import { type JsonReport, summarise } from './summary.ts'

/** supabase-js's main branch of 7 August 2026 (after 2.112.2): the suite the figures in docs/benchmarks.md come from. */
const DEFAULT_REF = '381bded5'
const PACKAGE = 'packages/core/postgrest-js'

const { values, positionals } = parseArgs({
  options: {
    repo: { type: 'string' },
    ref: { type: 'string', default: DEFAULT_REF },
    // Also print vitest's own report (with the diffs), optionally for some test files only.
    verbose: { type: 'boolean', default: false },
  },
  allowPositionals: true,
})
const workDir = join(repoRoot, '.stack', 'conformance')
const packageDir = join(workDir, PACKAGE)
const log = (line: string) => console.log(`[conformance] ${line}`)

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${(result.stderr || result.stdout || '').trim()}`)
  return result.stdout
}

/** The suite at the pinned commit, from the given clone or a fresh partial clone of GitHub's. */
function extractSuite(): void {
  let repo = values.repo
  if (!repo) {
    repo = join(workDir, 'supabase-js.git')
    if (!existsSync(repo)) {
      log('cloning supabase/supabase-js (once; sources only, into .stack/conformance)')
      run('git', ['clone', '--bare', '--filter=blob:none', 'https://github.com/supabase/supabase-js', repo])
    }
  }
  rmSync(join(workDir, 'packages'), { recursive: true, force: true })
  mkdirSync(workDir, { recursive: true })
  const archive = spawnSync(
    'git',
    ['-C', repo, 'archive', values.ref ?? DEFAULT_REF, PACKAGE, 'tsconfig.base.json'],
    {
      maxBuffer: 1 << 28,
    },
  )
  if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr.toString()}`)
  spawnSync('tar', ['-x', '-C', workDir], { input: archive.stdout })
  log(`postgrest-js tests of supabase-js ${values.ref} in ${packageDir}`)
}

async function startGateway(env: Record<string, string>, apiUrl: string): Promise<ChildProcess> {
  const gateway = spawn(
    join(repoRoot, 'node_modules', '.bin', 'tsx'),
    [join(repoRoot, 'stack', 'gateway', 'src', 'main.ts')],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  for (let attempt = 0; attempt < 300; attempt++) {
    const ready = await fetch(`${apiUrl}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return gateway
    await sleep(100)
  }
  gateway.kill()
  throw new Error('the gateway did not start')
}

/** The suite's schema, loaded as `postgres` (not a superuser, as on hosted Supabase). */
async function loadSuiteSchema(config: ReturnType<typeof stackConfig>, testDir: string): Promise<void> {
  let schema = readFileSync(join(testDir, 'supabase', 'migrations', '00000000000000_schema.sql'), 'utf8')
  const postgis = /create extension if not exists postgis[^;]*;/i
  if (existsSync('/usr/share/postgresql/15/extension/postgis.control')) {
    // PostGIS is not a trusted extension: the superuser creates it, as the hosted dashboard does,
    // and the schema's own statement finds it there
    const statement = postgis.exec(schema)?.[0]
    if (statement) await withDb(config, (db) => db.query(statement))
  } else {
    // Debian's PostGIS is not part of the stack: the one table using it keeps its points as text,
    // so the suite's single GeoJSON test fails here.
    log('PostGIS is not installed: shops.shop_geom becomes text')
    schema = schema.replace(postgis, '').replace(/extensions\.geometry\(POINT, 4326\)/i, 'text')
  }
  await withProjectDb(config, async (db) => {
    await db.query(schema)
    await db.query(readFileSync(join(testDir, 'supabase', 'seed.sql'), 'utf8'))
  })
}

async function main(): Promise<void> {
  ensureSystemPackages(log)
  extractSuite()
  const config = stackConfig('pgrstjs')
  destroyCluster(config)
  initCluster(config)
  const testDir = join(packageDir, 'test')
  const reachedFile = join(workDir, 'reached.jsonl')
  const reportFile = join(workDir, 'report.json')
  let gateway: ChildProcess | undefined
  let vitestStatus: number | null = null
  try {
    await startDb(config)
    await applyPlatformLayer(config)
    await loadSuiteSchema(config, testDir)
    const rest = `${config.apiUrl}/rest/v1`
    const env = {
      ...sharedEnv(config),
      ...gatewayEnv(true),
      STACK_INSTANCE: config.instance,
      REST_SCHEMAS: 'public,personal',
    }
    gateway = await startGateway(env, config.apiUrl)
    rmSync(reachedFile, { force: true })
    rmSync(reportFile, { force: true })
    // The suite talks to the CLI's local API; here the same requests go to the gateway.
    for (const file of readdirSync(testDir).filter((f) => f.endsWith('.test.ts'))) {
      const path = join(testDir, file)
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('http://localhost:54321/rest/v1', rest))
    }
    vitestStatus = spawnSync(
      join(repoRoot, 'node_modules', '.bin', 'vitest'),
      [
        'run',
        '--root',
        packageDir,
        '--config',
        join(repoRoot, 'scripts', 'postgrest-js-conformance', 'vitest.config.ts'),
        '--reporter=json',
        `--outputFile=${reportFile}`,
        ...(values.verbose ? ['--reporter=default'] : []),
        ...positionals,
      ],
      {
        cwd: packageDir,
        stdio: 'inherit',
        env: {
          ...process.env,
          NO_COLOR: '1',
          CI: 'true',
          CONFORMANCE_REST_URL: rest,
          CONFORMANCE_ANON_KEY: config.anonKey,
          CONFORMANCE_REACHED_FILE: reachedFile,
        },
      },
    ).status
  } finally {
    gateway?.kill('SIGTERM')
    stopDb(config)
  }
  if (!existsSync(reportFile)) throw new Error(`vitest wrote no report (exit status ${vitestStatus})`)
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport
  const reached = new Set(
    existsSync(reachedFile) ? readFileSync(reachedFile, 'utf8').split('\n').filter(Boolean) : [],
  )
  const { lines, exitCode } = summarise(report, reached, vitestStatus)
  for (const line of lines) log(line)
  process.exitCode = exitCode
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
