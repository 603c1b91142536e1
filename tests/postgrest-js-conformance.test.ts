// The conformance run's score (scripts/postgrest-js-conformance/summary.ts): only tests that reached
// the gateway count, a test file that failed to load counts as a failure instead of vanishing, and
// the run's exit status is vitest's.
import { describe, expect, it } from 'vitest'
import { type JsonReport, summarise } from '../scripts/postgrest-js-conformance/summary.ts'

const test = (title: string, status: string) => ({
  ancestorTitles: ['basic'],
  title,
  status,
  failureMessages: [],
})
const reached = new Set([JSON.stringify(['basic', 'reads']), JSON.stringify(['basic', 'writes'])])

describe('the conformance summary', () => {
  it('counts the tests that reached the gateway', () => {
    const report: JsonReport = {
      testResults: [
        {
          name: '/x/test/basic.test.ts',
          status: 'failed',
          assertionResults: [
            test('reads', 'passed'),
            test('writes', 'failed'),
            test('builds a URL', 'passed'),
          ],
        },
      ],
    }
    expect(summarise(report, reached, 1)).toEqual({
      lines: [
        '3 tests in the suite, 2 passed',
        'reached the gateway: 2; passed 1 (50.0 %)',
        '  failed: basic.test.ts: basic > writes',
      ],
      exitCode: 1,
    })
  })

  it('a file that failed to load is a failure, not a smaller total', () => {
    const report: JsonReport = {
      testResults: [
        { name: '/x/test/basic.test.ts', status: 'passed', assertionResults: [test('reads', 'passed')] },
        {
          name: '/x/test/types.test.ts',
          status: 'failed',
          message: 'Failed to load url ./types.generated\nat …',
          assertionResults: [],
        },
      ],
    }
    const summary = summarise(report, reached, 1)
    expect(summary.lines).toEqual([
      '1 tests in the suite, 1 passed; 1 file(s) did not load',
      'reached the gateway: 2; passed 1 (50.0 %)',
      '  failed: types.test.ts: failed to load (Failed to load url ./types.generated)',
    ])
    expect(summary.exitCode).toBe(1)
  })

  it("the exit status is vitest's: 0 only when vitest passed, 1 when it had none", () => {
    const clean: JsonReport = {
      testResults: [
        { name: '/x/test/basic.test.ts', status: 'passed', assertionResults: [test('reads', 'passed')] },
      ],
    }
    expect(summarise(clean, reached, 0).exitCode).toBe(0)
    expect(summarise(clean, reached, 2).exitCode).toBe(2)
    expect(summarise(clean, reached, null).exitCode).toBe(1)
  })
})
