import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { MembersPage } from '@/features/workspaces/components/members-page'
import { createQueryClient } from '@/lib/query-client'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { RoleGate } from '../guards/role-gate'
import { SignedInLayout } from '../layouts/signed-in-layout'

function ActiveMembers() {
  const { workspace } = useWorkspaceRole()
  return workspace ? <MembersPage key={workspace.id} workspace={workspace} /> : null
}

export default function MembersRoute() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInLayout>
        <RoleGate ability="manageMembers">
          <ActiveMembers />
        </RoleGate>
      </SignedInLayout>
    </QueryClientProvider>
  )
}
