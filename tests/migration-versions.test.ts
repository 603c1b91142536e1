// The rule `check:deploy` applies to migration versions, against a throw-away git repository whose
// commits carry chosen committer times, and against this repository's own migrations.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  commitTimesOfAdding,
  nextVersion,
  timeOfVersion,
  versionProblems,
} from '../scripts/lib/migration-versions.ts'
import { repoRoot } from '../stack/src/config.ts'

const DIR = 'supabase/migrations'
let repository = ''

function git(args: string[], committedAt?: string): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.test' }
  const dated = committedAt ? { GIT_COMMITTER_DATE: committedAt, GIT_AUTHOR_DATE: committedAt } : {}
  const result = spawnSync('git', args, {
    cwd: repository,
    encoding: 'utf8',
    env: { ...env, GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.test', ...dated },
  })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
}

function commitMigration(name: string, committedAt: string): void {
  writeFileSync(join(repository, DIR, name), 'select 1;\n')
  git(['add', '.'])
  git(['commit', '-q', '-m', name], committedAt)
}

function problemsAt(now: string): string[] {
  const files = readdirSync(join(repository, DIR))
    .sort()
    .map((name) => ({ version: name.slice(0, 14), path: `${DIR}/${name}` }))
  return versionProblems(files, commitTimesOfAdding(repository, DIR), new Date(now))
}

beforeAll(() => {
  repository = mkdtempSync(join(tmpdir(), 'reachflow-migration-versions-'))
  mkdirSync(join(repository, DIR), { recursive: true })
  git(['init', '-q'])
})
afterAll(() => rmSync(repository, { recursive: true, force: true }))

describe('migration versions', () => {
  it('accepts versions from the clock and the ones landed before the rule, even with hour 30', () => {
    commitMigration('20261128300000_landed_before_the_clock.sql', '2026-11-28T10:00:00Z')
    commitMigration('20261129061237_from_the_clock.sql', '2026-11-29T06:20:00Z')
    expect(problemsAt('2026-11-29T06:30:00Z')).toEqual([])
  })

  it('refuses a version later than the commit that adds it', () => {
    commitMigration('20261129070000_from_the_future.sql', '2026-11-29T06:40:00Z')
    expect(problemsAt('2026-11-29T08:00:00Z')).toEqual([
      `${DIR}/20261129070000_from_the_future.sql: version 20261129070000 is later than the commit that adds it (20261129064000); take the version from the clock (\`npm run db:diff\` does)`,
    ])
    git(['rm', '-q', `${DIR}/20261129070000_from_the_future.sql`])
    git(['commit', '-q', '-m', 'gone'], '2026-11-29T06:41:00Z')
  })

  it('refuses a file not committed yet whose version is later than now', () => {
    writeFileSync(join(repository, DIR, '20261129090000_not_committed.sql'), 'select 1;\n')
    expect(problemsAt('2026-11-29T08:59:59Z')).toEqual([
      `${DIR}/20261129090000_not_committed.sql: version 20261129090000 is later than now (not committed yet) (20261129085959); take the version from the clock (\`npm run db:diff\` does)`,
    ])
    expect(problemsAt('2026-11-29T09:00:00Z')).toEqual([])
    rmSync(join(repository, DIR, '20261129090000_not_committed.sql'))
  })

  it('refuses a version after the rule that names no UTC time', () => {
    commitMigration('20261129306000_hour_thirty.sql', '2026-11-30T10:00:00Z')
    expect(problemsAt('2026-11-30T11:00:00Z')).toEqual([
      `${DIR}/20261129306000_hour_thirty.sql: version 20261129306000 is no UTC time YYYYMMDDHHMMSS`,
    ])
  })

  it("holds for this repository's migrations", () => {
    const files = readdirSync(join(repoRoot, DIR))
      .filter((name) => /^\d{14}_/.test(name))
      .map((name) => ({ version: name.slice(0, 14), path: `${DIR}/${name}` }))
    expect(versionProblems(files, commitTimesOfAdding(repoRoot, DIR), new Date())).toEqual([])
  })
})

describe('the next version db:diff takes', () => {
  it('is now, or one second after the newest when that is not earlier', () => {
    expect(nextVersion('20261129003400', new Date('2026-11-29T06:12:37Z'))).toBe('20261129061237')
    expect(nextVersion('20261129061237', new Date('2026-11-29T06:12:37Z'))).toBe('20261129061238')
    expect(nextVersion('20261129235959', new Date('2026-11-29T06:12:37Z'))).toBe('20261130000000')
    expect(nextVersion(undefined, new Date('2026-11-29T06:12:37Z'))).toBe('20261129061237')
  })

  it('reads only real UTC times', () => {
    expect(timeOfVersion('20261129061237')?.toISOString()).toBe('2026-11-29T06:12:37.000Z')
    expect(timeOfVersion('20261128300000')).toBeNull()
    expect(timeOfVersion('20261301000000')).toBeNull()
    expect(timeOfVersion('2026112906123')).toBeNull()
  })
})
