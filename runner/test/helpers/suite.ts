// The frame every browser suite of the runner shares: one test runner (database pool, Chromium,
// leases, sessions) for the file, closed after it, and fresh sandbox recipients for each test from
// the file's own range of profiles (tests run concurrently and must not message the same people).
import { relative } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { repoRoot } from '../../../stack/src/config.ts'
import { testInt } from '../../../stack/src/test-seed.ts'
import { type TestRunner, testRunner } from './context.ts'
import { closeAdminDb } from './fixtures.ts'
import { openProfiles, type SandboxAdmin, type SandboxProfile } from './sandbox.ts'

export interface BrowserSuite {
  /** The suite's runner (from beforeAll on). */
  readonly runner: TestRunner
  /** `count` messageable profiles nobody else in this run was given. */
  people(count: number): Promise<SandboxProfile[]>
}

/** Registers the suite's beforeAll/afterAll; its recipients start at a random point after `firstProfile`. */
export function browserSuite(x: SandboxAdmin, firstProfile: number): BrowserSuite {
  let runner: TestRunner | undefined
  let offset = 0
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires a hook's first parameter (its fixtures) to be a destructuring
  beforeAll(async ({}, suite) => {
    runner = await testRunner()
    // drawn per file: two files starting at the same profile still get their own offsets
    offset = firstProfile + testInt(`people for ${relative(repoRoot, suite.file.filepath)}`, 1500)
  })
  afterAll(async () => {
    await runner?.close()
    await closeAdminDb()
  })
  return {
    get runner() {
      if (!runner) throw new Error('The suite runner starts in beforeAll.')
      return runner
    },
    people(count) {
      const start = offset
      offset += count
      return openProfiles(x, count, start)
    },
  }
}
