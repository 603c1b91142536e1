import { useQuery } from '@tanstack/react-query'
import { queryRoots } from '@/lib/query-keys'
import { getWorkspacePlan } from '../api/get-workspace-plan'

/** Under the dashboard's root, so switching workspaces (which refetches everything) refreshes it. */
export function useWorkspacePlan() {
  return useQuery({ queryKey: [queryRoots.dashboard, 'workspace-plan'], queryFn: getWorkspacePlan })
}
