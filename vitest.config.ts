import { defineConfig } from 'vitest/config'
import { SHARED_PACKAGES } from './scripts/aliases/list.ts'
import { testSeed } from './stack/src/test-seed.ts'
import { packageAliases } from './web/vite.config.ts'

// Chosen here (unless REACHFLOW_TEST_SEED or `npm test` set it) so every worker draws from one seed.
console.log(`[vitest] Seed ${testSeed()}`)

// One vitest run covers the Node side (stack, runner, integration suites against the test stack)
// and the web app's unit and component tests (jsdom). `npm test` starts the stack first.
/**
 * chromium-bidi answers a request paused in a context that is closing with a promise nobody awaits;
 * the browser has already turned interception off, so it rejects "Fetch domain is not enabled".
 * The runner process logs such rejections and carries on (runner/src/main.ts); a test run must not
 * fail on that one library-internal race either. Every other unhandled error still fails the run.
 */
const CHROMIUM_BIDI_CLOSING_RACE = /^Protocol error \(Fetch\.\w+\): Fetch domain is not enabled$/

/**
 * Files of the node and web projects run at once (runner-alone's always one at a time). vitest's
 * default is one less than the cores: a single file at a time on a 2-vCPU machine, though most
 * node files wait on browsers, sandboxes and the database rather than the CPU.
 */
const workers = Number(process.env.REACHFLOW_VITEST_WORKERS) || undefined

/**
 * Endurance runs (hundreds of DMs through SIGKILLs, a fleet of runners, X hanging for minutes): the
 * `soak` project, which `npm run test:soak` runs and `npm test` leaves out (`--project=!soak`); a
 * shorter test in `npm test` guards each behaviour they check (docs/operations.md).
 */
const SOAK_FILES = ['runner/test/**/*.soak.test.ts', 'tests/**/*.soak.test.ts', 'stack/**/*.soak.test.ts']

export default defineConfig({
  test: {
    ...(workers ? { maxWorkers: workers } : {}),
    onUnhandledError: (error) => !CHROMIUM_BIDI_CLOSING_RACE.test(error.message ?? ''),
    projects: [
      {
        // Runner and stack code import the shared packages, which tsx finds through tsconfig.json's paths.
        resolve: { alias: packageAliases(SHARED_PACKAGES) },
        test: {
          name: 'node',
          environment: 'node',
          include: ['stack/**/*.test.ts', 'runner/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [
            '**/node_modules/**',
            'runner/test/alone/**',
            'tests/reliability/alone/**',
            'stack/gateway/test/alone/**',
            ...SOAK_FILES,
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: packageAliases(SHARED_PACKAGES) },
        // Runner processes working every queue, the test clock moved by days, crashes under load, the
        // gateway's `pgrst.*` role settings: one file at a time, so nothing else runs while they own
        // the stack. `npm test` gives them a stack of their own (`alone`), after the web files; with
        // REACHFLOW_TEST_TRACKS=0 they run after every other file on the test stack.
        test: {
          name: 'runner-alone',
          environment: 'node',
          include: [
            'runner/test/alone/**/*.test.ts',
            'tests/reliability/alone/**/*.test.ts',
            'stack/gateway/test/alone/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', ...SOAK_FILES],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias: packageAliases(SHARED_PACKAGES) },
        // As runner-alone: each owns the runner processes and the queues, so one file at a time, last.
        test: {
          name: 'soak',
          environment: 'node',
          include: SOAK_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/testing/setup.ts'],
          // Rendering whole pages in jsdom takes seconds when the machine is busy.
          testTimeout: 30_000,
          // Component tests never reach a server: the client only needs a syntactically valid config.
          env: { VITE_SUPABASE_URL: 'http://127.0.0.1:9', VITE_SUPABASE_ANON_KEY: 'unit-test-anon-key' },
        },
      },
    ],
  },
})
