// The X sandbox's admin calls for how the site itself changes (tests and drills use them; the runner
// never does): a new web release now (new GraphQL query ids, the old ones answer 404), and the
// site-change drill, which renames test ids in the pages' bundles until it is switched back, for
// everyone or (so tests running side by side do not meet each other's drills) for one account.
import { HttpError, type Request, type Router, sendJson, stringField } from '../social/http.ts'
import type { Releases } from './release.ts'

/** What the drill renames when no renames are given: the conversation's ready marker and the composer. */
export const DRILL_RENAMES: Readonly<Record<string, string>> = {
  'dm-conversation-panel': 'dm-conversation-view',
  'dm-composer-textarea': 'dm-composer-input',
}

const TEST_ID = /^[A-Za-z0-9_:-]{1,60}$/

export class SiteChange {
  renames: Record<string, string> = {}
  readonly #byAccount = new Map<string, Record<string, string>>()

  /** The renames the pages of this account get: everyone's, then the account's own. */
  renamesFor(username: string): Record<string, string> {
    return { ...this.renames, ...this.#byAccount.get(username.toLowerCase()) }
  }

  set(account: string | undefined, renames: Record<string, string>): void {
    if (account === undefined) this.renames = renames
    else if (Object.keys(renames).length === 0) this.#byAccount.delete(account.toLowerCase())
    else this.#byAccount.set(account.toLowerCase(), renames)
  }
}

export function registerSiteAdmin(router: Router, releases: Releases, site: SiteChange): void {
  const describe = () => ({ id: releases.current.id, queryIds: releases.current.queryIds })
  router.on('GET', '/__sandbox/release', (_req, res) => sendJson(res, 200, describe()))
  router.on('POST', '/__sandbox/release', (_req, res) => {
    releases.rotate()
    sendJson(res, 201, describe())
  })

  const scope = (req: Request) => req.url.searchParams.get('account') ?? undefined
  const current = (account: string | undefined) => (account ? site.renamesFor(account) : site.renames)
  router.on('GET', '/__sandbox/site-change', (req, res) =>
    sendJson(res, 200, { renames: current(scope(req)) }),
  )
  router.on('POST', '/__sandbox/site-change', (req, res) => {
    const account = stringField(req.body, 'account', false)
    const given = req.body.renames
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
      throw new HttpError(400, '"renames" must be an object of test id → new test id')
    const renames = (given as Record<string, unknown> | undefined) ?? DRILL_RENAMES
    for (const [from, to] of Object.entries(renames))
      if (!TEST_ID.test(from) || typeof to !== 'string' || !TEST_ID.test(to))
        throw new HttpError(400, `Cannot rename "${from}": test ids are 1-60 letters, digits, _, : or -`)
    site.set(account, { ...(renames as Record<string, string>) })
    sendJson(res, 200, { renames: current(account) })
  })
  router.on('DELETE', '/__sandbox/site-change', (req, res) => {
    site.set(scope(req), {})
    sendJson(res, 200, { renames: current(scope(req)) })
  })
}
