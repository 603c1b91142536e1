// Runs an admin action (pause, retry, restart…) with a busy flag per target, a success toast and
// the server's error text in an error toast, then lets the tab reload its data.
import { useCallback, useState } from 'react'
import { useToast } from '@/components/ui/toast'

export function useAdminAction() {
  const toast = useToast()
  const [busy, setBusy] = useState<Record<string, boolean>>({})

  const run = useCallback(
    async <T>(key: string, action: () => Promise<T>, success: string | ((result: T) => string)) => {
      setBusy((b) => ({ ...b, [key]: true }))
      try {
        const result = await action()
        toast.success(typeof success === 'function' ? success(result) : success, undefined, { key })
        return result
      } catch (error) {
        console.error('Admin action failed', error)
        toast.error((error as Error).message || 'An error occurred', undefined, { key })
        return null
      } finally {
        setBusy((b) => ({ ...b, [key]: false }))
      }
    },
    [toast],
  )

  return { run, isBusy: (key: string) => Boolean(busy[key]) }
}
