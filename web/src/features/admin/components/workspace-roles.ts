import { type AdminWorkspace, WORKSPACE_ROLES } from '@reachflow/domain'

/** "1 owner, 2 editors": the members per role, owners first. */
export function describeRoles(roles: AdminWorkspace['roles']): string {
  return WORKSPACE_ROLES.flatMap((role) => {
    const count = roles[role] ?? 0
    return count > 0 ? [`${count} ${role}${count === 1 ? '' : 's'}`] : []
  }).join(', ')
}
