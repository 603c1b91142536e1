// `npm run soak`: the reliability suite's long runs on their own stack instance (`soak`): both fuzzers
// at 10,000 cases over HTTP (RELIABILITY_FUZZ_RUNS), and the faults `npm test` cannot inject without
// failing the suites beside it: a database restart under writes, and a full disk under uploads.
// Ends with the vitest summary; figures go to docs/reliability.md by hand.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { startBackground, stopBackground } from '../stack/src/cli.ts'
import { repoRoot, stackConfig } from '../stack/src/config.ts'
import { testEnv } from '../stack/src/test-env.ts'

async function main(): Promise<void> {
  const config = stackConfig('soak')
  console.log(`[soak] starting the ${config.instance} instance at ${config.apiUrl}`)
  await startBackground(config, true)
  let status = 1
  try {
    const result = spawnSync(
      join(repoRoot, 'node_modules', '.bin', 'vitest'),
      ['run', '--config', 'tests/reliability/soak/vitest.config.ts'],
      {
        cwd: repoRoot,
        stdio: 'inherit',
        env: {
          ...process.env,
          ...testEnv(config),
          STACK_INSTANCE: config.instance,
          RELIABILITY_FUZZ_RUNS: process.env.RELIABILITY_FUZZ_RUNS ?? '10000',
        },
      },
    )
    status = result.status ?? 1
  } finally {
    await stopBackground(config)
  }
  process.exit(status)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
