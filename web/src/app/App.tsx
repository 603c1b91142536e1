import { useEffect } from 'react'
import { RouterProvider } from 'react-router'
import { ToastProvider } from '@/components/ui/toast'
import { HYDRATED_EVENT } from './hydrated-event'
import type { createRouter } from './router'

/** The app around a router made once at start-up (main.tsx), so it can be ready before hydration. */
export function App({ router }: { router: ReturnType<typeof createRouter> }) {
  // Effects run after the commit, so here the page's event handlers are attached.
  useEffect(() => {
    window.dispatchEvent(new Event(HYDRATED_EVENT))
  }, [])
  return (
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>
  )
}
