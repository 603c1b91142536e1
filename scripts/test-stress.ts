// `npm run test:stress -- [runs]`: `npm test` (or the suites and files named by REACHFLOW_SUITES,
// REACHFLOW_VITEST_FILES, REACHFLOW_E2E_FILES; `npm run test:soak` with REACHFLOW_TEST_SOAK=1)
// several times in a row while a second process keeps one core busy, as a loaded CI machine would.
// Each run draws a fresh seed (or replays REACHFLOW_TEST_SEED every time) and is appended to
// tests/flake-log.jsonl: date, commit, seed, the suites' and the slowest files' durations, and every
// failure with its name, place, duration and explanation.
// Exits non-zero when any run failed. Ctrl-C or SIGTERM stops the run in progress, its suites and
// its stacks, and logs nothing for it.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../stack/src/config.ts'
import { parallelTracks, soakRun, TEST_SUMMARY_FILE, type TestSummary } from '../stack/src/test-all.ts'
import { TEST_SEED_VARIABLE } from '../stack/src/test-seed.ts'

const FLAKE_LOG = join(repoRoot, 'tests', 'flake-log.jsonl')

/** One line of the flake log: a whole run of `npm test` under load. */
interface FlakeLogEntry {
  date: string
  commit: string
  run: string
  seed: number | null
  busyCore: boolean
  /** the suites on three tracks at once (the default) or one at a time (REACHFLOW_TEST_TRACKS=0) */
  tracks: boolean
  suites: string
  files: string
  minutes: number
  passed: number
  failed: number
  suiteSeconds: Record<string, number>
  slowestFiles: { file: string; seconds: number }[]
  failures: { suite: string; name: string; where?: string; durationMs?: number; explanation: string[] }[]
}

function runsWanted(): number {
  const raw = process.argv[2] ?? process.env.REACHFLOW_STRESS_RUNS ?? '5'
  const runs = Number(raw)
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`The number of runs must be a positive integer, not "${raw}"`)
  return runs
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot }).toString().trim()
    // the log's own new lines are not a change to the code under test
    const dirty = execFileSync(
      'git',
      ['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)tests/flake-log.jsonl'],
      { cwd: repoRoot },
    )
    return dirty.length > 0 ? `${head}+changes` : head
  } catch {
    return 'unknown'
  }
}

/** A process that spins one core until it is stopped: the load a shared CI machine adds. */
function busyCore(): () => void {
  const spinner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
  const stop = () => {
    spinner.kill('SIGKILL')
  }
  // an interrupted stress run must not leave the spinner behind
  process.once('exit', stop)
  return stop
}

/** The `npm test` running now, if any, and the signal that stopped the stress run. */
let currentRun: ChildProcess | undefined
let interruptedBy: NodeJS.Signals | undefined

const exitFor = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143)

/**
 * Stopping the stress run stops the `npm test` it is in (which stops its suites and stacks) and
 * waits for it, then exits without a log line: an interrupted run is neither a pass nor a flake.
 */
function stopOnSignal(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      // Ctrl-C reaches this process and its tsx, which relays it: the second is the same request
      if (interruptedBy) return
      interruptedBy = signal
      if (!currentRun) exitFor(signal)
      console.log(`\n[stress] ${signal}: stopping the run in progress`)
      currentRun?.kill(signal)
    })
}

/** One `npm test` run; its output goes straight through, its results come from the summary file. */
function testRun(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['stack/src/test-all.ts'], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: process.env,
    })
    currentRun = child
    child.on('close', (code) => {
      currentRun = undefined
      if (interruptedBy) exitFor(interruptedBy)
      resolve(code ?? 1)
    })
  })
}

function readSummary(): TestSummary | undefined {
  if (!existsSync(TEST_SUMMARY_FILE)) return undefined
  return JSON.parse(readFileSync(TEST_SUMMARY_FILE, 'utf8')) as TestSummary
}

function logEntry(
  summary: TestSummary | undefined,
  run: string,
  exitCode: number,
  startedAt: Date,
): FlakeLogEntry {
  const minutes = Math.round(((Date.now() - startedAt.getTime()) / 60_000) * 10) / 10
  const failures = (summary?.suites ?? []).flatMap((suite) =>
    (suite.failures ?? []).map((f) => ({ suite: suite.name, ...f })),
  )
  if (!summary || (exitCode !== 0 && failures.length === 0))
    failures.push({
      suite: 'npm test',
      name: 'the run itself',
      explanation: [`exited with code ${exitCode} before it listed any failed test (see its output)`],
    })
  return {
    date: startedAt.toISOString(),
    commit: commit(),
    run,
    seed: summary?.seed ?? null,
    busyCore: true,
    tracks: parallelTracks(),
    suites: soakRun() ? 'soak' : (process.env.REACHFLOW_SUITES ?? 'pgtap,vitest,deno,e2e'),
    files: [process.env.REACHFLOW_VITEST_FILES, process.env.REACHFLOW_E2E_FILES].filter(Boolean).join(' '),
    minutes,
    passed: summary?.passed ?? 0,
    failed: Math.max(summary?.failed ?? 0, failures.length),
    suiteSeconds: Object.fromEntries((summary?.suites ?? []).map((s) => [s.name, Math.round(s.seconds)])),
    slowestFiles: (summary?.suites ?? []).flatMap((s) => s.slowest ?? []),
    failures,
  }
}

async function main(): Promise<void> {
  const runs = runsWanted()
  const replay = process.env[TEST_SEED_VARIABLE]
  console.log(
    `[stress] ${runs} run(s) with one core kept busy${replay ? `, each with seed ${replay}` : ', a fresh seed each'}; log: ${FLAKE_LOG}`,
  )
  const stopSpinning = busyCore()
  stopOnSignal()
  const entries: FlakeLogEntry[] = []
  try {
    for (let i = 1; i <= runs; i++) {
      // each run picks its own seed unless one was given to replay
      if (!replay) delete process.env[TEST_SEED_VARIABLE]
      const startedAt = new Date()
      console.log(`\n[stress] run ${i} of ${runs}, ${startedAt.toISOString()}`)
      const exitCode = await testRun()
      const entry = logEntry(readSummary(), `${i}/${runs}`, exitCode, startedAt)
      appendFileSync(FLAKE_LOG, `${JSON.stringify(entry)}\n`)
      entries.push(entry)
    }
  } finally {
    stopSpinning()
  }
  console.log('\n[stress] Runs:')
  for (const e of entries)
    console.log(
      `  ${e.run.padEnd(6)} seed ${String(e.seed).padEnd(11)} ${String(e.minutes).padStart(5)} min  ${e.passed} passed, ${e.failed} failed`,
    )
  const failures = entries.flatMap((e) =>
    e.failures.map(
      (f) =>
        `  run ${e.run} (seed ${e.seed}) ${f.suite}: ${f.name}${f.durationMs !== undefined ? ` after ${(f.durationMs / 1000).toFixed(1)} s` : ''}${f.where ? ` at ${f.where}` : ''}${f.explanation[0] ? `\n      | ${f.explanation[0]}` : ''}`,
    ),
  )
  if (failures.length > 0) console.log(`\n[stress] Failures:\n${failures.join('\n')}`)
  const passedRuns = entries.filter((e) => e.failed === 0).length
  console.log(`\n[stress] ${passedRuns} of ${runs} runs passed`)
  if (passedRuns < runs) process.exitCode = 1
}

if (process.argv[1]?.endsWith('test-stress.ts')) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
