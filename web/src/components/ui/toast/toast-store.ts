// Toast state per spec §4: fade in after 50 ms, close after `duration` with a 300 ms exit,
// at most 5 kept (newest first), 5000 ms by default, errors persist (duration 0).
import { createStore } from 'zustand/vanilla'

export type ToastType = 'success' | 'error' | 'warning' | 'info'
export type ToastPhase = 'entering' | 'visible' | 'leaving'

export const TOAST_ENTER_DELAY_MS = 50
export const TOAST_EXIT_MS = 300
export const TOAST_DEFAULT_DURATION_MS = 5000
export const TOAST_MAX = 5

export interface ToastAction {
  label: string
  onClick: () => void
}

export interface ToastOptions {
  type?: ToastType
  title?: string
  message: string
  /** Milliseconds before the toast closes itself; 0 keeps it until closed. Errors default to 0. */
  duration?: number
  action?: ToastAction
}

export interface Toast extends Required<Pick<ToastOptions, 'message' | 'duration'>> {
  id: string
  type: ToastType
  title?: string
  action?: ToastAction
  phase: ToastPhase
}

export interface ToastState {
  toasts: Toast[]
  show: (options: ToastOptions) => string
  dismiss: (id: string) => void
  /** Clears every pending timer; called when the provider unmounts. */
  dispose: () => void
}

let nextId = 0

export function createToastStore() {
  const timers = new Map<string, ReturnType<typeof setTimeout>[]>()
  const addTimer = (id: string, timer: ReturnType<typeof setTimeout>) =>
    timers.set(id, [...(timers.get(id) ?? []), timer])
  const clearTimers = (id: string) => {
    for (const timer of timers.get(id) ?? []) clearTimeout(timer)
    timers.delete(id)
  }

  return createStore<ToastState>()((set, get) => {
    const setPhase = (id: string, phase: ToastPhase) =>
      set({ toasts: get().toasts.map((t) => (t.id === id ? { ...t, phase } : t)) })
    const remove = (id: string) => {
      clearTimers(id)
      set({ toasts: get().toasts.filter((t) => t.id !== id) })
    }

    const dismiss = (id: string) => {
      const toast = get().toasts.find((t) => t.id === id)
      if (!toast || toast.phase === 'leaving') return
      clearTimers(id)
      setPhase(id, 'leaving')
      addTimer(
        id,
        setTimeout(() => remove(id), TOAST_EXIT_MS),
      )
    }

    const show = (options: ToastOptions) => {
      nextId += 1
      const id = `toast-${nextId}`
      const type = options.type ?? 'info'
      const duration = options.duration ?? (type === 'error' ? 0 : TOAST_DEFAULT_DURATION_MS)
      const toast: Toast = {
        id,
        type,
        title: options.title,
        message: options.message,
        duration,
        action: options.action,
        phase: 'entering',
      }
      const kept = [toast, ...get().toasts]
      for (const dropped of kept.slice(TOAST_MAX)) clearTimers(dropped.id)
      set({ toasts: kept.slice(0, TOAST_MAX) })
      addTimer(
        id,
        setTimeout(() => setPhase(id, 'visible'), TOAST_ENTER_DELAY_MS),
      )
      if (duration > 0)
        addTimer(
          id,
          setTimeout(() => dismiss(id), duration),
        )
      return id
    }

    const dispose = () => {
      for (const id of [...timers.keys()]) clearTimers(id)
    }

    return { toasts: [], show, dismiss, dispose }
  })
}

export type ToastStore = ReturnType<typeof createToastStore>
