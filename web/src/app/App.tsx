import { RouterProvider } from 'react-router'
import { ToastProvider } from '@/components/ui/toast'
import type { createRouter } from './router'

/** The app around a router made once at start-up (main.tsx), so it can be ready before hydration. */
export function App({ router }: { router: ReturnType<typeof createRouter> }) {
  return (
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>
  )
}
