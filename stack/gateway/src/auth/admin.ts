// The admin user API (auth.admin.* in supabase-js), for the service role only: create, list, read,
// update and delete users. It is the only place app_metadata (e.g. the operator role) can be set.
import { sendJson } from '../http.ts'
import { checkNewPassword } from './account.ts'
import { type AuthCall, readBody, requireServiceRole } from './context.ts'
import { API_VERSION, AuthError, userNotFound, validationFailed } from './errors.ts'
import { endSessions, withTransaction } from './sessions.ts'
import {
  findUserIdByEmail,
  insertUser,
  isJsonObject,
  isValidEmail,
  loadUser,
  mergeMetadata,
  setEmail,
  setPassword,
} from './users.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const headers = { 'X-Supabase-Api-Version': API_VERSION }

const emailExists = () =>
  new AuthError(422, 'email_exists', 'A user with this email address has already been registered')

/** Go duration strings as GoTrue accepts for ban_duration ("24h", "1h30m", "none"); milliseconds. */
export function parseBanDuration(value: string): number | null {
  if (value === 'none') return null
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) {
    throw validationFailed('invalid format for ban duration')
  }
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (units[unit ?? 's'] ?? 0), 0)
}

function optionalObject(body: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (!isJsonObject(value)) throw validationFailed(`${name} must be an object`)
  return value
}

async function createUser(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  const email = typeof body.email === 'string' ? body.email.trim() : ''
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  const password = typeof body.password === 'string' ? body.password : undefined
  if (password !== undefined) checkNewPassword(password)
  const id = typeof body.id === 'string' ? body.id : undefined
  if (id !== undefined && !UUID.test(id)) throw validationFailed('id must be a UUID')
  const userMetadata = optionalObject(body, 'user_metadata') ?? {}
  const appMetadata = optionalObject(body, 'app_metadata') ?? {}
  const userId = await withTransaction(call.ctx.adminPool, async (db) => {
    if (await findUserIdByEmail(db, email)) throw emailExists()
    try {
      const created = await insertUser(db, {
        id,
        email,
        password,
        userMetadata,
        appMetadata,
        provider: 'email',
        emailConfirmed: body.email_confirm === true,
      })
      if (typeof body.ban_duration === 'string') await setBan(db, created, body.ban_duration)
      return created
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw emailExists()
      throw error
    }
  })
  sendJson(call.request.res, 200, await loadUser(call.ctx.adminPool, userId), headers)
}

async function setBan(db: Parameters<typeof setPassword>[0], userId: string, duration: string) {
  const ms = parseBanDuration(duration)
  await db.query(
    `update auth.users set banned_until = case when $2::float8 is null then null
       else now() + make_interval(secs => $2::float8 / 1000) end, updated_at = now() where id = $1`,
    [userId, ms],
  )
  if (ms !== null) await endSessions(db, userId, '00000000-0000-0000-0000-000000000000', 'global')
}

async function listUsers(call: AuthCall): Promise<void> {
  const params = call.request.url.searchParams
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)
  const perPage = Math.min(1000, Math.max(1, Number.parseInt(params.get('per_page') ?? '50', 10) || 50))
  const { rows } = await call.ctx.adminPool.query<{ id: string; total: string }>(
    `select id, count(*) over () as total from auth.users where deleted_at is null
      order by created_at desc, id limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  )
  const total = Number(
    rows[0]?.total ??
      (
        await call.ctx.adminPool.query<{ n: string }>(
          'select count(*) as n from auth.users where deleted_at is null',
        )
      ).rows[0]?.n ??
      0,
  )
  const users = []
  for (const row of rows) users.push(await loadUser(call.ctx.adminPool, row.id))
  const last = Math.max(1, Math.ceil(total / perPage))
  const links = [`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`]
  if (page < last) links.unshift(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`)
  sendJson(
    call.request.res,
    200,
    { users, aud: 'authenticated' },
    {
      ...headers,
      'X-Total-Count': String(total),
      Link: links.join(', '),
    },
  )
}

async function updateUserById(call: AuthCall, userId: string): Promise<void> {
  const body = await readBody(call.request)
  const email = body.email
  if (email !== undefined && (typeof email !== 'string' || !isValidEmail(email.trim()))) {
    throw validationFailed('Unable to validate email address: invalid format')
  }
  const password = body.password
  if (password !== undefined && typeof password !== 'string')
    throw validationFailed('password must be a string')
  const userMetadata = optionalObject(body, 'user_metadata')
  const appMetadata = optionalObject(body, 'app_metadata')
  await withTransaction(call.ctx.adminPool, async (db) => {
    if (!(await loadUser(db, userId))) throw userNotFound()
    if (userMetadata) await mergeMetadata(db, userId, 'raw_user_meta_data', userMetadata)
    if (appMetadata) await mergeMetadata(db, userId, 'raw_app_meta_data', appMetadata)
    if (typeof password === 'string') {
      checkNewPassword(password)
      await setPassword(db, userId, password)
    }
    if (typeof email === 'string') {
      const owner = await findUserIdByEmail(db, email)
      if (owner && owner !== userId) throw emailExists()
      if (!owner) await setEmail(db, userId, email)
    }
    if (body.email_confirm === true) {
      await db.query(
        'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1',
        [userId],
      )
    }
    if (typeof body.ban_duration === 'string') await setBan(db, userId, body.ban_duration)
  })
  sendJson(call.request.res, 200, await loadUser(call.ctx.adminPool, userId), headers)
}

/** /admin/users and /admin/users/{id}; every call needs the service role. */
export async function adminUsers(call: AuthCall, rest: string): Promise<void> {
  await requireServiceRole(call)
  const method = call.request.method
  if (rest === '') {
    if (method === 'POST') return createUser(call)
    if (method === 'GET') return listUsers(call)
    throw new AuthError(405, 'method_not_allowed', 'Method not allowed')
  }
  const id = rest.slice(1)
  if (!UUID.test(id)) throw userNotFound()
  if (method === 'GET') {
    const user = await loadUser(call.ctx.adminPool, id)
    if (!user) throw userNotFound()
    return sendJson(call.request.res, 200, user, headers)
  }
  if (method === 'PUT') return updateUserById(call, id)
  if (method === 'DELETE') {
    const { rowCount } = await call.ctx.adminPool.query('delete from auth.users where id = $1', [id])
    if (!rowCount) throw userNotFound()
    return sendJson(call.request.res, 200, {}, headers)
  }
  throw new AuthError(405, 'method_not_allowed', 'Method not allowed')
}
