import { CheckCircle2, UserRound } from 'lucide-react'
import { cn } from '@/lib/cn'
import { relativeTime } from '@/lib/relative-time'
import { findPerson, personName } from '@/lib/workspace-people'
import type { InboxThread, WorkspacePerson } from '../api/types'
import { platformName } from '../platform'

export { platformName }

/**
 * The conversations, newest first; the selected one highlighted, unread ones bold with their count,
 * each with the member it is assigned to.
 */
export function ThreadList({
  threads,
  people,
  me,
  selectedId,
  onSelect,
}: {
  threads: InboxThread[]
  people: readonly WorkspacePerson[]
  me: string | undefined
  selectedId: string | null
  onSelect: (id: string) => void
}) {
  return (
    <ul aria-label="Conversations" className="divide-y divide-slate-100">
      {threads.map((thread) => {
        const selected = thread.id === selectedId
        const unread = thread.unread_count > 0
        return (
          <li key={thread.id}>
            <button
              type="button"
              onClick={() => onSelect(thread.id)}
              aria-current={selected ? 'true' : undefined}
              data-testid="inbox-thread"
              className={cn(
                'flex w-full gap-3 px-4 py-3 text-left transition-colors focus-visible:bg-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600',
                selected ? 'bg-brand-50' : 'hover:bg-slate-50',
              )}
            >
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-100 to-violet-100 text-sm font-semibold text-brand-700 uppercase"
              >
                {thread.peer_username.charAt(0)}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span
                    className={cn(
                      'truncate text-sm text-slate-900',
                      unread ? 'font-semibold' : 'font-medium',
                    )}
                  >
                    @{thread.peer_username}
                  </span>
                  {thread.last_message_at && (
                    <span className="shrink-0 text-xs text-slate-500">
                      {relativeTime(thread.last_message_at)}
                    </span>
                  )}
                </span>
                <span className="mt-0.5 flex items-center gap-2">
                  <span
                    className={cn(
                      'min-w-0 flex-1 truncate text-sm',
                      unread ? 'text-slate-800' : 'text-slate-500',
                    )}
                  >
                    {thread.last_message_direction === 'outgoing' && 'You: '}
                    {thread.last_message_preview}
                  </span>
                  {unread && (
                    <span
                      data-testid="thread-unread-count"
                      className="min-w-5 shrink-0 rounded-full bg-brand-600 px-1.5 py-0.5 text-center text-[11px] leading-none font-semibold text-white tabular-nums"
                    >
                      {thread.unread_count}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                </span>
                <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-slate-500">
                  <span>
                    via @{thread.account?.username ?? 'deleted account'}
                    {thread.account && ` · ${platformName(thread.account.platform)}`}
                  </span>
                  {thread.campaign_name && (
                    <span className="truncate rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">
                      {thread.campaign_name}
                    </span>
                  )}
                  {thread.assigned_to && (
                    <span
                      data-testid="thread-assignee"
                      className="inline-flex min-w-0 items-center gap-0.5 text-brand-700"
                    >
                      <UserRound className="size-3 shrink-0" aria-hidden="true" />
                      <span className="truncate">
                        {personName(findPerson(people, thread.assigned_to), me)}
                      </span>
                    </span>
                  )}
                  {thread.status === 'handled' && (
                    <span className="inline-flex items-center gap-0.5 text-emerald-700">
                      <CheckCircle2 className="size-3" aria-hidden="true" />
                      Handled
                    </span>
                  )}
                </span>
              </span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}
