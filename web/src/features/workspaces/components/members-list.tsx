import { ROLE_LABELS, WORKSPACE_ROLES, type WorkspaceRoleName } from '@reachflow/domain'
import { UserMinus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Select } from '@/components/ui/form-field'
import { formatDate } from '@/lib/format'
import type { WorkspaceMember } from '../api/list-members'

interface MembersListProps {
  members: WorkspaceMember[]
  myRole: WorkspaceRoleName
  myUserId: string | null
  busyUserId: string | null
  onChangeRole: (member: WorkspaceMember, role: WorkspaceRoleName) => void
  onRemove: (member: WorkspaceMember) => void
}

/** Only an owner touches owners or makes one; nobody changes their own row here (settings: leave). */
function editableBy(myRole: WorkspaceRoleName, member: WorkspaceMember, me: string | null): boolean {
  if (member.userId === me) return false
  return myRole === 'owner' || member.role !== 'owner'
}

export function MembersList({
  members,
  myRole,
  myUserId,
  busyUserId,
  onChangeRole,
  onRemove,
}: MembersListProps) {
  const choices = WORKSPACE_ROLES.filter((r) => myRole === 'owner' || r !== 'owner')
  return (
    <ul className="divide-y divide-slate-100" aria-label="Members">
      {members.map((member) => {
        const editable = editableBy(myRole, member, myUserId)
        const label = member.name ?? member.email
        return (
          <li key={member.userId} className="flex flex-wrap items-center gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900">
                {label}
                {member.userId === myUserId && <span className="font-normal text-slate-500"> (you)</span>}
              </p>
              <p className="truncate text-xs text-slate-500">
                {member.name ? `${member.email} · ` : ''}Joined {formatDate(member.joinedAt)}
              </p>
            </div>
            {editable ? (
              <>
                <label className="sr-only" htmlFor={`role-${member.userId}`}>
                  Role of {label}
                </label>
                <div className="w-32 shrink-0">
                  <Select
                    id={`role-${member.userId}`}
                    value={member.role}
                    disabled={busyUserId === member.userId}
                    onChange={(event) => onChangeRole(member, event.target.value as WorkspaceRoleName)}
                  >
                    {choices.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABELS[r]}
                      </option>
                    ))}
                  </Select>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${label}`}
                  disabled={busyUserId === member.userId}
                  onClick={() => onRemove(member)}
                  icon={<UserMinus className="size-4" aria-hidden="true" />}
                >
                  <span className="max-sm:sr-only">Remove</span>
                </Button>
              </>
            ) : (
              <span className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700">
                {ROLE_LABELS[member.role]}
              </span>
            )}
          </li>
        )
      })}
    </ul>
  )
}
