// `npm test` and `npm run test:soak` split vitest's files between them: every endurance file
// (`*.soak.test.ts`) runs in test:soak and never in `npm test`, every other file in `npm test` (in
// one of its three runs: the node files, the web app's, the runner-alone files), and a soak file named in
// REACHFLOW_VITEST_FILES is still found. Read from vitest's own file lists with
// the arguments test-all.ts gives it, so a soak file in a folder the config misses fails here.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from './config.ts'
import { VITEST_SPLIT, vitestProjects } from './test-all.ts'

const scratch = mkdtempSync(join(tmpdir(), 'vitest-projects-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let lists = 0

/** The files vitest would run with these arguments, as `project: path`. */
function listed(args: string[]): string[] {
  const out = join(scratch, `list-${++lists}.json`)
  const result = spawnSync(
    join(repoRoot, 'node_modules', '.bin', 'vitest'),
    ['list', '--filesOnly', `--json=${out}`, ...args],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  )
  if (result.status !== 0) throw new Error(`vitest list failed: ${result.stderr}`)
  const files = JSON.parse(readFileSync(out, 'utf8')) as { file: string; projectName: string }[]
  return files.map((f) => `${f.projectName}: ${relative(repoRoot, f.file)}`).sort()
}

const isSoak = (entry: string) => entry.endsWith('.soak.test.ts')

describe('the files of npm test and test:soak', () => {
  it('every soak file runs in test:soak only, every other file in npm test', { timeout: 120_000 }, () => {
    const everything = listed([])
    const soak = listed(vitestProjects(true, []))
    const npmTest = listed(vitestProjects(false, []))

    expect(soak.length, 'the endurance files are there').toBeGreaterThan(0)
    expect(soak.filter((entry) => !entry.startsWith('soak: ') || !isSoak(entry))).toEqual([])
    expect(everything.filter(isSoak)).toEqual(soak)
    expect(npmTest.filter(isSoak)).toEqual([])
    expect([...npmTest, ...soak].sort()).toEqual(everything)
  })

  it("npm test's three vitest runs together are its files, each once", { timeout: 120_000 }, () => {
    const stack = listed(VITEST_SPLIT.stack)
    const web = listed(VITEST_SPLIT.web)
    const alone = listed(VITEST_SPLIT.alone)

    expect(web.length, 'the web files are there').toBeGreaterThan(0)
    expect(web.filter((entry) => !entry.startsWith('web: '))).toEqual([])
    expect(alone.length, 'the runner-alone files are there').toBeGreaterThan(0)
    expect(alone.filter((entry) => !entry.startsWith('runner-alone: '))).toEqual([])
    expect(stack.filter((entry) => !entry.startsWith('node: '))).toEqual([])
    expect([...stack, ...web, ...alone].sort()).toEqual(listed(vitestProjects(false, [])))
  })

  it('a soak file named in REACHFLOW_VITEST_FILES is run by npm test', { timeout: 60_000 }, () => {
    const named = ['runner/test/alone/crash.soak.test.ts']
    expect(listed([...vitestProjects(false, named), ...named])).toEqual([
      'soak: runner/test/alone/crash.soak.test.ts',
    ])
  })
})
