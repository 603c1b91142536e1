import { useQueryClient } from '@tanstack/react-query'
import { Inbox, MessagesSquare, Search } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Select } from '@/components/ui/form-field'
import { SegmentedControl } from '@/components/ui/segmented-control'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { useAuth } from '@/lib/auth-store'
import { cn } from '@/lib/cn'
import { useRegisterExport } from '@/lib/export-registry'
import { pluralize } from '@/lib/format'
import { exportInbox } from '../api/export-inbox'
import type { AssigneeFilter, InboxFilters, StatusFilter } from '../api/types'
import {
  inboxKeys,
  useInboxCampaigns,
  useInboxOverview,
  useInboxThreads,
  useWorkspacePeople,
} from '../hooks/use-inbox'
import { CheckNow } from './check-now'
import { platformName, ThreadList } from './thread-list'
import { ThreadView } from './thread-view'

const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'handled', label: 'Handled' },
  { value: 'all', label: 'All' },
] as const satisfies readonly { value: StatusFilter; label: string }[]

const ASSIGNEE_OPTIONS = [
  { value: 'me', label: 'Assigned to me' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'all', label: 'Everyone' },
] as const satisfies readonly { value: AssigneeFilter; label: string }[]

const ALL_CONVERSATIONS: InboxFilters = { accountId: '', campaignId: '', status: 'all', assignee: 'all' }

/**
 * Conversations inbox: every conversation with a reply across the customer's accounts
 * and campaigns, newest first; the selected one beside the list (on a phone, over the whole screen).
 */
export function InboxTab({
  threadId,
  onOpenThread,
}: {
  threadId: string | null
  onOpenThread: (id: string | null) => void
}) {
  const [filters, setFilters] = useState<InboxFilters>({
    accountId: '',
    campaignId: '',
    status: 'open',
    assignee: 'all',
  })
  const me = useAuth((s) => s.user?.id)
  const threads = useInboxThreads(filters, me)
  const people = useWorkspacePeople()
  const overview = useInboxOverview()
  const campaigns = useInboxCampaigns()
  const narrowed = Boolean(filters.accountId || filters.campaignId || filters.assignee !== 'all')
  const list = threads.data ?? []
  const selected = list.find((t) => t.id === threadId)
  const change = (next: Partial<InboxFilters>) => setFilters((current) => ({ ...current, ...next }))
  const toast = useToast()
  useRegisterExport(async () => {
    const count = await exportInbox(filters, me)
    toast.success(`${pluralize(count, 'conversation')} exported`)
  })

  // The badge follows what the list shows (the list refreshes more often than the badge).
  const queryClient = useQueryClient()
  const unreadShown = list.reduce((sum, t) => sum + t.unread_count, 0)
  const badgeSeen = useRef<number | null>(null)
  useEffect(() => {
    if (!threads.isSuccess || badgeSeen.current === unreadShown) return
    badgeSeen.current = unreadShown
    void queryClient.invalidateQueries({ queryKey: inboxKeys.overview })
  }, [unreadShown, threads.isSuccess, queryClient])

  // A conversation opened from outside (a notification) shows even when the filters hide it; once.
  const hidden = Boolean(threadId && threads.isSuccess && !threads.isPlaceholderData && !selected)
  const revealed = useRef<string | null>(null)
  useEffect(() => {
    if (!hidden || !threadId || revealed.current === threadId) return
    revealed.current = threadId
    setFilters(ALL_CONVERSATIONS)
  }, [hidden, threadId])

  return (
    <div className="space-y-4">
      {/* On a phone an open conversation takes the room the filters would. */}
      <div
        className={cn(
          'flex flex-col gap-3 xl:flex-row xl:items-center xl:justify-between',
          selected && 'max-lg:hidden',
        )}
      >
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
          <SegmentedControl
            label="Conversation status"
            options={STATUS_OPTIONS}
            value={filters.status}
            onChange={(status) => change({ status })}
          />
          <SegmentedControl
            label="Assigned to"
            options={ASSIGNEE_OPTIONS}
            value={filters.assignee}
            onChange={(assignee) => change({ assignee })}
          />
          <Select
            aria-label="Account"
            className="h-9 py-0 sm:w-48"
            value={filters.accountId}
            onChange={(e) => change({ accountId: e.target.value })}
          >
            <option value="">All Accounts</option>
            {overview.data?.accounts.map((a) => (
              <option key={a.id} value={a.id}>
                @{a.username} · {platformName(a.platform)}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Campaign"
            className="h-9 py-0 sm:w-52"
            value={filters.campaignId}
            onChange={(e) => change({ campaignId: e.target.value })}
          >
            <option value="">All Campaigns</option>
            {campaigns.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </div>
        <CheckNow accountId={filters.accountId} />
      </div>

      {threads.isError ? (
        <ErrorState message={threads.error.message} onRetry={() => void threads.refetch()} />
      ) : threads.isPending ? (
        <div
          className="space-y-2 rounded-2xl border border-slate-200 bg-white p-4"
          role="status"
          aria-label="Loading conversations"
        >
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="flex gap-3">
              <Skeleton className="size-10 rounded-full" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-1/3" />
                <Skeleton className="h-3 w-2/3" />
              </div>
            </div>
          ))}
        </div>
      ) : list.length === 0 && !selected ? (
        narrowed ? (
          <EmptyState
            icon={Search}
            title="No conversations found"
            description="No conversation matches these filters."
          />
        ) : (
          <EmptyState
            icon={Inbox}
            title={filters.status === 'open' ? 'No open conversations' : 'No replies yet'}
            description="When someone answers your outreach, the whole conversation shows here and you can answer from Reachflow. Replies are checked every 15 minutes, or now with Check now."
          />
        )
      ) : (
        <div className="grid overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm lg:h-[36rem] lg:grid-cols-[22rem_1fr]">
          <div
            className={cn(
              'min-h-0 overflow-y-auto lg:border-r lg:border-slate-200',
              selected && 'max-lg:hidden',
            )}
          >
            <ThreadList
              threads={list}
              people={people.data ?? []}
              me={me}
              selectedId={threadId}
              onSelect={onOpenThread}
            />
          </div>
          <div className={cn('min-h-0', !selected && 'max-lg:hidden')}>
            {selected ? (
              // On a phone the conversation takes the whole screen over the dashboard's cards and
              // tabs (its back control returns to the list); beside the list from lg up.
              <div className="flex flex-col bg-white max-lg:fixed max-lg:inset-0 max-lg:z-40 max-lg:h-dvh lg:h-full">
                <ThreadView
                  key={selected.id}
                  thread={selected}
                  account={overview.data?.accounts.find((a) => a.id === selected.account_id)}
                  people={people.data ?? []}
                  me={me}
                  onBack={() => onOpenThread(null)}
                  onHandled={() => onOpenThread(null)}
                />
              </div>
            ) : (
              <div className="flex h-full flex-col items-center justify-center gap-2 p-8 text-center text-sm text-slate-500">
                <MessagesSquare className="size-8 text-slate-300" aria-hidden="true" />
                Choose a conversation to read it and answer.
              </div>
            )}
          </div>
        </div>
      )}
    </div>
  )
}
