// The instagram-official function's routes (`/functions/v1/instagram-official/…`). verify_jwt is
// off in supabase/config.toml because Instagram's redirect to /callback carries no JWT (its one-use
// state proves who started it); /connect and /accounts/:id(/media) authenticate the caller themselves.
import { requireCaller } from '../_shared/auth.ts'
import { handleRequest } from '../_shared/errors.ts'
import { Router } from '../_shared/router.ts'
import { finishConnect, startConnect } from './connect.ts'
import { defaultDeps, type OfficialDeps } from './deps.ts'
import { disconnect } from './disconnect.ts'
import { listAccountMedia } from './media.ts'

export function createOfficialHandler(deps: OfficialDeps = defaultDeps()) {
  const router = new Router('instagram-official')
  router.post('/connect', async (req) => startConnect(await requireCaller(req, deps.env), deps))
  router.get('/callback', (_req, { url }) => finishConnect(url, deps))
  router.delete('/accounts/:id', async (req, { params }) =>
    disconnect(await requireCaller(req, deps.env), params.id, deps),
  )
  router.get('/accounts/:id/media', async (req, { params }) =>
    listAccountMedia(await requireCaller(req, deps.env), params.id, deps),
  )
  return handleRequest(router.handle)
}
