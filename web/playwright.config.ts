// End-to-end tests through the real local stack (gateway, auth, sandboxes) with Debian's Chromium.
// `npm test` starts a stack per worker (REACHFLOW_E2E_STACKS, below); run alone against `npm start`
// with WEB_URL=http://127.0.0.1:54323 SUPABASE_URL=http://127.0.0.1:54321 npx playwright test -c web/playwright.config.ts
import { defineConfig } from '@playwright/test'
import { E2E_STACKS_VARIABLE } from '../stack/src/config.ts'
import { TEST_SEED_VARIABLE, testSeed } from '../stack/src/test-seed.ts'

/**
 * `npm test` starts a stack per worker and lists their environments here. Each worker (and the
 * config is loaded again in each, with its index set) takes its own stack's before any spec reads
 * one, so a spec that starts a runner working every queue, moves a clock or changes the X site
 * never meets another worker's specs: nothing is shared but the machine.
 */
const stacks = JSON.parse(process.env[E2E_STACKS_VARIABLE] ?? '[]') as Record<string, string>[]
Object.assign(process.env, stacks[Number(process.env.TEST_PARALLEL_INDEX ?? 0)])

// Chosen here (unless REACHFLOW_TEST_SEED or `npm test` set it) so the workers draw from one seed;
// the config is loaded again in each worker, which then finds the seed in its environment.
if (!process.env[TEST_SEED_VARIABLE]) console.log(`[playwright] Seed ${testSeed()}`)

const jsonReport = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME

export default defineConfig({
  testDir: './e2e',
  // a file's tests run in order in one worker; by hand (no stacks listed) one worker on WEB_URL's stack
  fullyParallel: false,
  workers: Math.max(1, stacks.length),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: jsonReport ? [['list'], ['json', { outputFile: jsonReport }]] : [['list']],
  use: {
    baseURL: process.env.WEB_URL ?? 'http://127.0.0.1:54323',
    viewport: { width: 1280, height: 800 },
    // The app stops its animations for people who ask for less motion (src/index.css). An endless
    // one (a live figure's pulsing dot) otherwise keeps headless Chromium compositing in software at
    // about an eighth of a core for as long as a test waits on that page.
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
    // Without these an action or navigation that can never happen waits out the whole test and the
    // report says only "Test timeout exceeded"; with them it names the locator it was waiting for.
    actionTimeout: 90_000,
    navigationTimeout: 90_000,
  },
})
