// Migration versions follow the clock: a version is the UTC time its migration was written,
// YYYYMMDDHHMMSS. `db:diff` takes it from the clock; `check:deploy` refuses a version that is no real
// time or that is later than the commit adding the file (later than now for a file not committed
// yet), because a version from the future makes the next one written by the clock sort before it,
// and `supabase db push` refuses a migration older than the newest applied without `--include-all`.
import { spawnSync } from 'node:child_process'

/**
 * The newest version that landed before versions followed the clock. Up to it, versions were taken
 * from the previous one (some from the future, 26 with an hour or minute over 59); nothing was
 * deployed, but renaming them again would only invalidate every local database once more, so they
 * stay as they are and the rule starts after it (docs/decisions.md, "Migration versions").
 */
export const LAST_VERSION_BEFORE_THE_CLOCK = '20261129003400'

/** The version a migration written at `date` takes. */
export function versionAt(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14)
}

/** The time a version names, or null when it names none (month 13, hour 30, …). */
export function timeOfVersion(version: string): Date | null {
  const parts = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(version)?.slice(1).map(Number)
  if (!parts) return null
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  return versionAt(date) === version ? date : null
}

/** Now, or one second after the newest version when that is not earlier than now. */
export function nextVersion(newest: string | undefined, now: Date): string {
  const newestTime = newest === undefined ? null : timeOfVersion(newest)
  if (newest === undefined || versionAt(now) > newest) return versionAt(now)
  if (!newestTime) throw new Error(`the newest migration's version ${newest} is no UTC time; give --version`)
  return versionAt(new Date(newestTime.getTime() + 1000))
}

export interface MigrationFile {
  version: string
  /** The file's path as git names it, relative to the repository. */
  path: string
}

/**
 * What is wrong with the versions: each must name a UTC time no later than the commit that added
 * its file (`addedAt`, undefined for a file not committed yet, then no later than `now`).
 */
export function versionProblems(
  files: MigrationFile[],
  addedAt: ReadonlyMap<string, Date>,
  now: Date,
): string[] {
  const problems: string[] = []
  for (const file of files) {
    if (file.version <= LAST_VERSION_BEFORE_THE_CLOCK) continue
    const time = timeOfVersion(file.version)
    if (!time) {
      problems.push(`${file.path}: version ${file.version} is no UTC time YYYYMMDDHHMMSS`)
      continue
    }
    const added = addedAt.get(file.path)
    const limit = added ?? now
    if (time.getTime() > limit.getTime())
      problems.push(
        `${file.path}: version ${file.version} is later than ${added ? 'the commit that adds it' : 'now (not committed yet)'} (${versionAt(limit)}); take the version from the clock (\`npm run db:diff\` does)`,
      )
  }
  return problems
}

/** When each file under `dir` was first added, by the committer's clock of the commit adding it. */
export function commitTimesOfAdding(repository: string, dir: string): Map<string, Date> {
  const log = spawnSync(
    'git',
    ['log', '--diff-filter=A', '--no-renames', '--format=@%ct', '--name-only', '--', dir],
    { cwd: repository, encoding: 'utf8' },
  )
  if (log.status !== 0) throw new Error(`git log failed: ${log.stderr.trim()}`)
  const added = new Map<string, Date>()
  let time: Date | undefined
  // Newest first: a file added again after a delete keeps its first addition, the last one listed.
  for (const line of log.stdout.split('\n')) {
    if (line.startsWith('@')) time = new Date(Number(line.slice(1)) * 1000)
    else if (line.trim() && time) added.set(line.trim(), time)
  }
  return added
}
