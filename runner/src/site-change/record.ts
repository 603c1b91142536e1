// The fleet's answer to a changed page (platforms/layout.ts): record the sighting with the page's
// redacted outline and leave the account's standing alone. One account's odd page is not yet the
// site: only that account's work of the action waits while the canary checks. A second account or
// the canary meeting the same step pauses the action on every runner. The database weighs the
// evidence, pauses and tells operators and customers (internal.record_site_change); here is what
// the runner knows: where it saw it, with which facts, on which account, in which canary run.
import type { Queryable } from '../db.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
import { LayoutChangedError, type PlatformAction } from '../platforms/layout.ts'
import { type AccountPlatform, accountPlatformOf } from '../platforms/names.ts'

const LABEL: Record<AccountPlatform, string> = { twitter: 'X', instagram: 'Instagram' }
const WORK: Record<PlatformAction, string> = {
  send: 'Sending',
  inbox: 'Reading replies',
  scrape: 'Lead scraping',
  session: 'Work',
}

export function isSiteChange(error: unknown): error is LayoutChangedError {
  return error instanceof LayoutChangedError
}

export interface SiteChangeSeen {
  /** job: while working a customer's job; canary: in a canary run. */
  source: 'job' | 'canary'
  /** The version of the facts the session used. */
  packVersion: string | null
  accountId?: string
  /** The canary run that met it (its sighting confirms a job's). */
  canaryRunId?: string
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
    'select internal.record_site_change($1, $2, $3, $4, $5, $6, $7, $8, $9) as id',
    [
      platform,
      error.action,
      error.step,
      error.path,
      { lines: error.outline.lines, truncated: error.outline.truncated },
      seen.source,
      seen.packVersion,
      seen.accountId ?? null,
      seen.canaryRunId ?? null,
    ],
  )
  const id = rows[0]?.id ?? ''
  recorded.set(error, id)
  const paused = await actionPaused(db, platform, error.action)
  await log.warn(
    serviceOf(platform),
    paused
      ? `Site change met at "${error.step}": ${error.action} paused on ${LABEL[platform]}`
      : `Unexpected page at "${error.step}": this account's ${error.action} waits while the canary checks ${LABEL[platform]}`,
    {
      incidentId: id,
      accountId: seen.accountId,
      source: seen.source,
      paused,
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

export type ActionState = 'running' | 'held' | 'paused'

/**
 * Whether the account may do the action: paused fleet-wide, held (it met a page nobody has
 * confirmed yet: its own work waits while the evidence is fresh), or running.
 */
export async function actionState(
  db: Queryable,
  platform: AccountPlatform,
  action: PlatformAction,
  accountId: string,
): Promise<ActionState> {
  const { rows } = await db.query<{ paused: boolean; held: boolean }>(
    'select internal.platform_action_paused($1, $2) as paused, internal.platform_action_held($1, $2, $3) as held',
    [platform, action, accountId],
  )
  return rows[0]?.paused ? 'paused' : rows[0]?.held ? 'held' : 'running'
}

/** What a job (and the campaign's card) says while the account's action waits for a check. */
export function heldNote(platform: AccountPlatform, action: PlatformAction): string {
  return `${WORK[action]} from this account waits a little: ${LABEL[platform]} showed it a page we did not expect, and we are checking whether ${LABEL[platform]} changed. Nothing is lost and it resumes on its own.`
}

/** The note for the state, null while the action runs. */
export function stateNote(
  state: ActionState,
  platform: AccountPlatform,
  action: PlatformAction,
): string | null {
  return state === 'paused'
    ? pausedNote(platform, action)
    : state === 'held'
      ? heldNote(platform, action)
      : null
}

/** The card's note right after the account met a changed page: paused fleet-wide, or it waits alone. */
export async function siteChangeNote(
  db: Queryable,
  platform: AccountPlatform,
  action: PlatformAction,
  accountId: string,
): Promise<string> {
  return (await actionState(db, platform, action, accountId)) === 'paused'
    ? pausedNote(platform, action)
    : heldNote(platform, action)
}

/** What a job (and the campaign's card) says while its action is paused. */
export function pausedNote(platform: AccountPlatform, action: PlatformAction): string {
  return `${WORK[action]} on ${LABEL[platform]} is paused while we adapt to a change on ${LABEL[platform]}; nothing is lost and it resumes on its own.`
}
