// Sessions and tokens as GoTrue keeps them: one auth.sessions row per sign-in, a chain of single-use
// refresh tokens in auth.refresh_tokens (each new one names its parent), and short-lived ES256
// access tokens whose session_id must still exist.
import { randomBytes, randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { GatewayContext } from '../http.ts'
import { AuthError, badRequest } from './errors.ts'
import { loadUser, publicUser, type User } from './users.ts'

export const ACCESS_TOKEN_SECONDS = 3600

type Db = pg.Pool | pg.PoolClient

export interface TokenResponse {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  expires_at: number
  refresh_token: string
  user: User
}

export interface SessionMeta {
  ip: string
  userAgent: string
}

/** Seconds a just-used refresh token may be presented again and get the current one (GoTrue's default: 10). */
export function reuseIntervalSeconds(): number {
  const value = Number(process.env.AUTH_REFRESH_TOKEN_REUSE_INTERVAL ?? 10)
  return Number.isFinite(value) && value >= 0 ? value : 10
}

export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const result = await work(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

const newRefreshToken = () => randomBytes(16).toString('base64url')

async function insertRefreshToken(db: Db, userId: string, sessionId: string, parent: string | null) {
  const token = newRefreshToken()
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  )
  return token
}

/** Starts a session for a user who just proved who they are (`method` becomes the amr claim). */
export async function startSession(
  db: Db,
  userId: string,
  method: string,
  meta: SessionMeta,
): Promise<{ sessionId: string; refreshToken: string }> {
  const sessionId = randomUUID()
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4)`,
    [sessionId, userId, meta.userAgent.slice(0, 512), meta.ip || null],
  )
  await db.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)`,
    [sessionId, method, randomUUID()],
  )
  await db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [userId])
  await db.query('update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = $2', [
    userId,
    method === 'oauth' ? 'google' : 'email',
  ])
  const refreshToken = await insertRefreshToken(db, userId, sessionId, null)
  return { sessionId, refreshToken }
}

async function amrOf(db: Db, sessionId: string) {
  const { rows } = await db.query<{ method: string; timestamp: number }>(
    `select authentication_method as method, extract(epoch from created_at)::bigint::int as timestamp
       from auth.mfa_amr_claims where session_id = $1 order by created_at`,
    [sessionId],
  )
  return rows
}

/** The token response for a session: a fresh access token beside the given refresh token. */
export async function tokenResponse(
  ctx: GatewayContext,
  db: Db,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<TokenResponse> {
  const user = await loadUser(db, userId)
  if (!user) throw new AuthError(404, 'user_not_found', 'User not found')
  const amr = await amrOf(db, sessionId)
  const accessToken = await ctx.keys.signUserToken(
    {
      sub: user.id,
      aud: 'authenticated',
      email: user.email,
      phone: user.phone,
      app_metadata: user.app_metadata,
      user_metadata: user.user_metadata,
      role: user.role,
      aal: 'aal1',
      amr: amr.length > 0 ? amr : [{ method: 'password', timestamp: Math.floor(Date.now() / 1000) }],
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ACCESS_TOKEN_SECONDS,
  )
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
    user: publicUser(user),
  }
}

export function assertNotBanned(user: { banned_until?: string | null }): void {
  if (user.banned_until && new Date(user.banned_until).getTime() > Date.now()) {
    throw badRequest('user_banned', 'User is banned')
  }
}

interface RefreshRow {
  id: string
  token: string
  revoked: boolean
  parent: string | null
  session_id: string | null
  user_id: string
  updated_at: Date
  session_exists: boolean
  session_expired: boolean
  banned: boolean
}

/**
 * Rotates a refresh token. A used token presented again within the reuse interval, while it is the
 * parent of the session's current token, gets that current token back (a client that lost the
 * answer); any other reuse revokes every token of the session (a stolen token) and fails.
 */
export async function refreshSession(
  ctx: GatewayContext,
  presented: string,
): Promise<{ userId: string; sessionId: string; refreshToken: string }> {
  type Outcome = { ok: { userId: string; sessionId: string; refreshToken: string } } | { error: AuthError }
  const outcome = await withTransaction<Outcome>(ctx.adminPool, async (db) => {
    const { rows } = await db.query<RefreshRow>(
      `select rt.id, rt.token, rt.revoked, rt.parent, rt.session_id, rt.user_id, rt.updated_at,
              s.id is not null as session_exists,
              coalesce(s.not_after < now(), false) as session_expired,
              coalesce(u.banned_until > now(), false) as banned
         from auth.refresh_tokens rt
         left join auth.sessions s on s.id = rt.session_id
         left join auth.users u on u.id = s.user_id
        where rt.token = $1
        for update of rt`,
      [presented],
    )
    const row = rows[0]
    if (!row?.session_exists || !row.session_id) {
      return {
        error: badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
      }
    }
    if (row.session_expired) {
      return { error: badRequest('session_expired', 'Invalid Refresh Token: Session Expired') }
    }
    if (row.banned) return { error: badRequest('user_banned', 'User is banned') }
    const sessionId = row.session_id
    if (row.revoked) {
      const active = await db.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false
          order by id desc limit 1`,
        [sessionId],
      )
      const current = active.rows[0]
      const withinInterval = Date.now() - row.updated_at.getTime() <= reuseIntervalSeconds() * 1000
      if (current && current.parent === row.token && withinInterval) {
        return { ok: { userId: row.user_id, sessionId, refreshToken: current.token } }
      }
      await db.query(
        'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
        [sessionId],
      )
      ctx.log('warn', 'refresh token reused; session family revoked', { session_id: sessionId })
      return { error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') }
    }
    await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [
      row.id,
    ])
    const refreshToken = await insertRefreshToken(db, row.user_id, sessionId, row.token)
    await db.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [
      sessionId,
    ])
    return { ok: { userId: row.user_id, sessionId, refreshToken } }
  })
  if ('error' in outcome) throw outcome.error
  return outcome.ok
}

/** Whether the session in an access token still exists (signed-out sessions are deleted). */
export async function sessionIsActive(db: Db, sessionId: string, userId: string): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from auth.sessions where id = $1 and user_id = $2 and (not_after is null or not_after > now())',
    [sessionId, userId],
  )
  return rows.length > 0
}

export async function endSessions(
  db: Db,
  userId: string,
  sessionId: string,
  scope: 'global' | 'local' | 'others',
): Promise<void> {
  if (scope === 'local') await db.query('delete from auth.sessions where id = $1', [sessionId])
  else if (scope === 'global') await db.query('delete from auth.sessions where user_id = $1', [userId])
  else await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId])
}
