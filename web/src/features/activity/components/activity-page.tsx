import { useMutation } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Download, History, Lock, Search } from 'lucide-react'
import { useState } from 'react'
import { PageHeading } from '@/components/layouts/page-heading'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { useAuth } from '@/lib/auth-store'
import { formatCount, pluralize } from '@/lib/format'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { loadWorkspaces } from '@/lib/workspace/workspace-store'
import { activityActionLabel, activityActor, describeActivity } from '../activity-text'
import { exportActivity } from '../api/export-activity'
import { ACTIVITY_PAGE_SIZE } from '../api/get-activity'
import type { ActivityFilters } from '../api/types'
import { canReadActivity } from '../can-read-activity'
import { useActivityPage, useActivityPeople } from '../hooks/use-activity'
import { ActivityFiltersBar } from './activity-filters'

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const NO_FILTERS: ActivityFilters = { action: '', actor: '', from: '', to: '' }

/**
 * The workspace's activity log for its owners and admins: who launched, paused, answered, assigned,
 * changed members, connected or removed an account; filtered, a page at a time, exported as CSV.
 */
export function ActivityPage() {
  const { role, loading: roleLoading, error: roleError } = useWorkspaceRole()
  const allowed = canReadActivity(role)
  const me = useAuth((s) => s.user?.id)
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS)
  const [page, setPage] = useState(0)
  const people = useActivityPeople(allowed)
  const activity = useActivityPage(filters, page, allowed)
  const toast = useToast()
  const exporting = useMutation({
    mutationFn: () => exportActivity(filters),
    onSuccess: (count) => toast.success(`${pluralize(count, 'entry', 'entries')} exported`),
    onError: (error) => toast.error(error.message),
  })
  const change = (next: Partial<ActivityFilters>) => {
    setFilters((current) => ({ ...current, ...next }))
    setPage(0)
  }
  const total = activity.data?.total ?? 0
  const first = page * ACTIVITY_PAGE_SIZE
  const entries = activity.data?.entries ?? []
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS)

  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-6 sm:py-12">
      <div>
        <PageHeading
          title="Activity"
          description="Who did what in this workspace: campaigns launched and paused, answers, assignments, members and accounts."
        />
      </div>
      {roleLoading ? (
        <Skeleton className="h-40 w-full" />
      ) : roleError ? (
        <ErrorState message={roleError} onRetry={() => me && void loadWorkspaces(me)} />
      ) : !allowed ? (
        <EmptyState
          icon={Lock}
          title="Only owners and admins see the activity"
          description="Ask an owner or an admin of this workspace if you need to know who did what."
        />
      ) : (
        <section className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-card sm:p-5">
          <div className="flex flex-wrap items-end justify-between gap-3">
            {/* a phone: the filters take the row, Export CSV goes under them */}
            <div className="min-w-0 flex-1 basis-full lg:basis-0">
              <ActivityFiltersBar filters={filters} people={people.data ?? []} me={me} onChange={change} />
            </div>
            <Button
              variant="secondary"
              size="sm"
              loading={exporting.isPending}
              disabled={total === 0}
              onClick={() => exporting.mutate()}
              icon={<Download className="size-4" aria-hidden="true" />}
            >
              Export CSV
            </Button>
          </div>
          {activity.isError ? (
            <ErrorState message={activity.error.message} onRetry={() => void activity.refetch()} />
          ) : activity.isPending ? (
            <div className="space-y-2" role="status" aria-label="Loading the activity">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-12 w-full" />
              ))}
            </div>
          ) : entries.length === 0 ? (
            <EmptyState
              icon={filtered ? Search : History}
              title={filtered ? 'Nothing matches these filters' : 'No activity yet'}
              description={
                filtered
                  ? 'Try another action, member or dates.'
                  : 'Launching a campaign, answering a reply or adding a member shows here.'
              }
            />
          ) : (
            <>
              <ol aria-label="Activity" className="divide-y divide-slate-100">
                {entries.map((entry) => (
                  <li
                    key={entry.id}
                    data-testid="activity-entry"
                    className="flex flex-col gap-1 py-3 sm:flex-row sm:items-baseline sm:gap-4"
                  >
                    <time
                      dateTime={entry.at}
                      className="shrink-0 text-xs text-slate-500 tabular-nums sm:w-40"
                    >
                      {when.format(new Date(entry.at))}
                    </time>
                    <p className="min-w-0 flex-1 text-sm break-words text-slate-800">
                      <span className="font-semibold text-slate-900">{activityActor(entry)}</span>{' '}
                      {describeActivity(entry)}
                    </p>
                    <span className="w-fit shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                      {activityActionLabel(entry.action)}
                    </span>
                  </li>
                ))}
              </ol>
              <nav
                aria-label="Activity pages"
                className="flex items-center justify-between gap-3 border-t border-slate-100 pt-3"
              >
                <p className="text-sm text-slate-600 tabular-nums" data-testid="activity-range">
                  {formatCount(first + 1)}–{formatCount(first + entries.length)} of {formatCount(total)}
                </p>
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={page === 0}
                    onClick={() => setPage((p) => p - 1)}
                    icon={<ChevronLeft className="size-4" aria-hidden="true" />}
                  >
                    Previous
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={first + entries.length >= total}
                    onClick={() => setPage((p) => p + 1)}
                    icon={<ChevronRight className="size-4" aria-hidden="true" />}
                  >
                    Next
                  </Button>
                </div>
              </nav>
            </>
          )}
        </section>
      )}
    </main>
  )
}
