import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { FullPageSpinner } from '@/components/ui/spinner'
import { WorkspaceSettingsPage } from '@/features/workspaces/components/workspace-settings-page'
import { createQueryClient } from '@/lib/query-client'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { SignedInLayout } from '../layouts/signed-in-layout'

/** Every member may open it (to leave); what each card offers follows the role. */
export default function WorkspaceSettingsRoute() {
  const [queryClient] = useState(createQueryClient)
  const { workspace } = useWorkspaceRole()
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInLayout>
        {workspace ? <WorkspaceSettingsPage key={workspace.id} workspace={workspace} /> : <FullPageSpinner />}
      </SignedInLayout>
    </QueryClientProvider>
  )
}
