// The fleet's answer to a changed page (platforms/layout.ts): record the incident with the page's
// redacted outline, pause that platform action on every runner, and leave the account alone. The
// database does the pausing and tells operators and customers (internal.record_site_change);
// here is what the runner knows: where it saw it, with which facts, on which account.
import type { Queryable } from '../db.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
import { LayoutChangedError, type PlatformAction } from '../platforms/layout.ts'
import type { Platform } from '../platforms/types.ts'
import type { AccountPlatform } from '../sessions/open.ts'

/** The platform as the database names it. */
export const accountPlatformOf = (platform: Platform): AccountPlatform =>
  platform === 'x' ? 'twitter' : 'instagram'

const LABEL: Record<AccountPlatform, string> = { twitter: 'X', instagram: 'Instagram' }

export function isSiteChange(error: unknown): error is LayoutChangedError {
  return error instanceof LayoutChangedError
}

export interface SiteChangeSeen {
  /** job: while working a customer's job; canary: in a canary run. */
  source: 'job' | 'canary'
  /** The version of the facts the session used. */
  packVersion: string | null
  accountId?: string
}

/** Errors already recorded: one sighting each, however many layers of a job see it pass. */
const recorded = new WeakMap<LayoutChangedError, string>()

/** Records the incident (one more sighting when it is open already); returns its id. */
export async function recordSiteChange(
  db: Queryable,
  log: Logger,
  error: LayoutChangedError,
  seen: SiteChangeSeen,
): Promise<string> {
  const known = recorded.get(error)
  if (known) return known
  const platform = accountPlatformOf(error.platform)
  const { rows } = await db.query<{ id: string }>(
    'select internal.record_site_change($1, $2, $3, $4, $5, $6, $7) as id',
    [
      platform,
      error.action,
      error.step,
      error.path,
      { lines: error.outline.lines, truncated: error.outline.truncated },
      seen.source,
      seen.packVersion,
    ],
  )
  const id = rows[0]?.id ?? ''
  recorded.set(error, id)
  await log.warn(
    serviceOf(platform),
    `Site change met at "${error.step}": ${error.action} paused on ${LABEL[platform]}`,
    {
      incidentId: id,
      accountId: seen.accountId,
      source: seen.source,
    },
  )
  return id
}

/** Whether the platform action (or the platform's whole session) is paused after a site change. */
export async function actionPaused(
  db: Queryable,
  platform: AccountPlatform,
  action: PlatformAction,
): Promise<boolean> {
  const { rows } = await db.query<{ paused: boolean }>(
    'select internal.platform_action_paused($1, $2) as paused',
    [platform, action],
  )
  return rows[0]?.paused ?? false
}

/** What a job (and the campaign's card) says while its action is paused. */
export function pausedNote(platform: AccountPlatform, action: PlatformAction): string {
  const what = { send: 'Sending', inbox: 'Reading replies', scrape: 'Lead scraping', session: 'Work' }[action]
  return `${what} on ${LABEL[platform]} is paused while we adapt to a change on ${LABEL[platform]}; nothing is lost and it resumes on its own.`
}
