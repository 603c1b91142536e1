// What the Queues and Retries tabs share: a table's rows and the totals above it loaded together,
// polled at the tab's interval while Auto Refresh is on, and actions that reload the tab once done
// (the toast says how they went).
import { useCallback } from 'react'
import type { TabProps } from '../components/tab-props'
import { useAdminAction } from './use-admin-action'
import { usePolling } from './use-polling'

export function useTableTab<Row, Stats>(
  getRows: () => Promise<Row[]>,
  getStats: () => Promise<Stats>,
  intervalMs: number,
  { autoRefresh, refreshKey }: TabProps,
) {
  const load = useCallback(async () => {
    const [rows, stats] = await Promise.all([getRows(), getStats()])
    return { rows, stats }
  }, [getRows, getStats])
  const { data, loading, refresh } = usePolling(load, { intervalMs, enabled: autoRefresh, refreshKey })
  const { run, isBusy } = useAdminAction()

  const act = useCallback(
    async <T>(key: string, action: () => Promise<T>, success: string | ((result: T) => string)) => {
      const result = await run(key, action, success)
      void refresh()
      return result
    },
    [run, refresh],
  )

  return { rows: data?.rows ?? null, stats: data?.stats ?? null, loading, act, isBusy }
}
