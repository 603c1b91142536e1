import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { useStore } from 'zustand'
import { ToastContext, useToastStore } from './toast-context'
import { createToastStore, type ToastOptions } from './toast-store'
import { Toaster } from './toaster'

export function ToastProvider({ children }: { children: ReactNode }) {
  const [store] = useState(createToastStore)
  useEffect(() => () => store.getState().dispose(), [store])
  return (
    <ToastContext.Provider value={store}>
      {children}
      <Toaster />
    </ToastContext.Provider>
  )
}

type Shortcut = (
  message: string,
  title?: string,
  options?: Omit<ToastOptions, 'message' | 'title' | 'type'>,
) => string

export interface ToastApi {
  show: (options: ToastOptions) => string
  success: Shortcut
  error: Shortcut
  warning: Shortcut
  info: Shortcut
  dismiss: (id: string) => void
  /** Dismisses every toast of a type, e.g. stale errors when the user changes tab. */
  dismissType: (type: NonNullable<ToastOptions['type']>) => void
}

export function useToast(): ToastApi {
  const store = useToastStore()
  const show = useStore(store, (s) => s.show)
  const dismiss = useStore(store, (s) => s.dismiss)
  const dismissType = useStore(store, (s) => s.dismissType)
  return useMemo(() => {
    const shortcut =
      (type: ToastOptions['type']): Shortcut =>
      (message, title, options) =>
        show({ ...options, type, message, title })
    return {
      show,
      dismiss,
      dismissType,
      success: shortcut('success'),
      error: shortcut('error'),
      warning: shortcut('warning'),
      info: shortcut('info'),
    }
  }, [show, dismiss, dismissType])
}
