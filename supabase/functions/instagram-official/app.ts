// The instagram-official function's routes (`/functions/v1/instagram-official/…`). verify_jwt is
// off in supabase/config.toml because Instagram's redirect to /callback carries no JWT (it only
// forwards to the web app's page); /connect, /finish and /accounts/:id(/media) authenticate the
// caller themselves.
import { requireCaller } from '../_shared/auth.ts'
import { handleRequest } from '../_shared/errors.ts'
import { Router } from '../_shared/router.ts'
import { finishConnect, forwardCallback, startConnect } from './connect.ts'
import { defaultDeps, type OfficialDeps } from './deps.ts'
import { disconnect } from './disconnect.ts'
import { listAccountMedia } from './media.ts'

export function createOfficialHandler(deps: OfficialDeps = defaultDeps()) {
  const router = new Router('instagram-official')
  router.post('/connect', async (req) => startConnect(await requireCaller(req, deps.env), req, deps))
  router.get('/callback', (_req, { url }) => forwardCallback(url, deps))
  router.post('/finish', async (req) => finishConnect(await requireCaller(req, deps.env), req, deps))
  router.delete('/accounts/:id', async (req, { params }) =>
    disconnect(await requireCaller(req, deps.env), params.id, deps),
  )
  router.get('/accounts/:id/media', async (req, { params }) =>
    listAccountMedia(await requireCaller(req, deps.env), params.id, deps),
  )
  return handleRequest(router.handle)
}
