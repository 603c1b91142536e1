import { useState } from 'react'
import { RouterProvider } from 'react-router'
import { ToastProvider } from '@/components/ui/toast'
import { createRouter } from './router'

export function App() {
  const [router] = useState(createRouter)
  return (
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>
  )
}
