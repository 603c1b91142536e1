// Magic links as GoTrue sends them: POST /otp {email, create_user: false} mails an existing user a
// link (and a code) — here into the local outbox — whose GET /verify?type=magiclink signs them in
// and lands on redirect_to with the session in the fragment and type=magiclink (or ?code= for a
// PKCE client). The code lives in recovery_token and shares recovery's one-mail-per-max_frequency
// limit, as in GoTrue. An address without a login is refused with 422 otp_disabled when the caller
// asked not to create users; creating a user through /otp is not served locally.
import { sendJson } from '../http.ts'
import { type AuthCall, readBody, stringField } from './context.ts'
import { API_VERSION, AuthError, validationFailed } from './errors.ts'
import { sendMail } from './outbox.ts'
import { issueEmailCode, parseCodeChallenge, takeMailAllowance } from './recovery.ts'
import { chooseRedirect } from './redirects.ts'
import { findUserIdByEmail, isValidEmail, normalizeEmail } from './users.ts'

export async function magicLink(call: AuthCall): Promise<void> {
  const body = await readBody(call.request)
  if (stringField(body, 'phone')) throw validationFailed('Phone logins are disabled')
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  const pkce = parseCodeChallenge(body)
  const redirect = chooseRedirect(call.ctx.config, call.request.url.searchParams.get('redirect_to'))
  const userId = await findUserIdByEmail(call.ctx.adminPool, email)
  if (!userId) {
    if (body.create_user === false) {
      throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp')
    }
    throw new AuthError(501, 'not_implemented', 'Signing up through /otp is not served by the local gateway')
  }
  takeMailAllowance(call, email)
  const { otp, link } = await issueEmailCode(call, { id: userId, email }, 'magiclink', pkce, redirect)
  sendMail(call.ctx.config, {
    to: email,
    subject: 'Your Magic Link',
    text: `Follow this link to login:\n${link}\n\nAlternatively, enter the code: ${otp}`,
    links: [link],
  })
  sendJson(call.request.res, 200, {}, { 'X-Supabase-Api-Version': API_VERSION })
}
