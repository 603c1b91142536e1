import { type ReactNode, Suspense } from 'react'
import { ErrorState } from './error-state'
import { Skeleton } from './skeleton'
import { type TabItem, Tabs } from './tabs'

interface DetailsBodyProps<T extends string, D> {
  /** The details read: pending, failed (with its message) or there. */
  query: {
    isPending: boolean
    isError: boolean
    error: Error | null
    data: D | undefined
    refetch: () => unknown
  }
  /** Shown when the read came back without the record. */
  notFound: string
  tabsLabel: string
  tab: T
  onTabChange: (tab: T) => void
  tabs: TabItem<T>[]
  /** Buttons right of the tabs. */
  actions?: (data: D) => ReactNode
  /** The selected tab's panel (lazily loaded panels show a skeleton while they load). */
  children: (data: D) => ReactNode
}

/**
 * The body of a detail view (spec §2 Modals 4 and 5): a skeleton while the details load, the error
 * with a retry, else the tabs with their actions and the selected panel.
 */
export function DetailsBody<T extends string, D>({
  query,
  notFound,
  tabsLabel,
  tab,
  onTabChange,
  tabs,
  actions,
  children,
}: DetailsBodyProps<T, D>) {
  if (query.isPending) {
    return (
      <div className="space-y-3" aria-busy="true">
        <Skeleton className="h-10" />
        <Skeleton className="h-28" />
        <Skeleton className="h-40" />
      </div>
    )
  }
  if (query.isError || query.data === undefined) {
    return <ErrorState message={query.error?.message ?? notFound} onRetry={() => void query.refetch()} />
  }
  const data = query.data
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Tabs<T>
          label={tabsLabel}
          value={tab}
          onChange={onTabChange}
          className="min-w-0 flex-1"
          items={tabs}
        />
        {actions?.(data)}
      </div>
      <Suspense fallback={<Skeleton className="h-64" />}>{children(data)}</Suspense>
    </div>
  )
}
