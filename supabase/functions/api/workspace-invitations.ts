// /workspaces/:id/invitations: an owner or admin invites someone by e-mail with a role, or resends a
// pending invitation. The database decides who may (invite_member / resend_invitation, run as the
// caller); this route then mails the link SITE_URL/invite/<token> through Supabase Auth's own mailer
// (hosted Supabase sends with the project's SMTP, the local stack writes to its outbox). Auth's admin
// invite only takes an address without a login; a person who already has one is sent a magic link
// instead (POST /auth/v1/otp with create_user false), which signs them in on the same page.
import { INVITABLE_ROLES, type InvitationSent } from '@reachflow/domain'
import { fromDbError } from '../_shared/db-errors.ts'
import { requireEnv } from '../_shared/env.ts'
import { forbidden, HttpError, jsonResponse } from '../_shared/errors.ts'
import { parseBody, parseId, z } from '../_shared/validation.ts'
import type { CallContext } from './deps.ts'

const inviteBody = z.object({
  email: z.string('Enter a valid e-mail address').trim().min(1, 'Enter a valid e-mail address').max(254),
  role: z.enum(INVITABLE_ROLES, 'Choose a role'),
})

interface Issued {
  invitation_id: string
  email: string
  token: string
  expires_at: string
}

/** The database's refusals; a role or membership refusal is a 403 with the spec's words. */
function refusal(error: { code?: string; message: string }): HttpError | Error {
  if (error.code === '42501') return forbidden(error.message)
  return fromDbError(error)
}

function issuedOrThrow(result: {
  data: Issued[] | null
  error: { code?: string; message: string } | null
}): Issued {
  if (result.error) throw refusal(result.error)
  const issued = result.data?.[0]
  if (!issued) throw new Error('The invitation RPC answered no row')
  return issued
}

/** Auth's words when it would not mail, e.g. the one-mail-per-minute limit of magic links. */
function notMailed(issued: Issued, error: { status?: number; message: string }): HttpError | Error {
  if (error.status === 429) {
    return new HttpError(
      429,
      `The invitation to ${issued.email} is saved, but no e-mail could go out yet: ${error.message} Then resend it.`,
    )
  }
  return new Error(`Auth did not send the invitation: ${error.message}`)
}

async function mailInvitation(
  ctx: CallContext,
  workspaceId: string,
  issued: Issued,
): Promise<InvitationSent> {
  const link = `${requireEnv('SITE_URL', ctx.deps.env).replace(/\/+$/, '')}/invite/${issued.token}`
  const { data: workspace } = await ctx.caller.db
    .from('workspaces')
    .select('name')
    .eq('id', workspaceId)
    .maybeSingle()
  const auth = ctx.service().auth
  const invited = await auth.admin.inviteUserByEmail(issued.email, {
    redirectTo: link,
    data: { invited_to_workspace: workspace?.name ?? null },
  })
  const hasLogin = invited.error?.code === 'email_exists'
  const { error } = hasLogin
    ? await auth.signInWithOtp({
        email: issued.email,
        options: { shouldCreateUser: false, emailRedirectTo: link },
      })
    : invited
  if (error) throw notMailed(issued, error)
  return {
    invitation: { id: issued.invitation_id, email: issued.email, expires_at: issued.expires_at },
    link,
    message: `Invitation sent to ${issued.email}`,
  } satisfies InvitationSent
}

export async function inviteMember(req: Request, ctx: CallContext): Promise<Response> {
  const workspaceId = parseId(ctx.params.id, 'Workspace not found')
  const body = await parseBody(req, inviteBody)
  const issued = issuedOrThrow(
    await ctx.caller.db.rpc('invite_member', {
      p_workspace_id: workspaceId,
      p_email: body.email,
      p_role: body.role,
    }),
  )
  return jsonResponse(await mailInvitation(ctx, workspaceId, issued), 201)
}

export async function resendInvitation(_req: Request, ctx: CallContext): Promise<Response> {
  const workspaceId = parseId(ctx.params.id, 'Workspace not found')
  const invitationId = parseId(ctx.params.invitationId, 'Invitation not found')
  const { data: invitation } = await ctx.caller.db
    .from('workspace_invitations')
    .select('workspace_id')
    .eq('id', invitationId)
    .maybeSingle()
  if (invitation && invitation.workspace_id !== workspaceId) throw new HttpError(404, 'Invitation not found')
  // Resending gives a new token before Auth is asked to mail it. When Auth will not mail (its
  // one-mail-a-minute limit), the link the invitee already holds must keep working.
  const { data: previous } = await ctx
    .service()
    .from('workspace_invitations')
    .select('token_hash, expires_at, last_sent_at')
    .eq('id', invitationId)
    .maybeSingle()
  const issued = issuedOrThrow(
    await ctx.caller.db.rpc('resend_invitation', { p_invitation_id: invitationId }),
  )
  try {
    return jsonResponse(await mailInvitation(ctx, workspaceId, issued))
  } catch (error) {
    if (previous) {
      const restored = await ctx
        .service()
        .from('workspace_invitations')
        .update(previous)
        .eq('id', invitationId)
      if (restored.error)
        throw new Error(`The earlier invitation link could not be kept: ${restored.error.message}`)
    }
    throw error
  }
}
