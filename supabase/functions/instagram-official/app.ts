// The instagram-official function's routes (`/functions/v1/instagram-official/…`). verify_jwt is
// off in supabase/config.toml because Instagram's redirect to /callback carries no JWT (it only
// forwards to the web app's page); /connect, /finish and /accounts/:id(/media) authenticate the
// caller themselves.
import type { WorkspaceRoleName } from '@reachflow/domain'
import { type Caller, requireCaller } from '../_shared/auth.ts'
import { handleRequest } from '../_shared/errors.ts'
import { Router } from '../_shared/router.ts'
import { EDIT_ROLES, READ_ROLES, requireWorkspaceRole } from '../_shared/workspace-role.ts'
import { finishConnect, forwardCallback, startConnect } from './connect.ts'
import { defaultDeps, type OfficialDeps } from './deps.ts'
import { disconnect } from './disconnect.ts'
import { listAccountMedia } from './media.ts'

export function createOfficialHandler(deps: OfficialDeps = defaultDeps()) {
  const router = new Router('instagram-official')
  /** The caller, once their role in the active workspace is one of `roles` (403 otherwise). */
  const callerAs = async (req: Request, roles: readonly WorkspaceRoleName[]): Promise<Caller> => {
    const caller = await requireCaller(req, deps.env)
    await requireWorkspaceRole(caller.db, roles)
    return caller
  }
  router.post('/connect', async (req) => startConnect(await callerAs(req, EDIT_ROLES), req, deps))
  router.get('/callback', (_req, { url }) => forwardCallback(url, deps))
  router.post('/finish', async (req) => finishConnect(await callerAs(req, EDIT_ROLES), req, deps))
  router.delete('/accounts/:id', async (req, { params }) =>
    disconnect(await callerAs(req, EDIT_ROLES), params.id, deps),
  )
  // An automation's posts: read by everyone who reads automations (not an agent).
  router.get('/accounts/:id/media', async (req, { params }) =>
    listAccountMedia(await callerAs(req, READ_ROLES), params.id, deps),
  )
  return handleRequest(router.handle)
}
