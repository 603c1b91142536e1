// The Meta sandbox: one HTTP server standing in for the three hosts of Instagram API with Instagram
// Login (www.instagram.com/oauth/authorize, api.instagram.com/oauth/access_token and
// graph.instagram.com), plus its control API. Every call except the control API is logged.
import { ApiError, Router, startOfficialServer } from '../official/server.ts'
import { registerControl } from './control.ts'
import { graphError } from './errors.ts'
import { registerGraph } from './graph.ts'
import { registerOAuth } from './oauth.ts'
import { Webhooks } from './webhooks.ts'
import { MetaWorld } from './world.ts'

export interface MetaSandboxOptions {
  port: number
  host?: string
  stateFile?: string
  appId: string
  appSecret: string
  redirectUris: string[]
  /** The app's deauthorize and data deletion callbacks (business login settings). */
  deauthorizeUrl?: string
  dataDeletionUrl?: string
  /** How long a webhook callback may take to answer (Meta: 20 s). */
  deliveryTimeoutMs?: number
}

const SECRET_PARAMS = ['access_token', 'client_secret', 'code']

function redacted(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, SECRET_PARAMS.includes(k) ? '[redacted]' : v]),
  )
}

export function startMetaSandbox(options: MetaSandboxOptions) {
  const world = new MetaWorld(options.stateFile, {
    appId: options.appId,
    appSecret: options.appSecret,
    redirectUris: options.redirectUris,
    deauthorizeUrl: options.deauthorizeUrl ?? null,
    dataDeletionUrl: options.dataDeletionUrl ?? null,
  })
  world.seed()
  const webhooks = new Webhooks(world, options.deliveryTimeoutMs)
  const router = new Router()
  registerControl(router, world, webhooks)
  registerOAuth(router, world)
  registerGraph(router, world, webhooks)
  const server = startOfficialServer({
    name: 'meta',
    router,
    port: options.port,
    host: options.host,
    notFound: (req) => graphError(2500, `Unknown path components: ${req.url.pathname}`),
    after: (req, status, error) => {
      if (req.url.pathname.startsWith('/__sandbox')) return
      const token = world.state.tokens.find(
        (t) =>
          t.token ===
          (req.url.searchParams.get('access_token') ?? req.headers.authorization?.replace(/^\S+\s+/, '')),
      )
      // Graph errors nest under `error`; the OAuth host answers {error_type, code, error_message}
      const body = error?.body as
        | {
            error?: { code?: number; error_subcode?: number; message?: string }
            code?: number
            error_message?: string
          }
        | undefined
      const detail = body?.error ?? (body ? { code: body.code, message: body.error_message } : undefined)
      world.state.calls.push({
        id: world.state.calls.length + 1,
        at: world.now(),
        method: req.method,
        path: `${req.url.pathname}?${new URLSearchParams(redacted(Object.fromEntries(req.url.searchParams)) as Record<string, string>)}`,
        accountId: token?.accountId ?? null,
        body: redacted(req.body),
        status,
        error:
          error instanceof ApiError && detail
            ? { code: detail.code ?? 0, subcode: detail.error_subcode ?? null, message: detail.message ?? '' }
            : null,
      })
      world.changed()
    },
  })
  const stop = () => {
    webhooks.stop()
    world.store.saveNow()
    server.close()
  }
  return { server, world, webhooks, stop }
}
