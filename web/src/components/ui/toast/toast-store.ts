// Toast state per product.md §4: fade in after 50 ms, close after `duration` with a 300 ms exit,
// at most 5 kept (newest first), 5000 ms by default. Errors stay longer (10 s) but dismiss
// themselves (a deliberate change from persistent errors, docs/decisions.md); the timer
// pauses while keyboard focus is in a toast (not on hover: a toast over a dialog's button must
// still go away while the pointer waits on that button); a toast with a `key` replaces the earlier
// toast of the same key, so an action's success clears its own stale error.
import { createStore } from 'zustand/vanilla'

export type ToastType = 'success' | 'error' | 'warning' | 'info'
export type ToastPhase = 'entering' | 'visible' | 'leaving'

export const TOAST_ENTER_DELAY_MS = 50
export const TOAST_EXIT_MS = 300
export const TOAST_DEFAULT_DURATION_MS = 5000
export const TOAST_ERROR_DURATION_MS = 10_000
export const TOAST_MAX = 5

export interface ToastAction {
  label: string
  onClick: () => void
}

export interface ToastOptions {
  type?: ToastType
  title?: string
  message: string
  /** Milliseconds before the toast closes itself; 0 keeps it until closed. Errors default to 10 s. */
  duration?: number
  action?: ToastAction
  /** Names the action the toast reports on: a new toast with the same key replaces this one. */
  key?: string
}

export interface Toast extends Required<Pick<ToastOptions, 'message' | 'duration'>> {
  id: string
  type: ToastType
  title?: string
  action?: ToastAction
  key?: string
  phase: ToastPhase
}

export interface ToastState {
  toasts: Toast[]
  show: (options: ToastOptions) => string
  dismiss: (id: string) => void
  /** Dismisses every toast of a type (e.g. stale errors when the user moves to another tab). */
  dismissType: (type: ToastType) => void
  /** Stops the auto-dismiss timer while the user reads (hover, focus). */
  pause: (id: string) => void
  /** Restarts the timer with the time that was left. */
  resume: (id: string) => void
  /** Clears every pending timer; called when the provider unmounts. */
  dispose: () => void
}

let nextId = 0

export function createToastStore() {
  const timers = new Map<string, ReturnType<typeof setTimeout>[]>()
  // The auto-dismiss timer of each toast: when it was (re)started and how long it had to run.
  const lifetimes = new Map<
    string,
    { timer: ReturnType<typeof setTimeout>; startedAt: number; remaining: number }
  >()
  const paused = new Map<string, number>()
  const addTimer = (id: string, timer: ReturnType<typeof setTimeout>) =>
    timers.set(id, [...(timers.get(id) ?? []), timer])
  const clearTimers = (id: string) => {
    for (const timer of timers.get(id) ?? []) clearTimeout(timer)
    timers.delete(id)
  }

  return createStore<ToastState>()((set, get) => {
    const setPhase = (id: string, phase: ToastPhase) =>
      set({ toasts: get().toasts.map((t) => (t.id === id ? { ...t, phase } : t)) })
    const stopLifetime = (id: string) => {
      const life = lifetimes.get(id)
      if (life) clearTimeout(life.timer)
      lifetimes.delete(id)
    }
    const startLifetime = (id: string, ms: number) => {
      stopLifetime(id)
      lifetimes.set(id, { timer: setTimeout(() => dismiss(id), ms), startedAt: Date.now(), remaining: ms })
    }
    const remove = (id: string) => {
      clearTimers(id)
      stopLifetime(id)
      paused.delete(id)
      set({ toasts: get().toasts.filter((t) => t.id !== id) })
    }

    const dismiss = (id: string) => {
      const toast = get().toasts.find((t) => t.id === id)
      if (!toast || toast.phase === 'leaving') return
      clearTimers(id)
      stopLifetime(id)
      paused.delete(id)
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
      const duration =
        options.duration ?? (type === 'error' ? TOAST_ERROR_DURATION_MS : TOAST_DEFAULT_DURATION_MS)
      if (options.key !== undefined)
        for (const earlier of get().toasts.filter((t) => t.key === options.key)) remove(earlier.id)
      const toast: Toast = {
        id,
        type,
        title: options.title,
        message: options.message,
        duration,
        action: options.action,
        key: options.key,
        phase: 'entering',
      }
      const kept = [toast, ...get().toasts]
      for (const dropped of kept.slice(TOAST_MAX)) {
        clearTimers(dropped.id)
        stopLifetime(dropped.id)
        paused.delete(dropped.id)
      }
      set({ toasts: kept.slice(0, TOAST_MAX) })
      addTimer(
        id,
        setTimeout(() => setPhase(id, 'visible'), TOAST_ENTER_DELAY_MS),
      )
      if (duration > 0) startLifetime(id, duration)
      return id
    }

    const dismissType = (type: ToastType) => {
      for (const toast of get().toasts.filter((t) => t.type === type)) dismiss(toast.id)
    }

    const pause = (id: string) => {
      const life = lifetimes.get(id)
      if (!life) return
      paused.set(id, Math.max(0, life.remaining - (Date.now() - life.startedAt)))
      stopLifetime(id)
    }

    const resume = (id: string) => {
      const remaining = paused.get(id)
      if (remaining === undefined) return
      paused.delete(id)
      // A toast read to the end gets a moment more before it goes.
      startLifetime(id, Math.max(remaining, 1500))
    }

    const dispose = () => {
      for (const id of [...timers.keys()]) clearTimers(id)
      for (const id of [...lifetimes.keys()]) stopLifetime(id)
      paused.clear()
    }

    return { toasts: [], show, dismiss, dismissType, pause, resume, dispose }
  })
}

export type ToastStore = ReturnType<typeof createToastStore>
