// The Auth admin invite as GoTrue does it: POST /invite (service role) creates an unconfirmed account
// without a password for an address nobody uses yet and mails it a link — here into the local outbox —
// whose GET /verify?type=invite confirms the address, signs the person in and sends the browser to
// redirect_to with the session in the fragment and type=invite. An unconfirmed address is invited
// again with a new link; a confirmed one is refused with 422 email_exists, as GoTrue does.
import { randomBytes } from 'node:crypto'
import { sendJson } from '../http.ts'
import { type AuthCall, readBody, requireServiceRole, stringField } from './context.ts'
import { API_VERSION, AuthError, validationFailed } from './errors.ts'
import { sendMail } from './outbox.ts'
import { chooseRedirect } from './redirects.ts'
import { withTransaction } from './sessions.ts'
import { findUserIdByEmail, insertUser, isValidEmail, loadUser, normalizeEmail } from './users.ts'

/** How long an invite link works: GoTrue's mailer_otp_exp default (one day). */
const INVITE_SECONDS = 24 * 60 * 60

const metadataOf = (body: Record<string, unknown>): Record<string, unknown> => {
  const data = body.data
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
}

export async function invite(call: AuthCall): Promise<void> {
  await requireServiceRole(call)
  const body = await readBody(call.request)
  const email = normalizeEmail(stringField(body, 'email') ?? '')
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  const redirect = chooseRedirect(call.ctx.config, call.request.url.searchParams.get('redirect_to'))
  const stored = randomBytes(28).toString('hex')
  const userId = await withTransaction(call.ctx.adminPool, async (db) => {
    const existing = await findUserIdByEmail(db, email)
    if (existing && (await loadUser(db, existing))?.email_confirmed_at) {
      throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
    }
    // An address invited before and not yet confirmed is invited again with a new link, as GoTrue does.
    const id =
      existing ??
      (await insertUser(db, {
        email,
        userMetadata: metadataOf(body),
        provider: 'email',
        emailConfirmed: false,
      }))
    await db.query(
      'update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now() where id = $1',
      [id, stored],
    )
    return id
  })
  const link = `${call.ctx.config.apiUrl}/auth/v1/verify?${new URLSearchParams({ token: stored, type: 'invite', redirect_to: redirect })}`
  sendMail(call.ctx.config, {
    to: email,
    subject: 'You have been invited',
    text: `You have been invited to create a user on ${new URL(redirect).origin}. Follow this link to accept the invite:\n${link}`,
    links: [link],
  })
  sendJson(call.request.res, 200, await loadUser(call.ctx.adminPool, userId), {
    'X-Supabase-Api-Version': API_VERSION,
  })
}

/** Consumes a live invite token and confirms the address; the user id, or undefined when unknown or expired. */
export async function consumeInviteToken(call: AuthCall, stored: string): Promise<string | undefined> {
  if (!stored) return undefined
  const { rows } = await call.ctx.adminPool.query<{ id: string }>(
    `update auth.users set confirmation_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
       updated_at = now()
     where confirmation_token = $1 and invited_at > now() - make_interval(secs => $2) and deleted_at is null
     returning id`,
    [stored, INVITE_SECONDS],
  )
  return rows[0]?.id
}
