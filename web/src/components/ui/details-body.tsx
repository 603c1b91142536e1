import { type ReactNode, Suspense } from 'react'
import { ErrorState } from './error-state'
import { Skeleton } from './skeleton'
import { Spinner } from './spinner'
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
  /** The selected tab's panel (a lazily loaded panel says this while its code loads). */
  children: (data: D) => ReactNode
  /** What a lazily loaded panel says while it loads, e.g. 'Loading analytics...'. */
  loadingLabel?: string
}

/** Said at once while a panel (or its data) loads: a spinner with words, not a grey block. */
export function PanelLoading({ label }: { label: string }) {
  return (
    <div className="flex h-40 items-center justify-center gap-2.5 rounded-xl bg-slate-50 text-sm font-medium text-slate-600 ring-1 ring-slate-200/70">
      <Spinner size={16} label="" className="text-brand-600" />
      <span role="status">{label}</span>
    </div>
  )
}

/**
 * The body of a detail view (product.md §2 Modals 4 and 5): a skeleton while the details load, the error
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
  loadingLabel = 'Loading...',
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
      <Suspense fallback={<PanelLoading label={loadingLabel} />}>{children(data)}</Suspense>
    </div>
  )
}
