import { INVITABLE_ROLES, type InvitationSent } from '@reachflow/domain'
import { z } from 'zod'
import { callApi } from '@/lib/api-client'

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address')),
  role: z.enum(INVITABLE_ROLES, 'Choose a role'),
})
export type InviteInput = z.input<typeof inviteSchema>

/** The api function checks the role (invite_member), then mails the link through Supabase Auth. */
export function inviteMember(workspaceId: string, input: InviteInput): Promise<InvitationSent> {
  return callApi('POST /workspaces/:id/invitations', {
    params: { id: workspaceId },
    body: inviteSchema.parse(input),
  })
}
