import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { getWorkspacePeople } from '@/lib/workspace-people'
import { ACTIVITY_PAGE_SIZE, getActivity } from '../api/get-activity'
import { type ActivityFilters, activityKeys } from '../api/types'

export function useActivityPeople(enabled: boolean) {
  const workspaceId = useWorkspaceRole().workspace?.id ?? ''
  return useQuery({
    queryKey: activityKeys.people(workspaceId),
    queryFn: () => getWorkspacePeople(workspaceId),
    enabled: enabled && workspaceId !== '',
    staleTime: 60_000,
  })
}

/** One page (0-based) of the filtered log. */
export function useActivityPage(filters: ActivityFilters, page: number, enabled: boolean) {
  return useQuery({
    queryKey: activityKeys.page(filters, page),
    queryFn: () =>
      getActivity(filters, { from: page * ACTIVITY_PAGE_SIZE, to: (page + 1) * ACTIVITY_PAGE_SIZE - 1 }),
    placeholderData: keepPreviousData,
    enabled,
  })
}
