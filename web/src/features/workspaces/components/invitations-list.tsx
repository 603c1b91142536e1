import { ROLE_LABELS } from '@reachflow/domain'
import { Button } from '@/components/ui/button'
import { formatDate } from '@/lib/format'
import type { PendingInvitation } from '../api/list-invitations'

interface InvitationsListProps {
  invitations: PendingInvitation[]
  now: number
  busyId: string | null
  onResend: (invitation: PendingInvitation) => void
  onRevoke: (invitation: PendingInvitation) => void
}

export function InvitationsList({ invitations, now, busyId, onResend, onRevoke }: InvitationsListProps) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Pending invitations">
      {invitations.map((invitation) => {
        const expired = Date.parse(invitation.expiresAt) <= now
        return (
          <li key={invitation.id} className="flex flex-wrap items-center gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900">{invitation.email}</p>
              <p className={expired ? 'text-xs font-medium text-amber-700' : 'text-xs text-slate-500'}>
                {ROLE_LABELS[invitation.role]} ·{' '}
                {expired ? 'Expired' : `Expires ${formatDate(invitation.expiresAt)}`}
              </p>
            </div>
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Resend the invitation to ${invitation.email}`}
              loading={busyId === invitation.id}
              onClick={() => onResend(invitation)}
            >
              Resend
            </Button>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Revoke the invitation to ${invitation.email}`}
              disabled={busyId === invitation.id}
              onClick={() => onRevoke(invitation)}
            >
              Revoke
            </Button>
          </li>
        )
      })}
    </ul>
  )
}
