import type { InvitationSent } from '@reachflow/domain'
import { callApi } from '@/lib/api-client'

export function resendInvitation(workspaceId: string, invitationId: string): Promise<InvitationSent> {
  return callApi('POST /workspaces/:id/invitations/:invitationId/resend', {
    params: { id: workspaceId, invitationId },
  })
}
