// Password recovery as GoTrue does it: POST /recover mails a link (and a 6-digit code) — here into
// the local outbox — and the link, GET /verify?token=…&type=recovery, signs the user in and sends the
// browser to redirect_to with the session in the fragment and type=recovery (supabase-js then raises
// PASSWORD_RECOVERY), or with ?code= when the request came from a PKCE client.
import { createHash, randomInt, randomUUID } from 'node:crypto'
import { sendJson } from '../http.ts'
import { type AuthCall, readBody, stringField } from './context.ts'
import { API_VERSION, AuthError, rateLimited, validationFailed } from './errors.ts'
import { sendMail } from './outbox.ts'
import { chooseRedirect, withParams } from './redirects.ts'
import { startSession, tokenResponse, withTransaction } from './sessions.ts'
import { findUserIdByEmail, isValidEmail, normalizeEmail } from './users.ts'

export const LINK_LIFETIME_SECONDS = 3600
const PKCE_PREFIX = 'pkce_'

function resendIntervalSeconds(): number {
  const value = Number(process.env.AUTH_EMAIL_RESEND_SECONDS ?? 60)
  return Number.isFinite(value) && value >= 0 ? value : 60
}

/** GoTrue's token hash: sha224 of e-mail + one-time code, so the link and the code verify alike. */
const tokenHash = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex')

export function parseCodeChallenge(
  body: Record<string, unknown>,
): { challenge: string; method: string } | undefined {
  const challenge = stringField(body, 'code_challenge') ?? ''
  const method = (stringField(body, 'code_challenge_method') ?? '').toLowerCase()
  if (!challenge && !method) return undefined
  if (!challenge || (method !== 's256' && method !== 'plain')) {
    throw validationFailed('PKCE flow requires code_challenge and code_challenge_method (s256 or plain)')
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw validationFailed('code challenge has to be between 43 and 128 characters')
  }
  return { challenge, method }
}

export async function recover(call: AuthCall): Promise<void> {
  const { ctx } = call
  const body = await readBody(call.request)
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  const pkce = parseCodeChallenge(body)
  const redirect = chooseRedirect(ctx.config, call.request.url.searchParams.get('redirect_to'))
  const userId = await findUserIdByEmail(ctx.adminPool, email)
  if (userId) {
    const otp = String(randomInt(0, 1_000_000)).padStart(6, '0')
    const stored = (pkce ? PKCE_PREFIX : '') + tokenHash(email, otp)
    await withTransaction(ctx.adminPool, async (db) => {
      const { rows } = await db.query<{ wait: number }>(
        `select greatest(0, ceil(extract(epoch from recovery_sent_at + make_interval(secs => $2) - now())))::int as wait
           from auth.users where id = $1 and recovery_sent_at is not null for update`,
        [userId, resendIntervalSeconds()],
      )
      const wait = rows[0]?.wait ?? 0
      if (wait > 0) {
        throw new AuthError(
          429,
          'over_email_send_rate_limit',
          `For security purposes, you can only request this after ${wait} seconds.`,
        )
      }
      await db.query('update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1', [
        userId,
        stored,
      ])
      call.limits.wrongCodes.forget(email)
      if (pkce) {
        await db.query(
          `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
             created_at, updated_at, authentication_method)
           values ($1, $2, $3, $4, $5, 'recovery', now(), now(), 'recovery')`,
          [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge],
        )
      }
    })
    const link = `${ctx.config.apiUrl}/auth/v1/verify?${new URLSearchParams({ token: stored, type: 'recovery', redirect_to: redirect })}`
    sendMail(ctx.config, {
      to: email,
      subject: 'Reset Your Password',
      text: `Follow this link to reset the password for your user:\n${link}\n\nAlternatively, enter the code: ${otp}`,
      links: [link],
    })
  }
  // The same answer whether or not the address has an account, so it cannot be used to probe.
  sendJson(call.request.res, 200, {}, { 'X-Supabase-Api-Version': API_VERSION })
}

/** Consumes a live recovery token; the user id, or undefined when unknown or expired. */
async function consumeRecoveryToken(call: AuthCall, stored: string): Promise<string | undefined> {
  if (!stored) return undefined
  const { rows } = await call.ctx.adminPool.query<{ id: string }>(
    `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
       updated_at = now()
     where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2) and deleted_at is null
     returning id`,
    [stored, LINK_LIFETIME_SECONDS],
  )
  return rows[0]?.id
}

/** GET /verify: the link in the e-mail. Answers with a redirect, never JSON. */
export async function verifyLink(call: AuthCall): Promise<void> {
  const { ctx, request } = call
  const params = request.url.searchParams
  if (!call.limits.verifyPerIp.take(call.meta.ip)) throw rateLimited()
  const redirect = chooseRedirect(ctx.config, params.get('redirect_to'))
  const token = params.get('token') ?? ''
  const userId = params.get('type') === 'recovery' ? await consumeRecoveryToken(call, token) : undefined
  let location: string
  if (!userId) {
    const error = {
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    }
    location = withParams(withParams(redirect, 'query', error), 'hash', error)
  } else if (token.startsWith(PKCE_PREFIX)) {
    const { rows } = await ctx.adminPool.query<{ auth_code: string }>(
      `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
        where id = (select id from auth.flow_state where user_id = $1 and authentication_method = 'recovery'
                     order by created_at desc limit 1)
        returning auth_code`,
      [userId],
    )
    const code = rows[0]?.auth_code
    location = code
      ? withParams(redirect, 'query', { code })
      : withParams(redirect, 'query', {
          error: 'invalid_request',
          error_code: 'flow_state_not_found',
          error_description: 'invalid flow state, no valid flow state found',
        })
  } else {
    const session = await withTransaction(ctx.adminPool, async (db) => {
      const started = await startSession(db, userId, 'recovery', call.meta)
      return tokenResponse(ctx, db, userId, started.sessionId, started.refreshToken)
    })
    location = withParams(redirect, 'hash', {
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type: 'recovery',
    })
  }
  request.res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' })
  request.res.end()
}

/**
 * A wrong 6-digit code for this e-mail: after the allowed number of misses the outstanding code is
 * invalidated, so guessing from many addresses cannot walk the million codes; a new one must be
 * requested.
 */
async function countWrongCode(call: AuthCall, email: string): Promise<void> {
  call.limits.wrongCodes.take(email)
  if (!call.limits.wrongCodes.isOver(email)) return
  await call.ctx.adminPool.query(
    `update auth.users set recovery_token = '' where id = (select id from auth.users
       where lower(email) = $1 and deleted_at is null limit 1) and recovery_token <> ''`,
    [email],
  )
}

/** POST /verify: verifyOtp({type: 'recovery', token_hash}) or ({type, email, token}) → a session. */
export async function verifyOtp(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  if (!call.limits.verifyPerIp.take(call.meta.ip)) throw rateLimited()
  if (stringField(body, 'type') !== 'recovery') throw validationFailed('Only type "recovery" is supported')
  const hash = stringField(body, 'token_hash')
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  const otp = stringField(body, 'token') ?? ''
  const stored = hash ?? (email && otp ? tokenHash(email, otp) : '')
  const userId = stored.startsWith(PKCE_PREFIX) ? undefined : await consumeRecoveryToken(call, stored)
  if (!userId) {
    if (!hash && email) await countWrongCode(call, email)
    throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid')
  }
  call.limits.wrongCodes.forget(email)
  const session = await withTransaction(call.ctx.adminPool, async (db) => {
    const started = await startSession(db, userId, 'recovery', call.meta)
    return tokenResponse(call.ctx, db, userId, started.sessionId, started.refreshToken)
  })
  sendJson(call.request.res, 200, session, { 'X-Supabase-Api-Version': API_VERSION })
}
