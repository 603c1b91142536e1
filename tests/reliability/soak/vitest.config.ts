import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// `npm run soak` only: the long fuzz runs and the faults that would disturb other suites (a database
// restart, a full disk), against the soak's own stack instance. Never part of `npm test`.
export default defineConfig({
  test: {
    name: 'soak',
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    environment: 'node',
    include: ['tests/reliability/soak/*.soak.ts', 'tests/reliability/fuzz-*.test.ts'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
  },
})
