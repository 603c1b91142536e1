// The environment every suite runs with against a test instance: the seed, the functions' and the
// services' variables, and where the web app and the stack's status are. `npm test` gives it to the
// suites; `stack/src/cli.ts env` prints it for one test file run against an instance started by hand.
import type { StackConfig } from './config.ts'
import { functionsEnv } from './functions-env.ts'
import { sharedEnv } from './services.ts'
import { TEST_SEED_VARIABLE, testSeed } from './test-seed.ts'

export function testEnv(config: StackConfig): Record<string, string> {
  return {
    [TEST_SEED_VARIABLE]: String(testSeed()),
    ...functionsEnv(config),
    ...sharedEnv(config),
    WEB_URL: config.webUrl,
    STACK_STATUS_FILE: config.statusFile,
    PGPASSWORD: 'postgres',
  }
}
