// vitest in place of the Jest setup of postgrest-js: one file at a time, in alphabetical order (its
// test/testSequencer.js; the files share one database), 30 s per test; setup.ts stands in for Jest's
// globals. run.ts passes the root.
import { fileURLToPath } from 'node:url'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

class Alphabetical extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId))
  }
}

export default {
  test: {
    globals: true,
    include: ['test/*.test.ts'],
    setupFiles: [fileURLToPath(new URL('./setup.ts', import.meta.url))],
    fileParallelism: false,
    sequence: { shuffle: false, sequencer: Alphabetical },
    testTimeout: 30_000,
  },
}
