import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { getWorkspacePeople } from '@/lib/workspace-people'
import { getInboxCampaigns } from '../api/get-inbox-campaigns'
import { getInboxMessages } from '../api/get-inbox-messages'
import { getInboxOverview } from '../api/get-inbox-overview'
import { getInboxThreads } from '../api/get-inbox-threads'
import { getThreadNotes } from '../api/thread-notes'
import type { InboxFilters } from '../api/types'

export const inboxKeys = {
  overview: [queryRoots.inbox, 'overview'],
  threads: (filters: InboxFilters) => [queryRoots.inbox, 'threads', filters],
  messages: (threadId: string) => [queryRoots.inbox, 'messages', threadId],
  campaigns: [queryRoots.inbox, 'campaigns'],
  notes: (threadId: string) => [queryRoots.inbox, 'notes', threadId],
  people: (workspaceId: string) => [queryRoots.inbox, 'people', workspaceId],
} as const

/** While an answer is on its way its status is followed closely. */
const SENDING_POLL_MS = 2_000
/** The badge follows new replies about as often as the notifications bell (product.md §9: 60 s). */
const BADGE_POLL_MS = 60_000

/** The tab's badge and the accounts' last checks; `checking` polls fast until a check has run. */
export function useInboxOverview(checking = false) {
  return useQuery({
    queryKey: inboxKeys.overview,
    queryFn: getInboxOverview,
    refetchInterval: checking ? SENDING_POLL_MS : BADGE_POLL_MS,
  })
}

export function useInboxThreads(filters: InboxFilters, me: string | undefined) {
  return useQuery({
    queryKey: [...inboxKeys.threads(filters), me],
    queryFn: () => getInboxThreads(filters, me),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_POLL_MS,
  })
}

export function useInboxMessages(threadId: string) {
  return useQuery({
    queryKey: inboxKeys.messages(threadId),
    queryFn: () => getInboxMessages(threadId),
    refetchInterval: (query) =>
      query.state.data?.some(
        (m) => m.status === 'queued' || m.status === 'sending' || m.status === 'uncertain',
      )
        ? SENDING_POLL_MS
        : LIVE_POLL_MS,
  })
}

export function useInboxCampaigns() {
  return useQuery({ queryKey: inboxKeys.campaigns, queryFn: getInboxCampaigns })
}

export function useThreadNotes(threadId: string) {
  return useQuery({
    queryKey: inboxKeys.notes(threadId),
    queryFn: () => getThreadNotes(threadId),
    refetchInterval: LIVE_POLL_MS,
  })
}

/** The workspace's members: the assign control's choices and the notes' authors. */
export function useWorkspacePeople() {
  const workspaceId = useWorkspaceRole().workspace?.id ?? ''
  return useQuery({
    queryKey: inboxKeys.people(workspaceId),
    queryFn: () => getWorkspacePeople(workspaceId),
    enabled: workspaceId !== '',
    staleTime: 60_000,
  })
}
