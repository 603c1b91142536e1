// What every admin route gets: the caller (checked to be an admin from the token's app_metadata on
// the server, 401 / 403 otherwise) and the service-role client, because the admin tab reads every
// customer's rows and the job queue, which no caller-scoped client may. Tests pass their own Env.
import { type Caller, requireAdmin, requireCaller } from '../_shared/auth.ts'
import { type SupabaseClient, serviceClient } from '../_shared/clients.ts'
import type { Database, RpcArgs, RpcResult } from '../_shared/database.ts'
import { fromDbError } from '../_shared/db-errors.ts'
import { denoEnv, type Env } from '../_shared/env.ts'
import type { RouteContext, RouteHandler } from '../_shared/router.ts'

export interface AdminDeps {
  env: Env
}

export function defaultDeps(env: Env = denoEnv): AdminDeps {
  return { env }
}

export interface AdminContext extends RouteContext {
  admin: Caller
  /** Bypasses RLS: every admin read and action goes through the admin_* RPCs with it. */
  db: SupabaseClient
}

export type AdminHandler = (req: Request, ctx: AdminContext) => Promise<Response>

/** A route only admins reach: 401 without a valid session, 403 for everyone else. */
export function adminOnly(deps: AdminDeps, handler: AdminHandler): RouteHandler {
  return async (req, route) => {
    const admin = await requireCaller(req, deps.env)
    requireAdmin(admin)
    return handler(req, { ...route, admin, db: serviceClient(deps.env) })
  }
}

type AdminRpc = Extract<keyof Database['public']['Functions'], `admin_${string}`>

/**
 * Calls an admin RPC and returns its data, typed by the generated types (a `Json` result is read
 * with fromJson where its fields matter); a database error is thrown as its HTTP answer (or a 500).
 */
export async function rpc<F extends AdminRpc>(
  db: SupabaseClient,
  name: F,
  ...args: RpcArgs<F> extends Record<PropertyKey, never> ? [] : [RpcArgs<F>]
): Promise<RpcResult<F>> {
  const { data, error } = await db.rpc(name, ...(args as [RpcArgs<F>]))
  if (error) throw fromDbError(error)
  return data as RpcResult<F>
}
