import type { RoleAbilities } from '@reachflow/domain'
import type { ReactNode } from 'react'
import { RoleNotAllowed } from '@/components/ui/role-not-allowed'
import { FullPageSpinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'

/** A page only some roles open: the rest read why (docs/decisions.md, the role matrix). */
export function RoleGate({ ability, children }: { ability: keyof RoleAbilities; children: ReactNode }) {
  const { can, loading, workspace } = useWorkspaceRole()
  if (loading && !workspace) return <FullPageSpinner />
  if (!can[ability]) {
    return (
      <RoleNotAllowed
        backHref={can.inbox && !can.readWorkspace ? `${paths.dashboard}?tab=inbox` : paths.dashboard}
        backLabel="Back to Dashboard"
      />
    )
  }
  return <>{children}</>
}
