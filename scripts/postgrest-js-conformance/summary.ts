// The conformance score from vitest's JSON report: the tests that reached the gateway and how many
// passed. A test file that fails to load has no tests in the report, so it is counted (and listed)
// as a failure of its own; and vitest's exit status is the run's, so a broken run is never a score.

export interface JsonReport {
  testResults: {
    name: string
    /** 'failed' with no assertion results: the file did not load (its error in `message`). */
    status?: string
    message?: string
    assertionResults: { ancestorTitles: string[]; title: string; status: string; failureMessages: string[] }[]
  }[]
}

export interface Summary {
  lines: string[]
  /** vitest's status, or 1 when it had none (killed) or a file failed to load. */
  exitCode: number
}

export function summarise(
  report: JsonReport,
  reached: ReadonlySet<string>,
  vitestStatus: number | null,
): Summary {
  let total = 0
  let passed = 0
  const failed: string[] = []
  const unloaded: string[] = []
  for (const file of report.testResults) {
    const name = file.name.split('/').pop() ?? file.name
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      unloaded.push(`${name}: failed to load (${(file.message ?? 'no message').split('\n')[0]})`)
      continue
    }
    for (const test of file.assertionResults) {
      if (!reached.has(JSON.stringify([...test.ancestorTitles, test.title]))) continue
      total++
      if (test.status === 'passed') passed++
      else failed.push(`${name}: ${[...test.ancestorTitles, test.title].join(' > ')}`)
    }
  }
  const all = report.testResults.flatMap((f) => f.assertionResults)
  const counted = total + unloaded.length
  return {
    lines: [
      `${all.length} tests in the suite, ${all.filter((t) => t.status === 'passed').length} passed${unloaded.length ? `; ${unloaded.length} file(s) did not load` : ''}`,
      `reached the gateway: ${counted}; passed ${passed} (${((100 * passed) / Math.max(counted, 1)).toFixed(1)} %)`,
      ...unloaded.map((line) => `  failed: ${line}`),
      ...failed.map((line) => `  failed: ${line}`),
    ],
    exitCode: vitestStatus === null ? 1 : vitestStatus || (unloaded.length > 0 ? 1 : 0),
  }
}
