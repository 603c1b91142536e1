// Sign-up, password sign-in, refresh, the signed-in user's own record, and sign-out — the calls
// auth-js makes for signUp, signInWithPassword, refreshSession, getUser, updateUser and signOut.
import { sendJson } from '../http.ts'
import { type AuthCall, readBody, requireUser, stringField } from './context.ts'
import {
  API_VERSION,
  AuthError,
  invalidCredentials,
  rateLimited,
  validationFailed,
  weakPassword,
} from './errors.ts'
import {
  assertNotBanned,
  endSessions,
  refreshSession,
  startSession,
  tokenResponse,
  withTransaction,
} from './sessions.ts'
import {
  checkPassword,
  findUserIdByEmail,
  insertUser,
  isJsonObject,
  isValidEmail,
  loadUser,
  mergeMetadata,
  normalizeEmail,
  passwordMatches,
  publicUser,
  setEmail,
  setPassword,
} from './users.ts'

export const MIN_PASSWORD_LENGTH = 6

/** GoTrue's password rules: at least 6 characters, at most 72 bytes (bcrypt's limit). */
export function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw weakPassword()
  if (Buffer.byteLength(password) > 72) {
    throw new AuthError(422, 'validation_failed', 'Password cannot be longer than 72 characters')
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505'

const emailExists = () =>
  new AuthError(422, 'email_exists', 'A user with this email address has already been registered')

function takeIpAttempt(call: AuthCall): void {
  if (!call.limits.perIp.take(call.meta.ip)) throw rateLimited()
}

export async function signup(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  const email = stringField(body, 'email')?.trim() ?? ''
  const password = stringField(body, 'password') ?? ''
  if (stringField(body, 'phone'))
    throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled')
  if (!email) throw validationFailed('To signup, please provide your email')
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  if (!password) throw validationFailed('Signup requires a valid password')
  checkNewPassword(password)
  const data = body.data ?? {}
  if (!isJsonObject(data)) throw validationFailed('data must be an object')
  takeIpAttempt(call)
  const response = await withTransaction(call.ctx.adminPool, async (db) => {
    if (await findUserIdByEmail(db, email)) {
      throw new AuthError(422, 'user_already_exists', 'User already registered')
    }
    let userId: string
    try {
      userId = await insertUser(db, {
        email,
        password,
        userMetadata: data,
        provider: 'email',
        emailConfirmed: true,
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError(422, 'user_already_exists', 'User already registered')
      throw error
    }
    const session = await startSession(db, userId, 'password', call.meta)
    return tokenResponse(call.ctx, db, userId, session.sessionId, session.refreshToken)
  })
  sendJson(call.request.res, 200, response, { 'X-Supabase-Api-Version': API_VERSION })
}

export async function passwordGrant(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  const password = stringField(body, 'password') ?? ''
  if (stringField(body, 'phone')) throw invalidCredentials()
  takeIpAttempt(call)
  // Keyed by IP and account: a guesser is stopped, the owner signing in from elsewhere is not.
  const guessKey = `${call.meta.ip}\n${email}`
  if (email && call.limits.perIpAndEmail.isOver(guessKey)) throw rateLimited()
  const userId = email && password ? await checkPassword(call.ctx.adminPool, email, password) : undefined
  if (!userId) {
    if (email) call.limits.perIpAndEmail.take(guessKey)
    throw invalidCredentials()
  }
  const user = await loadUser(call.ctx.adminPool, userId)
  if (!user) throw invalidCredentials()
  assertNotBanned(user)
  if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed')
  const response = await withTransaction(call.ctx.adminPool, async (db) => {
    const session = await startSession(db, userId, 'password', call.meta)
    return tokenResponse(call.ctx, db, userId, session.sessionId, session.refreshToken)
  })
  sendJson(call.request.res, 200, response, { 'X-Supabase-Api-Version': API_VERSION })
}

export async function refreshGrant(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  const presented = stringField(body, 'refresh_token') ?? ''
  if (!presented) throw validationFailed('refresh_token required')
  const rotated = await refreshSession(call.ctx, presented)
  const response = await tokenResponse(
    call.ctx,
    call.ctx.adminPool,
    rotated.userId,
    rotated.sessionId,
    rotated.refreshToken,
  )
  sendJson(call.request.res, 200, response, { 'X-Supabase-Api-Version': API_VERSION })
}

export async function getUser(call: AuthCall): Promise<void> {
  const { userId } = await requireUser(call)
  const user = await loadUser(call.ctx.adminPool, userId)
  if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
  sendJson(call.request.res, 200, publicUser(user), { 'X-Supabase-Api-Version': API_VERSION })
}

/** PUT /user: user_metadata merges (null removes a key), new password, new e-mail. Never app_metadata. */
export async function updateUser(call: AuthCall): Promise<void> {
  const { userId, sessionId } = await requireUser(call)
  const body = await readBody(call.request)
  if (body.app_metadata !== undefined) {
    throw new AuthError(403, 'not_admin', 'Updating app_metadata requires admin privileges')
  }
  if (body.phone !== undefined)
    throw new AuthError(400, 'phone_provider_disabled', 'Phone changes are disabled')
  const data = body.data
  if (data !== undefined && data !== null && !isJsonObject(data))
    throw validationFailed('data must be an object')
  const password = body.password
  if (password !== undefined && typeof password !== 'string')
    throw validationFailed('password must be a string')
  const email = body.email
  if (email !== undefined && (typeof email !== 'string' || !isValidEmail(email.trim()))) {
    throw validationFailed('Unable to validate email address: invalid format')
  }
  await withTransaction(call.ctx.adminPool, async (db) => {
    if (isJsonObject(data)) await mergeMetadata(db, userId, 'raw_user_meta_data', data)
    if (typeof password === 'string') {
      checkNewPassword(password)
      if (await passwordMatches(db, userId, password)) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.')
      }
      await setPassword(db, userId, password)
      // A changed password ends every other session, so a stolen session cannot outlive it.
      await endSessions(db, userId, sessionId, 'others')
    }
    if (typeof email === 'string') {
      const owner = await findUserIdByEmail(db, email)
      if (owner && owner !== userId) throw emailExists()
      if (!owner) {
        try {
          await setEmail(db, userId, email)
        } catch (error) {
          if (isUniqueViolation(error)) throw emailExists()
          throw error
        }
      }
    }
  })
  const user = await loadUser(call.ctx.adminPool, userId)
  if (!user) throw new AuthError(404, 'user_not_found', 'User not found')
  sendJson(call.request.res, 200, publicUser(user), { 'X-Supabase-Api-Version': API_VERSION })
}

export async function logout(call: AuthCall): Promise<void> {
  const scope = call.request.url.searchParams.get('scope') ?? 'global'
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw validationFailed(`Unsupported logout scope "${scope}"`)
  }
  const { userId, sessionId } = await requireUser(call)
  await endSessions(call.ctx.adminPool, userId, sessionId, scope)
  call.request.res.writeHead(204, { 'X-Supabase-Api-Version': API_VERSION })
  call.request.res.end()
}
