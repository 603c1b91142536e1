// Password recovery as GoTrue does it: POST /recover mails a link (and a code of [auth.email] otp_length digits) — here into
// the local outbox — and the link, GET /verify?token=…&type=recovery, signs the user in and sends the
// browser to redirect_to with the session in the fragment and type=recovery (supabase-js then raises
// PASSWORD_RECOVERY), or with ?code= when the request came from a PKCE client.
import { createHash, randomInt, randomUUID } from 'node:crypto'
import { sendJson } from '../http.ts'
import { type AuthCall, readBody, stringField } from './context.ts'
import { API_VERSION, AuthError, rateLimited, validationFailed } from './errors.ts'
import { consumeInviteToken } from './invite.ts'
import { sendMail } from './outbox.ts'
import { chooseRedirect, withParams } from './redirects.ts'
import { startSession, tokenResponse, withTransaction } from './sessions.ts'
import { findUserIdByEmail, isValidEmail, normalizeEmail } from './users.ts'

export const PKCE_PREFIX = 'pkce_'

/** GoTrue's token hash: sha224 of e-mail + one-time code, so the link and the code verify alike. */
export const tokenHash = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex')

/** A code of [auth.email] otp_length digits, as GoTrue's crypto.GenerateOtp makes them. */
export const newCode = (length: number) => String(randomInt(0, 10 ** length)).padStart(length, '0')

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
  const body = await readBody(call.request)
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  const pkce = parseCodeChallenge(body)
  const redirect = chooseRedirect(call.ctx.config, call.request.url.searchParams.get('redirect_to'))
  // One mail per address per max_frequency whether or not it has an account, and the answer goes
  // out before the account is even looked up: neither a 429 nor the time taken tells who is a user.
  takeMailAllowance(call, email)
  sendJson(call.request.res, 200, {}, { 'X-Supabase-Api-Version': API_VERSION })
  try {
    await mailRecoveryCode(call, email, pkce, redirect)
  } catch (error) {
    call.ctx.log('error', 'recovery mail not sent', { error: (error as Error).message })
  }
}

/** One mail per address per [auth.email] max_frequency, shared by recovery and magic links as in GoTrue. */
export function takeMailAllowance(call: AuthCall, email: string): void {
  if (call.limits.resends.take(email)) return
  const wait = call.limits.resends.retryAfterSeconds(email)
  throw new AuthError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${wait} seconds.`,
  )
}

/** The two mails whose code lives in recovery_token, as in GoTrue: password recovery and magic links. */
export type EmailCodeKind = 'recovery' | 'magiclink'

/**
 * A new code for a known user (replacing the last), its PKCE state, and the /verify link that
 * carries it to `redirect`; the caller writes the mail.
 */
export async function issueEmailCode(
  call: AuthCall,
  user: { id: string; email: string },
  kind: EmailCodeKind,
  pkce: { challenge: string; method: string } | undefined,
  redirect: string,
): Promise<{ otp: string; link: string }> {
  const { ctx } = call
  const otp = newCode(call.limits.settings.codes.length)
  const stored = (pkce ? PKCE_PREFIX : '') + tokenHash(user.email, otp)
  await withTransaction(ctx.adminPool, async (db) => {
    await db.query('update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1', [
      user.id,
      stored,
    ])
    if (pkce) {
      await db.query(
        `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
           created_at, updated_at, authentication_method)
         values ($1, $2, $3, $4, $5, $6, now(), now(), $6)`,
        [randomUUID(), user.id, randomUUID(), pkce.method, pkce.challenge, kind],
      )
    }
  })
  const link = `${ctx.config.apiUrl}/auth/v1/verify?${new URLSearchParams({ token: stored, type: kind, redirect_to: redirect })}`
  return { otp, link }
}

/** For a known address: a new code and the mail. */
async function mailRecoveryCode(
  call: AuthCall,
  email: string,
  pkce: { challenge: string; method: string } | undefined,
  redirect: string,
): Promise<void> {
  const userId = await findUserIdByEmail(call.ctx.adminPool, email)
  if (!userId) return
  const { otp, link } = await issueEmailCode(call, { id: userId, email }, 'recovery', pkce, redirect)
  sendMail(call.ctx.config, {
    to: email,
    subject: 'Reset Your Password',
    text: `Follow this link to reset the password for your user:\n${link}\n\nAlternatively, enter the code: ${otp}`,
    links: [link],
  })
}

/** Consumes a live recovery or magic-link token (GoTrue keeps both in recovery_token); the user id, or undefined. */
async function consumeRecoveryToken(call: AuthCall, stored: string): Promise<string | undefined> {
  if (!stored) return undefined
  const { rows } = await call.ctx.adminPool.query<{ id: string }>(
    `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
       updated_at = now()
     where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2) and deleted_at is null
     returning id`,
    [stored, call.limits.settings.codes.lifetimeSeconds],
  )
  return rows[0]?.id
}

/** Every verification form first passes the per-IP window and the source's guessing backoff. */
function admitVerification(call: AuthCall): void {
  if (!call.limits.verifyPerIp.take(call.meta.ip)) throw rateLimited()
  if (call.limits.guesses.waitSeconds(call.meta.ip) > 0) throw rateLimited()
}

/** The links /verify follows; each signs the person in with its own type (and amr method). */
const LINK_TYPES = ['recovery', 'magiclink', 'invite'] as const

const consumeLinkToken = (call: AuthCall, type: (typeof LINK_TYPES)[number], token: string) =>
  type === 'invite' ? consumeInviteToken(call, token) : consumeRecoveryToken(call, token)

/** GET /verify: the link in the e-mail. Answers with a redirect, never JSON. */
export async function verifyLink(call: AuthCall): Promise<void> {
  const { ctx, request } = call
  const params = request.url.searchParams
  admitVerification(call)
  const redirect = chooseRedirect(ctx.config, params.get('redirect_to'))
  const token = params.get('token') ?? ''
  const type = LINK_TYPES.find((known) => known === params.get('type'))
  const userId = type && (await consumeLinkToken(call, type, token))
  let location: string
  if (!type || !userId) {
    call.limits.guesses.miss(call.meta.ip, undefined)
    const error = {
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    }
    location = withParams(withParams(redirect, 'query', error), 'hash', error)
  } else if (token.startsWith(PKCE_PREFIX)) {
    const { rows } = await ctx.adminPool.query<{ auth_code: string }>(
      `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
        where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                     order by created_at desc limit 1)
        returning auth_code`,
      [userId, type],
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
      const started = await startSession(db, userId, type, call.meta)
      return tokenResponse(ctx, db, userId, started.sessionId, started.refreshToken)
    })
    location = withParams(redirect, 'hash', {
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
    })
  }
  request.res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' })
  request.res.end()
}

/** POST /verify: verifyOtp({type: 'recovery', token_hash}) or ({type, email, token}) → a session. */
export async function verifyOtp(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  admitVerification(call)
  if (stringField(body, 'type') !== 'recovery') throw validationFailed('Only type "recovery" is supported')
  const hash = stringField(body, 'token_hash')
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  const otp = stringField(body, 'token') ?? ''
  const stored = hash ?? (email && otp ? tokenHash(email, otp) : '')
  const userId = stored.startsWith(PKCE_PREFIX) ? undefined : await consumeRecoveryToken(call, stored)
  if (!userId) {
    // A token hash names no account; a code names the e-mail it was guessed for.
    call.limits.guesses.miss(call.meta.ip, hash === undefined && email ? email : undefined)
    throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid')
  }
  const session = await withTransaction(call.ctx.adminPool, async (db) => {
    const started = await startSession(db, userId, 'recovery', call.meta)
    return tokenResponse(call.ctx, db, userId, started.sessionId, started.refreshToken)
  })
  sendJson(call.request.res, 200, session, { 'X-Supabase-Api-Version': API_VERSION })
}
