// Who is calling: the user behind the request's access token, checked by Supabase Auth itself
// (`auth.getUser(token)`), so a revoked session or a forged token is refused even when its
// signature would pass a local check. Admins carry `app_metadata.role = 'admin'`, which only the
// service role can set.
import type { User } from 'npm:@supabase/supabase-js@2.119.1'
import { callerClient, type SupabaseClient } from './clients.ts'
import { denoEnv, type Env } from './env.ts'
import { forbidden, HttpError, unauthorized } from './errors.ts'

export const AUTH_MESSAGES = {
  missing: 'Missing authorization header',
  malformed: 'Authorization header must be "Bearer <access token>"',
  invalid: 'User not authenticated',
  unavailable: 'Sign-in could not be checked right now. Please try again.',
  notAdmin: 'Access denied - admin privileges required',
} as const

export interface Caller {
  id: string
  email: string | null
  isAdmin: boolean
  user: User
  /** Acts as the caller: row-level security applies to every query made with it. */
  db: SupabaseClient
}

/** The access token of a `Bearer` Authorization header; 401 when there is none. */
export function bearerToken(req: Request): string {
  const header = req.headers.get('Authorization')
  if (!header?.trim()) throw unauthorized(AUTH_MESSAGES.missing)
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match?.[1]) throw unauthorized(AUTH_MESSAGES.malformed)
  return match[1]
}

/** The signed-in user making the request; 401 for no token, an anon key, or an invalid/expired session. */
export async function requireCaller(req: Request, env: Env = denoEnv): Promise<Caller> {
  const token = bearerToken(req)
  const db = callerClient(`Bearer ${token}`, env)
  const { data, error } = await db.auth.getUser(token)
  if (error) {
    // No status, or 5xx: Auth could not answer; that says nothing about the token.
    if (!error.status || error.status >= 500) throw new HttpError(503, AUTH_MESSAGES.unavailable)
    throw unauthorized(AUTH_MESSAGES.invalid)
  }
  if (!data.user) throw unauthorized(AUTH_MESSAGES.invalid)
  return {
    id: data.user.id,
    email: data.user.email ?? null,
    isAdmin: data.user.app_metadata?.role === 'admin',
    user: data.user,
    db,
  }
}

export function requireAdmin(caller: Caller): void {
  if (!caller.isAdmin) throw forbidden(AUTH_MESSAGES.notAdmin)
}
