// Each suite's failures with what they said: the test's name, where it failed (file:line) and the
// first lines of its assertion or error, read from pg_prove's TAP, vitest's and Playwright's JSON
// reports and deno test's ERRORS section. `npm test` prints them at the end of a long log, so the
// reader of a CI failure can act on it without running anything again.
import { relative } from 'node:path'

export interface TestFailure {
  /** The test's name as its runner reports it (file › suite › test for vitest). */
  name: string
  /** file:line of the failing assertion or test, relative to the repository, when known. */
  where?: string
  /** The first lines of the message: what was expected and what came. */
  explanation: string[]
  /** How long the test ran before it failed, when its runner says. */
  durationMs?: number
}

/** How many lines of a message are kept, and how long each may be. */
const EXPLANATION_LINES = 6
const LINE_CHARS = 240

// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI escape starts with ESC
const ANSI = /\u001b\[[0-9;]*m/g
const STACK_FRAME = /^\s*at\s/

/** The message's first meaningful lines: no colours, stack frames, blank lines or source carets. */
export function explanationOf(message: string): string[] {
  return message
    .replace(ANSI, '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !STACK_FRAME.test(line) && !/^\s*\^+\s*$/.test(line))
    .slice(0, EXPLANATION_LINES)
    .map((line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line.trimEnd()))
}

/** The first stack frame in `file` (or in any test file), as repository-relative file:line. */
export function locationIn(stack: string, root: string, file?: string): string | undefined {
  const frames = [...stack.replace(ANSI, '').matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):\d+/g)]
  const frame =
    frames.find((m) => m[1] === file) ?? frames.find((m) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(m[1] ?? ''))
  return frame ? `${relative(root, frame[1] ?? '')}:${frame[2]}` : undefined
}

/**
 * pg_prove --verbose: each file starts with "path.test.sql ..", a failed test is "not ok N - name"
 * followed by pgTAP's "#" diagnostics (have/want). A file that died says "Dubious" after its header;
 * psql's "psql:path:line: ERROR: …" names the file itself (it comes on stderr, in any order).
 */
export function pgtapFailures(output: string, root: string): TestFailure[] {
  const lines = output.replace(ANSI, '').split('\n')
  const failures: TestFailure[] = []
  const died = new Set<string>()
  let file = ''
  let current: TestFailure | undefined
  for (const line of lines) {
    const header = line.match(/^(\S+\.test\.sql) \.\./)
    if (header) {
      file = header[1] ?? ''
      current = undefined
      continue
    }
    const notOk = line.match(/^\s*not ok (\d+)(?: - (.*))?$/)
    if (notOk) {
      const where = relative(root, file)
      current = { name: `${where} #${notOk[1]} ${notOk[2] ?? ''}`.trim(), where, explanation: [] }
      failures.push(current)
      continue
    }
    if (/^\s*ok \d+/.test(line)) current = undefined
    if (/^(Dubious|Parse errors|No subtests run)/.test(line.trim()) && file) died.add(file)
    const comment = line.match(/^\s*# ?(.*)$/)
    const text = (comment?.[1] ?? '').trimEnd()
    if (current && text && !/^(Failed test \d+|Looks like you)/.test(text.trim()))
      if (current.explanation.length < EXPLANATION_LINES) current.explanation.push(text)
  }
  for (const path of died) {
    const where = relative(root, path)
    if (failures.some((f) => f.where === where)) continue
    const errors = lines.filter((line) => line.startsWith(`psql:${path}:`)).map((line) => line.trim())
    failures.push({
      name: `${where} (did not finish)`,
      where,
      explanation: errors.length ? errors : ['died before its plan'],
    })
  }
  return failures
}

interface VitestReport {
  testResults?: {
    name: string
    message?: string
    status?: string
    assertionResults?: {
      fullName: string
      status: string
      duration?: number | null
      failureMessages?: string[]
      location?: { line: number } | null
    }[]
  }[]
}

/** vitest's JSON report: every failed test, or the file's own error when it failed to load/run. */
export function vitestFailures(report: VitestReport, root: string): TestFailure[] {
  return (report.testResults ?? []).flatMap((file) => {
    const path = relative(root, file.name)
    const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed')
    if (tests.length > 0)
      return tests.map((t) => {
        const message = (t.failureMessages ?? []).join('\n')
        return {
          name: `${path} › ${t.fullName}`,
          where: locationIn(message, root, file.name) ?? (t.location ? `${path}:${t.location.line}` : path),
          explanation: explanationOf(message),
          ...(t.duration != null ? { durationMs: Math.round(t.duration) } : {}),
        }
      })
    if (file.status !== 'failed') return []
    const message = file.message ?? 'failed'
    return [
      {
        name: path,
        where: locationIn(message, root, file.name) ?? path,
        explanation: explanationOf(message),
      },
    ]
  })
}

/** deno test's ERRORS section: "name => ./file.ts:line:col", then "error: …" and its stack. */
export function denoFailures(output: string): TestFailure[] {
  const plain = output.replace(ANSI, '')
  const start = plain.search(/^ ERRORS $/m)
  if (start < 0) return []
  const end = plain.slice(start).search(/^ FAILURES $/m)
  const section = plain
    .slice(start, end < 0 ? undefined : start + end)
    .split('\n')
    .slice(1)
  const failures: TestFailure[] = []
  let body: string[] = []
  const flush = () => {
    const last = failures.at(-1)
    if (last) last.explanation = explanationOf(body.join('\n').replace(/^error: /, ''))
    body = []
  }
  for (const line of section) {
    const header = line.match(/^(.+) => \.\/(\S+):(\d+):\d+$/)
    if (header) {
      flush()
      failures.push({ name: header[1] ?? '', where: `${header[2]}:${header[3]}`, explanation: [] })
    } else body.push(line)
  }
  flush()
  return failures
}

interface PlaywrightError {
  message?: string
  location?: { file: string; line: number }
}

export interface PlaywrightSuite {
  title?: string
  specs?: {
    title: string
    file: string
    line: number
    tests?: {
      status: string
      results?: { status?: string; duration?: number; errors?: PlaywrightError[]; error?: PlaywrightError }[]
    }[]
  }[]
  suites?: PlaywrightSuite[]
}

/** Playwright's JSON report: each unexpected or flaky spec with its last failed attempt's error. */
export function playwrightFailures(suites: PlaywrightSuite[], root: string, testDir: string): TestFailure[] {
  return suites.flatMap(function walk(suite): TestFailure[] {
    const own = (suite.specs ?? []).flatMap((spec) => {
      const test = spec.tests?.find((t) => t.status === 'unexpected' || t.status === 'flaky')
      if (!test) return []
      const failed = [...(test.results ?? [])].reverse().find((r) => r.errors?.length || r.error)
      const error = failed?.errors?.[0] ?? failed?.error
      const file = relative(root, `${testDir}/${spec.file}`)
      return [
        {
          name: `${file}:${spec.line} › ${spec.title}${test.status === 'flaky' ? ' (failed, then passed on retry)' : ''}`,
          where: error?.location
            ? `${relative(root, error.location.file)}:${error.location.line}`
            : `${file}:${spec.line}`,
          explanation: explanationOf(error?.message ?? failed?.status ?? 'failed'),
          ...(failed?.duration !== undefined ? { durationMs: failed.duration } : {}),
        },
      ]
    })
    return [...own, ...(suite.suites ?? []).flatMap(walk)]
  })
}

/** The end-of-run listing: one block per failure, its place and its explanation indented below. */
export function formatFailures(suite: string, failures: TestFailure[]): string[] {
  return failures.flatMap((f) => [
    `  ${suite}: ${f.name}`,
    ...(f.where ? [`      at ${f.where}`] : []),
    ...f.explanation.map((line) => `      | ${line}`),
  ])
}
