// Loads admin data and keeps it fresh: once at start, again every `intervalMs` while auto-refresh
// is on and the page is visible (product.md §9 polling), on demand (Refresh), and whenever `load` changes
// (a new filter). Requests never overlap; a failed refresh keeps the last data.
import { useCallback, useEffect, useRef, useState } from 'react'

export interface Polled<T> {
  data: T | null
  error: Error | null
  /** True until the first answer (or failure). */
  loading: boolean
  refreshing: boolean
  updatedAt: Date | null
  refresh: () => Promise<void>
}

export interface PollingOptions {
  /** null: load once and on refresh only. */
  intervalMs: number | null
  enabled: boolean
  /** Changing it reloads at once (the page's Refresh button). */
  refreshKey?: number
}

export function usePolling<T>(
  load: () => Promise<T>,
  { intervalMs, enabled, refreshKey = 0 }: PollingOptions,
): Polled<T> {
  const [state, setState] = useState<Omit<Polled<T>, 'refresh'>>({
    data: null,
    error: null,
    loading: true,
    refreshing: false,
    updatedAt: null,
  })
  const inFlight = useRef<Promise<void> | null>(null)
  const generation = useRef(0)
  const mounted = useRef(true)

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const refresh = useCallback(async () => {
    if (inFlight.current) return inFlight.current
    const mine = generation.current
    setState((s) => ({ ...s, refreshing: true }))
    const run = (async () => {
      try {
        const data = await load()
        if (!mounted.current || mine !== generation.current) return
        setState({ data, error: null, loading: false, refreshing: false, updatedAt: new Date() })
      } catch (error) {
        // product.md §8: tabs other than the overview only log their load failures.
        console.error('Error loading admin data', error)
        if (!mounted.current || mine !== generation.current) return
        setState((s) => ({ ...s, error: error as Error, loading: false, refreshing: false }))
      } finally {
        inFlight.current = null
      }
    })()
    inFlight.current = run
    return run
  }, [load])

  // A new loader (filters changed) or the Refresh button: load now, dropping older answers.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey only triggers the reload
  useEffect(() => {
    generation.current += 1
    inFlight.current = null
    void refresh()
  }, [refresh, refreshKey])

  useEffect(() => {
    if (!enabled || intervalMs === null) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh()
    }, intervalMs)
    return () => clearInterval(timer)
  }, [enabled, intervalMs, refresh])

  return { ...state, refresh }
}
