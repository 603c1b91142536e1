// Every job handler runs inside this guard: a changed page that reaches the top of a job (sign-in,
// an inbox read, a scrape page, a thread check) is recorded as a site change and the job ends
// normally, so pg-boss does not retry it into the same page and nothing counts against the
// account. Until the evidence says it is the site, only this account's work of the action waits.
// Handlers that hold work in hand (a DM, an answer) settle it first, then let it pass.
import { accountPlatformOf } from '../platforms/names.ts'
import { actionPaused, isSiteChange, recordSiteChange } from '../site-change/record.ts'
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
    const platform = accountPlatformOf(error.platform)
    const incidentId = await recordSiteChange(ctx.db, ctx.log, error, {
      source: 'job',
      packVersion: ctx.packs.current(platform).version,
      accountId,
    })
    return {
      note: (await actionPaused(ctx.db, platform, error.action))
        ? `The page changed at "${error.step}": ${error.action} on this platform is paused.`
        : `An unexpected page at "${error.step}": this account's ${error.action} waits while the canary checks.`,
      incidentId,
    }
  }
}
