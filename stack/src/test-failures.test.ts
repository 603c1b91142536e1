// The end of `npm test` names each failure with its place and first message lines, for every
// suite's own output format (samples as pg_prove 3, vitest 4, deno 2 and Playwright 1.65 write them).
import { describe, expect, it } from 'vitest'
import {
  denoFailures,
  explanationOf,
  formatFailures,
  pgtapFailures,
  playwrightFailures,
  vitestFailures,
} from './test-failures.ts'

const ROOT = '/repo'

describe('pgTAP', () => {
  it('names the file and test number and keeps the have/want diagnostics', () => {
    const output = [
      '/repo/supabase/tests/database/62-a.test.sql .. ',
      '1..2',
      'ok 1 - first',
      'ok 2 - second',
      'ok',
      '/repo/supabase/tests/database/63-instagram-inbox.test.sql .. ',
      '1..21',
      'ok 19 - the runner claims the answer',
      'not ok 20 - the echo and the answer are one message, sent',
      '# Failed test 20: "the echo and the answer are one message, sent"',
      '#     Results differ beginning at row 1:',
      '#         have: (reachflow,sent,id:mid-c3)',
      '#         want: (platform,sent,id:mid-c1)',
      '# Looks like you failed 1 test of 21',
      'ok 21 - a failed answer is not queued again',
    ].join('\n')
    expect(pgtapFailures(output, ROOT)).toEqual([
      {
        name: 'supabase/tests/database/63-instagram-inbox.test.sql #20 the echo and the answer are one message, sent',
        where: 'supabase/tests/database/63-instagram-inbox.test.sql',
        explanation: [
          '    Results differ beginning at row 1:',
          '        have: (reachflow,sent,id:mid-c3)',
          '        want: (platform,sent,id:mid-c1)',
        ],
      },
    ])
  })

  it('reports a file that died before its plan with psql’s error', () => {
    // psql's error (stderr) comes before the file's header here, as a pipe may deliver it
    const output = [
      'psql:/repo/supabase/tests/database/10-x.test.sql:12: ERROR:  relation "nope" does not exist',
      'LINE 1: select * from nope;',
      '/repo/supabase/tests/database/10-x.test.sql .. ',
      '1..5',
      'ok 1 - one',
      'Dubious, test returned 3 (wstat 768, 0x300)',
      '/repo/supabase/tests/database/11-y.test.sql .. ',
      '1..1',
      'ok 1 - fine',
    ].join('\n')
    expect(pgtapFailures(output, ROOT)).toEqual([
      {
        name: 'supabase/tests/database/10-x.test.sql (did not finish)',
        where: 'supabase/tests/database/10-x.test.sql',
        explanation: [
          'psql:/repo/supabase/tests/database/10-x.test.sql:12: ERROR:  relation "nope" does not exist',
        ],
      },
    ])
  })
})

describe('vitest', () => {
  it('gives each failed test its assertion and the line in its own file', () => {
    const report = {
      testResults: [
        {
          name: '/repo/runner/test/x.test.ts',
          status: 'failed',
          assertionResults: [
            { fullName: 'x sends', status: 'passed' },
            {
              fullName: 'x stalls',
              status: 'failed',
              failureMessages: [
                'AssertionError: expected 2 to be 3 // Object.is equality\n\n- Expected\n+ Received\n\n- 3\n+ 2\n    at /repo/runner/test/helpers/wait.ts:9:11\n    at /repo/runner/test/x.test.ts:42:7',
              ],
            },
          ],
        },
        {
          name: '/repo/stack/y.test.ts',
          status: 'failed',
          message: 'Hook timed out in 60000ms.',
          assertionResults: [],
        },
      ],
    }
    expect(vitestFailures(report, ROOT)).toEqual([
      {
        name: 'runner/test/x.test.ts › x stalls',
        where: 'runner/test/x.test.ts:42',
        explanation: [
          'AssertionError: expected 2 to be 3 // Object.is equality',
          '- Expected',
          '+ Received',
          '- 3',
          '+ 2',
        ],
      },
      { name: 'stack/y.test.ts', where: 'stack/y.test.ts', explanation: ['Hook timed out in 60000ms.'] },
    ])
  })
})

describe('deno', () => {
  it('reads the ERRORS section: name, file:line, the error without its stack', () => {
    const output = [
      'running 3 tests from ./supabase/functions/api/a.test.ts',
      'adds up ... FAILED (1ms)',
      '',
      ' ERRORS ',
      '',
      'adds up => ./supabase/functions/api/a.test.ts:2:6',
      'error: AssertionError: Values are not equal.',
      '',
      '    [Diff] Actual / Expected',
      '',
      '-   2',
      '+   3',
      '    at assertEquals (file:///repo/a.test.ts:1:68)',
      '',
      'group ... inner step => ./supabase/functions/_shared/b.test.ts:1:43',
      'error: TypeError: inner bad',
      "Deno.test('group', async (t) => { throw new TypeError('inner bad') })",
      '                                        ^',
      '    at file:///repo/b.test.ts:1:76',
      '',
      ' FAILURES ',
      '',
      'adds up => ./supabase/functions/api/a.test.ts:2:6',
      '',
      'FAILED | 1 passed | 2 failed (120ms)',
    ].join('\n')
    expect(denoFailures(output)).toEqual([
      {
        name: 'adds up',
        where: 'supabase/functions/api/a.test.ts:2',
        explanation: [
          'AssertionError: Values are not equal.',
          '    [Diff] Actual / Expected',
          '-   2',
          '+   3',
        ],
      },
      {
        name: 'group ... inner step',
        where: 'supabase/functions/_shared/b.test.ts:1',
        explanation: [
          'TypeError: inner bad',
          "Deno.test('group', async (t) => { throw new TypeError('inner bad') })",
        ],
      },
    ])
  })
})

describe('Playwright', () => {
  it('takes the failed attempt’s error and where it was raised', () => {
    const suites = [
      {
        title: 'inbox.spec.ts',
        specs: [],
        suites: [
          {
            title: 'inbox',
            specs: [
              { title: 'passes', file: 'inbox.spec.ts', line: 5, tests: [{ status: 'expected' }] },
              {
                title: 'a reply arrives',
                file: 'inbox.spec.ts',
                line: 40,
                tests: [
                  {
                    status: 'unexpected',
                    results: [
                      {
                        status: 'failed',
                        errors: [
                          {
                            message:
                              '\u001b[31mError: expect(locator).toHaveText(expected)\u001b[39m\n\nExpected: "3"\nReceived: "2"\n    at /repo/web/e2e/inbox.spec.ts:77:5',
                            location: { file: '/repo/web/e2e/inbox.spec.ts', line: 77 },
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ]
    expect(playwrightFailures(suites, ROOT, '/repo/web/e2e')).toEqual([
      {
        name: 'web/e2e/inbox.spec.ts:40 › a reply arrives',
        where: 'web/e2e/inbox.spec.ts:77',
        explanation: ['Error: expect(locator).toHaveText(expected)', 'Expected: "3"', 'Received: "2"'],
      },
    ])
  })
})

describe('the listing', () => {
  it('puts the place and the explanation under each name; long lines are cut', () => {
    const long = 'x'.repeat(500)
    expect(explanationOf(long)[0]).toHaveLength(240)
    expect(
      formatFailures('vitest', [{ name: 'a › b', where: 'a.test.ts:3', explanation: ['boom'] }]),
    ).toEqual(['  vitest: a › b', '      at a.test.ts:3', '      | boom'])
  })
})
