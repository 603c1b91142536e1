import type { InvitationSent, WorkspaceRoleName } from '@reachflow/domain'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { MailPlus, Users } from 'lucide-react'
import { useState } from 'react'
import { PageHeading } from '@/components/layouts/page-heading'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { errorMessage } from '@/lib/api-client'
import { useAuth } from '@/lib/auth-store'
import { loadWorkspaces } from '@/lib/workspace/workspace-store'
import { changeMemberRole } from '../api/change-member-role'
import { listInvitations, type PendingInvitation } from '../api/list-invitations'
import { listMembers, type WorkspaceMember } from '../api/list-members'
import { removeMember } from '../api/remove-member'
import { resendInvitation } from '../api/resend-invitation'
import { revokeInvitation } from '../api/revoke-invitation'
import { InvitationsList } from './invitations-list'
import { InviteForm } from './invite-form'
import { MembersList } from './members-list'

const membersKey = (id: string) => ['workspace-members', id] as const
const invitationsKey = (id: string) => ['workspace-invitations', id] as const

function ListSkeleton() {
  return (
    <div className="space-y-3" aria-hidden="true">
      <Skeleton className="h-10" />
      <Skeleton className="h-10" />
    </div>
  )
}

/** Who is in the workspace, who is invited, and the owner's and admins' controls over both. */
export function MembersPage({
  workspace,
}: {
  workspace: { id: string; name: string; role: WorkspaceRoleName }
}) {
  const me = useAuth((s) => s.user?.id ?? null)
  const toast = useToast()
  const queryClient = useQueryClient()
  const members = useQuery({ queryKey: membersKey(workspace.id), queryFn: () => listMembers(workspace.id) })
  const invitations = useQuery({
    queryKey: invitationsKey(workspace.id),
    queryFn: () => listInvitations(workspace.id),
  })
  const [busyMember, setBusyMember] = useState<string | null>(null)
  const [busyInvitation, setBusyInvitation] = useState<string | null>(null)
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null)

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: membersKey(workspace.id) }),
      queryClient.invalidateQueries({ queryKey: invitationsKey(workspace.id) }),
    ])
    if (me) await loadWorkspaces(me, true)
  }

  const sent = (answer: InvitationSent) => {
    toast.success(answer.message)
    void refresh()
  }

  const changeRole = async (member: WorkspaceMember, role: WorkspaceRoleName) => {
    setBusyMember(member.userId)
    try {
      await changeMemberRole(workspace.id, member.userId, role)
      toast.success(`${member.name ?? member.email} is now ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`)
      await refresh()
    } catch (error) {
      toast.error(`Failed to change the role: ${errorMessage(error)}`)
    } finally {
      setBusyMember(null)
    }
  }

  const confirmRemove = async () => {
    if (!removing) return
    setBusyMember(removing.userId)
    try {
      await removeMember(workspace.id, removing.userId)
      toast.success(`${removing.name ?? removing.email} was removed from ${workspace.name}`)
      setRemoving(null)
      await refresh()
    } catch (error) {
      toast.error(`Failed to remove the member: ${errorMessage(error)}`)
    } finally {
      setBusyMember(null)
    }
  }

  const resend = async (invitation: PendingInvitation) => {
    setBusyInvitation(invitation.id)
    try {
      sent(await resendInvitation(workspace.id, invitation.id))
    } catch (error) {
      toast.error(`Failed to resend the invitation: ${errorMessage(error)}`)
    } finally {
      setBusyInvitation(null)
    }
  }

  const revoke = async (invitation: PendingInvitation) => {
    setBusyInvitation(invitation.id)
    try {
      await revokeInvitation(invitation.id)
      toast.success(`The invitation to ${invitation.email} was revoked`)
      await refresh()
    } catch (error) {
      toast.error(`Failed to revoke the invitation: ${errorMessage(error)}`)
    } finally {
      setBusyInvitation(null)
    }
  }

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <PageHeading title="Members" description={`Who works in ${workspace.name}, and with which role.`} />

      <Card>
        <CardHeader>
          <CardTitle>Invite a member</CardTitle>
        </CardHeader>
        <CardBody className="space-y-4">
          <InviteForm workspaceId={workspace.id} onSent={sent} />
        </CardBody>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
        </CardHeader>
        <CardBody>
          {members.isPending ? (
            <ListSkeleton />
          ) : members.isError ? (
            <ErrorState message={members.error.message} onRetry={() => void members.refetch()} />
          ) : members.data.length === 0 ? (
            <EmptyState icon={Users} title="No members yet" />
          ) : (
            <MembersList
              members={members.data}
              myRole={workspace.role}
              myUserId={me}
              busyUserId={busyMember}
              onChangeRole={(member, role) => void changeRole(member, role)}
              onRemove={setRemoving}
            />
          )}
        </CardBody>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Pending invitations</CardTitle>
        </CardHeader>
        <CardBody>
          {invitations.isPending ? (
            <ListSkeleton />
          ) : invitations.isError ? (
            <ErrorState message={invitations.error.message} onRetry={() => void invitations.refetch()} />
          ) : invitations.data.length === 0 ? (
            <EmptyState
              icon={MailPlus}
              title="No pending invitations"
              description="Invitations you send appear here until they are accepted, for 7 days."
            />
          ) : (
            <InvitationsList
              invitations={invitations.data}
              now={invitations.dataUpdatedAt}
              busyId={busyInvitation}
              onResend={(i) => void resend(i)}
              onRevoke={(i) => void revoke(i)}
            />
          )}
        </CardBody>
      </Card>

      <ConfirmDialog
        open={removing !== null}
        title="Remove member"
        message={`Remove ${removing?.name ?? removing?.email ?? ''} from ${workspace.name}? They lose access at once.`}
        confirmLabel="Remove"
        busy={busyMember !== null && busyMember === removing?.userId}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      />
    </main>
  )
}
