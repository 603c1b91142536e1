// Every job handler runs inside this guard: a changed page that reaches the top of a job (sign-in,
// an inbox read, a scrape page, a thread check) is recorded as a site change and the job ends
// normally, so pg-boss does not retry it into the same page and nothing counts against the
// account. Handlers that hold work in hand (a DM, an answer) settle it first, then let it pass.
import { accountPlatformOf, isSiteChange, recordSiteChange } from '../site-change/record.ts'
import type { JobContext } from './context.ts'

export interface SiteChangeOutcome {
  note: string
  incidentId: string
}

/** `accountId`: the job's account, if it has one, so the log line says whose page it was. */
export async function guardSiteChange<T>(
  ctx: JobContext,
  work: () => Promise<T>,
  accountId?: string,
): Promise<T | SiteChangeOutcome> {
  try {
    return await work()
  } catch (error) {
    if (!isSiteChange(error)) throw error
    const incidentId = await recordSiteChange(ctx.db, ctx.log, error, {
      source: 'job',
      packVersion: ctx.packs.current(accountPlatformOf(error.platform)).version,
      accountId,
    })
    return {
      note: `The page changed at "${error.step}": ${error.action} on this platform is paused.`,
      incidentId,
    }
  }
}
