// scripts/cpu-by-process.ts names each process's kind from its command line (and, for Chromium,
// its browser's): the figures in docs/benchmarks.md depend on these names being right.
import { describe, expect, it } from 'vitest'
import { processKind } from '../scripts/cpu-by-process.ts'

const playwrightBrowser =
  '/usr/lib/chromium/chromium --disable-field-trial-config --user-data-dir=/tmp/playwright_chromiumdev_profile-AbC --remote-debugging-pipe'
const runnerBrowser =
  '/usr/lib/chromium/chromium --no-sandbox --disable-gpu --user-data-dir=/tmp/reachflow-chromium-XyZ --remote-debugging-pipe'

describe('processKind', () => {
  it("tells Playwright's Chromium from the runners' by the browser, and names the process type", () => {
    expect(processKind(playwrightBrowser)).toBe('chromium (Playwright) browser')
    expect(processKind(runnerBrowser)).toBe('chromium (runners) browser')
    // children name the crash handler's pid: that does not make them the crash handler
    const renderer = '/usr/lib/chromium/chromium --type=renderer --crashpad-handler-pid=27463 --lang=en-US'
    expect(processKind(renderer, playwrightBrowser)).toBe('chromium (Playwright) renderer')
    expect(processKind(renderer, runnerBrowser)).toBe('chromium (runners) renderer')
    expect(processKind('/usr/lib/chromium/chromium --type=gpu-process', runnerBrowser)).toBe(
      'chromium (runners) gpu-process',
    )
    expect(processKind('/usr/lib/chromium/chrome_crashpad_handler --monitor-self')).toBe('chromium crashpad')
  })

  it('names the stack, the test runners and the load', () => {
    expect(processKind('/usr/lib/postgresql/15/bin/postgres -D /work/.stack/test/db')).toBe('postgres')
    expect(processKind('postgres: checkpointer')).toBe('postgres')
    expect(processKind('/work/node_modules/deno/deno run --allow-net main.ts')).toBe('deno')
    expect(processKind('/work/node_modules/node/bin/node -e for (;;) {}')).toBe('busy core (test:stress)')
    expect(processKind('node /work/node_modules/vitest/dist/workers/forks.js')).toBe('vitest')
    expect(processKind('node /work/node_modules/.bin/tsx /work/stack/gateway/src/main.ts')).toBe('gateway')
    expect(processKind('node /work/node_modules/.bin/tsx /work/stack/sandbox/x/main.ts')).toBe('sandboxes')
    expect(processKind('node --import tsx /work/runner/src/main.ts')).toBe('runner processes')
    expect(processKind('')).toBe('kernel threads')
    expect(processKind('/usr/bin/bash -c something')).toBe('other (bash)')
  })
})
