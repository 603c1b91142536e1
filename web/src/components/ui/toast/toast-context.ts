// The toast store a ToastProvider hands down, and the hook that reads it (the provider and the
// toaster it renders both take it from here).
import { createContext, useContext } from 'react'
import type { ToastStore } from './toast-store'

export const ToastContext = createContext<ToastStore | null>(null)

/** The store behind the nearest ToastProvider; toasts outside a provider are a programming error. */
export function useToastStore(): ToastStore {
  const store = useContext(ToastContext)
  if (!store) throw new Error('useToast must be used within a ToastProvider')
  return store
}
