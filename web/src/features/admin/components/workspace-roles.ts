import type { AdminWorkspace, WorkspaceRoleName } from '@reachflow/domain'

const ROLE_ORDER: WorkspaceRoleName[] = ['owner', 'admin', 'editor', 'agent', 'viewer']

/** "1 owner, 2 editors": the members per role, owners first. */
export function describeRoles(roles: AdminWorkspace['roles']): string {
  return ROLE_ORDER.flatMap((role) => {
    const count = roles[role] ?? 0
    return count > 0 ? [`${count} ${role}${count === 1 ? '' : 's'}`] : []
  }).join(', ')
}
