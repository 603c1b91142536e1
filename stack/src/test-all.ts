// `npm test`: sets up a fresh `test` instance of the stack (its own ports and data, so it runs beside
// `npm start`), runs every suite against it, stops it, and ends with one line `N passed, N failed`.
// Three tracks at once: vitest's node files on the test stack; Playwright on two stacks of its own
// (`e2e1`, `e2e2`, one per worker); pgTAP, the web app's jsdom files, the runner-alone files and deno
// on a fifth (`alone`). REACHFLOW_TEST_TRACKS=0 runs one suite at a time on the test stack alone
// (slower; for telling a flake that needs the overlap from one that does not).
// REACHFLOW_SUITES=pgtap,vitest,deno,e2e runs a subset (for quick local loops);
// REACHFLOW_VITEST_FILES="a.test.ts b.test.ts" / REACHFLOW_E2E_FILES="auth" narrow vitest / Playwright.
// One seed (REACHFLOW_TEST_SEED, else a fresh one) is printed first and given to every suite; a
// failure is listed at the end with its place, its message's first lines and that seed.
// `npm run test:soak` (REACHFLOW_TEST_SOAK=1) runs the same way, on the same fresh stack, only the
// endurance files of vitest's `soak` project (`*.soak.test.ts`), which `npm test` leaves out.
// Ctrl-C or SIGTERM stops the suites, everything under them and the test stacks before it exits.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startBackground, stopBackground } from './cli.ts'
import {
  ALONE_INSTANCE,
  E2E_INSTANCES,
  E2E_STACKS_VARIABLE,
  repoRoot,
  type StackConfig,
  stackConfig,
  stackPortRange,
} from './config.ts'
import { destroyCluster, withDb } from './db.ts'
import {
  ensureSystemPackages,
  requireProjectNode,
  reserveStackPorts,
  StackError,
  stopGroups,
} from './system.ts'
import { testEnv } from './test-env.ts'
import {
  denoFailures,
  formatFailures,
  type PlaywrightSuite,
  pgtapFailures,
  playwrightFailures,
  type TestFailure,
  vitestFailures,
} from './test-failures.ts'
import { TEST_SEED_VARIABLE, testSeed } from './test-seed.ts'

export interface SuiteResult {
  name: string
  passed: number
  failed: number
  seconds: number
  note?: string
  /** the failed tests with their explanations, printed together at the end so a long log's cause is findable */
  failures?: TestFailure[]
  /** the slowest files and their seconds (vitest), where a faster run would start looking */
  slowest?: { file: string; seconds: number }[]
}

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name)

/** What the last run did, for `npm run test:stress` (outside .stack/test, which each run deletes). */
export const TEST_SUMMARY_FILE = join(repoRoot, '.stack', 'test-summary.json')

export interface TestSummary {
  seed: number
  seconds: number
  passed: number
  failed: number
  suites: SuiteResult[]
}

/**
 * Plain output to parse: NO_COLOR, which Deno, vitest and Node honour; never FORCE_COLOR, which vitest
 * takes as "force" whatever its value. Playwright gets neither: it writes plain text to a pipe and
 * gives its workers FORCE_COLOR=0 itself (with NO_COLOR as well, Node 24 warns in every worker).
 */
function plainOutputEnv(command: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _forceColor, NO_COLOR: _noColor, ...rest } = env
  return command === bin('playwright') ? rest : { ...rest, NO_COLOR: '1' }
}

/** The suites' and builds' processes running now, each the leader of its own process group. */
const runningChildren = new Set<ChildProcess>()

/** Set once a signal has asked the run to stop: nothing new starts and no results are given. */
let interrupted = false

/**
 * An interrupted run (Ctrl-C, or `npm run test:stress` stopped) stops what it started: the suites
 * with everything under them (workers, browsers), then its stacks, so nothing keeps working a queue
 * or holding ports after it. Each suite is a process group of its own, so this is the one path by
 * which a signal reaches it.
 */
function stopOnSignal(stacks: StackConfig[]): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      if (interrupted) return
      interrupted = true
      console.log(`\n[test] ${signal}: stopping the suites and the test stacks`)
      const stopped = async () => {
        await stopGroups([...runningChildren])
        await Promise.all(stacks.map((stack) => stopBackground(stack)))
      }
      void stopped().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143))
    })
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; label?: string } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    if (interrupted) return resolve({ code: 1, output: '' })
    const child = spawn(command, args, {
      cwd: options.cwd ?? repoRoot,
      env: plainOutputEnv(command, { ...process.env, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    runningChildren.add(child)
    let output = ''
    const echo = options.label ? labelledEcho(options.label) : plainEcho
    const onData = (chunk: Buffer) => {
      const text = chunk.toString()
      output += text
      echo.write(text)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('close', (code) => {
      runningChildren.delete(child)
      echo.end()
      resolve({ code: code ?? 1, output })
    })
  })
}

/**
 * Echoes a suite's output a whole line at a time, each line marked with the suite, so the lines of
 * two suites running at once stay readable in one log.
 */
function labelledEcho(label: string): Echo {
  let partial = ''
  const print = (lines: string[]) =>
    process.stdout.write(lines.map((line) => `[${label}] ${line}\n`).join(''))
  return {
    write: (text) => {
      const lines = (partial + text).split('\n')
      partial = lines.pop() ?? ''
      if (lines.length > 0) print(lines)
    },
    end: () => {
      if (partial) print([partial])
      partial = ''
    },
  }
}

interface Echo {
  write: (text: string) => void
  end: () => void
}

const plainEcho: Echo = { write: (text) => process.stdout.write(text), end: () => {} }

async function pgtapSuite(config: StackConfig, env: Record<string, string>): Promise<SuiteResult> {
  const dir = join(repoRoot, 'supabase', 'tests', 'database')
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.test.sql')) : []
  if (files.length === 0) return { name: 'pgTAP', passed: 0, failed: 0, seconds: 0, note: 'no test files' }
  await withDb(config, (client) =>
    client.query('create extension if not exists pgtap with schema extensions'),
  )
  const started = Date.now()
  const { code, output } = await run(
    'pg_prove',
    [
      '--verbose',
      '--ext',
      '.sql',
      '-h',
      config.host,
      '-p',
      String(config.ports.db),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '--set',
      'ON_ERROR_STOP=1',
      ...files.sort().map((f) => join(dir, f)),
    ],
    env,
    { label: 'pgtap' },
  )
  const passed = (output.match(/^\s*ok \d+/gm) ?? []).length
  let failed = (output.match(/^\s*not ok \d+/gm) ?? []).length
  if (code !== 0 && failed === 0) failed = 1 // a file that died before its plan finished
  const failures = pgtapFailures(output, repoRoot)
  if (failed > 0 && failures.length === 0)
    failures.push({ name: 'pg_prove', explanation: [`pg_prove exited with code ${code}`] })
  return { name: 'pgTAP', passed, failed, seconds: (Date.now() - started) / 1000, failures }
}

/**
 * The suites on three tracks at once, Playwright on two stacks of its own (one per worker), unless
 * REACHFLOW_TEST_TRACKS=0. On a quiet 2-vCPU machine the overlap fills the CPU the suites leave idle
 * while they wait on browsers and sandboxes (docs/decisions.md, docs/benchmarks.md "npm test").
 */
export const parallelTracks = () => process.env.REACHFLOW_TEST_TRACKS !== '0'

/** `npm run test:soak`: the endurance runs alone instead of the suites. */
export const soakRun = () => process.env.REACHFLOW_TEST_SOAK === '1'

/**
 * Which vitest projects run: `npm test` all but `soak`; `test:soak` only `soak`. Named files
 * (REACHFLOW_VITEST_FILES) are looked for in every project, so a soak file can be named too.
 */
export function vitestProjects(soak: boolean, files: string[]): string[] {
  if (soak) return ['--project=soak']
  return files.length > 0 ? [] : ['--project=!soak']
}

/**
 * `npm test`'s vitest in three runs: the node files on the test stack; beside them, the web app's
 * jsdom files (no stack), then the runner-alone files on the `alone` stack, which they own while
 * they run (runners working every queue, its clock moved by days, its database restarted). Between
 * them they are every file `vitestProjects(false, [])` names (stack/src/test-projects.test.ts).
 */
export const VITEST_SPLIT = {
  stack: ['--project=node'],
  web: ['--project=web'],
  alone: ['--project=runner-alone'],
}

async function vitestSuite(
  env: Record<string, string>,
  { name, projects, files }: { name: string; projects: string[]; files: string[] },
): Promise<SuiteResult> {
  const report = join(repoRoot, '.stack', 'test', `${name.replace(/\W+/g, '-')}-report.json`)
  rmSync(report, { force: true })
  const started = Date.now()
  const { code } = await run(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...projects, ...files],
    env,
    { label: name },
  )
  if (!existsSync(report)) return { name, passed: 0, failed: 1, seconds: 0, note: 'vitest did not run' }
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    numPassedTests: number
    numFailedTests: number
    numFailedTestSuites: number
    testResults?: { name: string; startTime?: number; endTime?: number }[]
  } & Parameters<typeof vitestFailures>[0]
  let failed = json.numFailedTests
  if (code !== 0 && failed === 0) failed = Math.max(1, json.numFailedTestSuites)
  const failures = vitestFailures(json, repoRoot)
  if (failed > 0 && failures.length === 0)
    failures.push({ name, explanation: [`vitest exited with code ${code}; see the log above`] })
  const slowest = (json.testResults ?? [])
    .map((file) => ({
      file: relative(repoRoot, file.name),
      seconds: Math.round(((file.endTime ?? 0) - (file.startTime ?? 0)) / 100) / 10,
    }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
    .slice(0, 10)
  return {
    name,
    passed: json.numPassedTests,
    failed,
    seconds: (Date.now() - started) / 1000,
    failures,
    slowest,
  }
}

async function denoSuite(env: Record<string, string>): Promise<SuiteResult> {
  const started = Date.now()
  const { code, output } = await run(
    bin('deno'),
    ['test', '--allow-all', '--no-prompt', 'supabase/functions/'],
    env,
    { label: 'deno' },
  )
  if (/No test modules found/i.test(output)) {
    return { name: 'deno test', passed: 0, failed: 0, seconds: 0, note: 'no test modules' }
  }
  const summary = output.match(/(\d+) passed[^\n]*?(\d+) failed/g)?.pop()
  const [, passed = '0', failed = '0'] = summary?.match(/(\d+) passed[^\n]*?(\d+) failed/) ?? []
  let failedCount = Number(failed)
  if (code !== 0 && failedCount === 0) failedCount = 1
  const failures = denoFailures(output)
  if (failedCount > 0 && failures.length === 0) {
    // a module that did not type-check or load never reaches the ERRORS section
    const lines = output.split('\n').filter((line) => /^error:/.test(line))
    failures.push({
      name: 'deno test',
      explanation: lines.length ? lines.slice(0, 6) : [`exit code ${code}`],
    })
  }
  return {
    name: 'deno test',
    passed: Number(passed),
    failed: failedCount,
    seconds: (Date.now() - started) / 1000,
    failures,
  }
}

/**
 * Playwright, one worker per e2e stack: web/playwright.config.ts gives each worker the environment
 * of its own stack (REACHFLOW_E2E_STACKS), so specs that start runners working every queue, move
 * a clock or change the X site never meet another worker's.
 */
async function e2eSuite(stacks: StackConfig[]): Promise<SuiteResult> {
  const dir = join(repoRoot, 'web', 'e2e')
  if (!existsSync(dir) || readdirSync(dir).every((f) => !f.endsWith('.spec.ts'))) {
    return { name: 'Playwright', passed: 0, failed: 0, seconds: 0, note: 'no specs' }
  }
  const [first] = stacks
  if (!first) throw new StackError('Playwright needs a stack to run against.')
  const report = join(first.dir, 'playwright-report.json')
  rmSync(report, { force: true })
  const started = Date.now()
  // REACHFLOW_E2E_FILES="login-errors auth" narrows Playwright to the specs matching those words
  const only = process.env.REACHFLOW_E2E_FILES?.split(/\s+/).filter(Boolean) ?? []
  const { code } = await run(
    bin('playwright'),
    ['test', '--config', 'web/playwright.config.ts', ...only],
    {
      ...testEnv(first),
      [E2E_STACKS_VARIABLE]: JSON.stringify(stacks.map((stack) => testEnv(stack))),
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    },
    { label: 'e2e' },
  )
  if (!existsSync(report))
    return { name: 'Playwright', passed: 0, failed: 1, seconds: 0, note: 'did not run' }
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    stats: Record<string, number>
    suites?: PlaywrightSuite[]
  }
  const stats = json.stats
  let failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0)
  if (code !== 0 && failed === 0) failed = 1
  const failures = playwrightFailures(json.suites ?? [], repoRoot, dir)
  if (failed > 0 && failures.length === 0)
    failures.push({
      name: 'Playwright',
      explanation: [`playwright exited with code ${code}; see the log above`],
    })
  return {
    name: 'Playwright',
    passed: stats.expected ?? 0,
    failed,
    seconds: (Date.now() - started) / 1000,
    failures,
  }
}

/** The app as the stack serves it (`vite preview`), talking to that stack's gateway. */
async function buildWeb(config: StackConfig): Promise<void> {
  const { code } = await run(
    bin('vite'),
    ['build', '--logLevel', 'warn', '--outDir', config.webDist, '--emptyOutDir'],
    {
      VITE_SUPABASE_URL: config.apiUrl,
      VITE_SUPABASE_ANON_KEY: config.anonKey,
    },
    { cwd: join(repoRoot, 'web'), label: `build ${config.instance}` },
  )
  if (code !== 0) throw new StackError('The web app did not build; see the errors above.')
}

async function main(): Promise<void> {
  const soak = soakRun()
  // the soak files are vitest's; REACHFLOW_SUITES chooses among `npm test`'s suites only
  const wanted = new Set(
    (soak ? 'vitest' : (process.env.REACHFLOW_SUITES ?? 'pgtap,vitest,deno,e2e'))
      .split(',')
      .map((s) => s.trim()),
  )
  const seed = testSeed()
  const replay = `${TEST_SEED_VARIABLE}=${seed}${soak ? ' npm run test:soak' : ''}`
  if (soak) console.log('[test] Soak: the endurance files (*.soak.test.ts) only')
  console.log(`[test] Seed ${seed} (replay with ${replay})`)
  console.log(`[test] Node ${requireProjectNode()}`)
  ensureSystemPackages()
  const config = stackConfig('test')
  const tracks = parallelTracks()
  // Playwright's stacks: one per worker beside the test stack's suites, or the test stack itself
  const e2eConfigs = tracks ? E2E_INSTANCES.map((instance) => stackConfig(instance)) : [config]
  // REACHFLOW_VITEST_FILES="path …" runs only those files (a quick loop on one suite)
  const files = process.env.REACHFLOW_VITEST_FILES?.split(/\s+/).filter(Boolean) ?? []
  const splitVitest = tracks && !soak && files.length === 0 && wanted.has('vitest')
  // pgTAP's, the runner-alone files' and deno's stack, when vitest runs in its three parts
  const alone = splitVitest ? stackConfig(ALONE_INSTANCE) : undefined
  // dev, alone, test, the e2e stacks and the extra instances (the supervisor test's) of this port base
  reserveStackPorts(...stackPortRange())
  process.env.STACK_INSTANCE = 'test'
  const stacks = [
    ...new Set([
      ...(['pgtap', 'vitest', 'deno'].some((suite) => wanted.has(suite)) ? [config] : []),
      ...(alone ? [alone] : []),
      ...(wanted.has('e2e') ? e2eConfigs : []),
    ]),
  ]
  const everyTestStack = [ALONE_INSTANCE, ...E2E_INSTANCES].map((instance) => stackConfig(instance))
  stopOnSignal(stacks)
  for (const stack of [config, ...everyTestStack]) {
    await stopBackground(stack)
    destroyCluster(stack)
  }
  const runStarted = Date.now()
  rmSync(TEST_SUMMARY_FILE, { force: true })
  // one after another: the builds share the prerender step's scratch folder
  for (const stack of stacks) await buildWeb(stack)
  const started = Date.now()
  await Promise.all(stacks.map((stack) => startBackground(stack, true)))
  console.log(
    `[test] Test stacks ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${stacks.map((stack) => `${stack.instance} ${stack.apiUrl}`).join(', ')}`,
  )
  const env = testEnv(config)
  const byName = new Map<string, SuiteResult>()
  const keep = (result: SuiteResult) => {
    byName.set(result.name, result)
  }
  // With vitest in three parts, the test stack's track is the node files only: pgTAP and deno go
  // to the `alone` stack, before and after the runner-alone files as they were on `test`.
  const testStackSuites = async () => {
    if (!alone && wanted.has('pgtap')) keep(await pgtapSuite(config, env))
    if (wanted.has('vitest')) {
      const projects = splitVitest ? VITEST_SPLIT.stack : vitestProjects(soak, files)
      keep(await vitestSuite(env, { name: 'vitest', projects, files }))
    }
    if (!alone && wanted.has('deno')) keep(await denoSuite(env))
  }
  const aloneStackSuites = async (stack: StackConfig) => {
    const aloneEnv = { ...testEnv(stack), STACK_INSTANCE: stack.instance }
    if (wanted.has('pgtap')) keep(await pgtapSuite(stack, aloneEnv))
    keep(await vitestSuite(env, { name: 'vitest web', projects: VITEST_SPLIT.web, files }))
    keep(await vitestSuite(aloneEnv, { name: 'vitest alone', projects: VITEST_SPLIT.alone, files }))
    if (wanted.has('deno')) keep(await denoSuite(aloneEnv))
  }
  const e2e = async () => {
    if (wanted.has('e2e')) keep(await e2eSuite(e2eConfigs))
  }
  try {
    if (tracks) {
      // Three tracks at once, each suite one after another on its track's stack: vitest's node
      // files on `test`; Playwright on stacks of its own; pgTAP, the web app's jsdom files (no
      // stack), the runner-alone files and deno on `alone`. So nothing a track does (runners
      // working every queue, the clock moved by days, the database restarted) reaches another's
      // data, and the tracks take about as long as each other (docs/benchmarks.md "npm test").
      await Promise.all([testStackSuites(), e2e(), alone ? aloneStackSuites(alone) : undefined])
    } else {
      await testStackSuites()
      await e2e()
    }
  } finally {
    if (!interrupted) await Promise.all(stacks.map((stack) => stopBackground(stack)))
  }
  // the suites were stopped, not finished: no results to give; stopOnSignal exits when all is down
  if (interrupted) return
  const results = ['pgTAP', 'vitest', 'vitest web', 'vitest alone', 'deno test', 'Playwright'].flatMap(
    (name) => byName.get(name) ?? [],
  )
  const failures = results.flatMap((r) => formatFailures(r.name, r.failures ?? []))
  if (failures.length > 0)
    console.log(`\nFailed tests (seed ${seed}, replay with ${replay}):\n${failures.join('\n')}`)
  const slowest = results
    .flatMap((r) => r.slowest ?? [])
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
    .slice(0, 10)
  if (slowest.length > 0)
    console.log(
      `\nSlowest vitest files:\n${slowest.map((f) => `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.file}`).join('\n')}`,
    )
  console.log('\nSuites:')
  for (const r of results) {
    console.log(
      `  ${r.name.padEnd(12)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed  ${r.seconds.toFixed(1)} s${r.note ? `  (${r.note})` : ''}`,
    )
  }
  const passed = results.reduce((sum, r) => sum + r.passed, 0)
  const failed = results.reduce((sum, r) => sum + r.failed, 0)
  const seconds = (Date.now() - runStarted) / 1000
  console.log(`  ${'all'.padEnd(12)} ${(seconds / 60).toFixed(1)} min with the build and the stack's start`)
  const summary: TestSummary = { seed, seconds, passed, failed, suites: results }
  mkdirSync(join(repoRoot, '.stack'), { recursive: true })
  writeFileSync(TEST_SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`)
  if (passed === 0 && failed === 0) {
    console.log('No test ran.')
    process.exitCode = 1
  } else if (failed > 0) {
    process.exitCode = 1
  }
  console.log(`${passed} passed, ${failed} failed`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    // a stack or build cut short by the stop: stopOnSignal exits when all is down
    if (interrupted) return
    console.error(error instanceof StackError ? `[test] ${error.message}` : error)
    console.log('0 passed, 1 failed')
    process.exit(1)
  })
}
