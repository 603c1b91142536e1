import type { WorkspaceRoleName } from '@reachflow/domain'

/** Who reads the activity log (its row-level security says the same). */
export const canReadActivity = (role: WorkspaceRoleName | null | undefined) =>
  role === 'owner' || role === 'admin'
