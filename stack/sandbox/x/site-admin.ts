// The X sandbox's admin calls for how the site itself changes (tests and drills use them; the runner
// never does): a new web release now (new GraphQL query ids, the old ones answer 404), and the
// site-change drill, which renames test ids in the pages' bundles until it is switched back.
import { HttpError, type Router, sendJson } from '../social/http.ts'
import type { Releases } from './release.ts'

/** What the drill renames when no renames are given: the conversation's ready marker and the composer. */
export const DRILL_RENAMES: Readonly<Record<string, string>> = {
  'dm-conversation-panel': 'dm-conversation-view',
  'dm-composer-textarea': 'dm-composer-input',
}

const TEST_ID = /^[A-Za-z0-9_:-]{1,60}$/

export class SiteChange {
  renames: Record<string, string> = {}
}

export function registerSiteAdmin(router: Router, releases: Releases, site: SiteChange): void {
  const describe = () => ({ id: releases.current.id, queryIds: releases.current.queryIds })
  router.on('GET', '/__sandbox/release', (_req, res) => sendJson(res, 200, describe()))
  router.on('POST', '/__sandbox/release', (_req, res) => {
    releases.rotate()
    sendJson(res, 201, describe())
  })

  router.on('GET', '/__sandbox/site-change', (_req, res) => sendJson(res, 200, { renames: site.renames }))
  router.on('POST', '/__sandbox/site-change', (req, res) => {
    const given = req.body.renames
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
      throw new HttpError(400, '"renames" must be an object of test id → new test id')
    const renames = (given as Record<string, unknown> | undefined) ?? DRILL_RENAMES
    for (const [from, to] of Object.entries(renames))
      if (!TEST_ID.test(from) || typeof to !== 'string' || !TEST_ID.test(to))
        throw new HttpError(400, `Cannot rename "${from}": test ids are 1-60 letters, digits, _, : or -`)
    site.renames = { ...(renames as Record<string, string>) }
    sendJson(res, 200, { renames: site.renames })
  })
  router.on('DELETE', '/__sandbox/site-change', (_req, res) => {
    site.renames = {}
    sendJson(res, 200, { renames: site.renames })
  })
}
