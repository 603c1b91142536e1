import { AlertTriangle, CheckCircle2, Info, type LucideIcon, X, XCircle } from 'lucide-react'
import { useStore } from 'zustand'
import { cn } from '@/lib/cn'
import { useToastStore } from './toast-context'
import type { Toast, ToastType } from './toast-store'

const typeStyle: Record<ToastType, { icon: LucideIcon; accent: string }> = {
  success: { icon: CheckCircle2, accent: 'text-emerald-600' },
  error: { icon: XCircle, accent: 'text-red-600' },
  warning: { icon: AlertTriangle, accent: 'text-amber-600' },
  info: { icon: Info, accent: 'text-brand-600' },
}

const phaseClasses: Record<Toast['phase'], string> = {
  entering: 'translate-y-2 opacity-0',
  visible: 'translate-y-0 opacity-100',
  leaving: 'translate-x-6 opacity-0',
}

/** Bottom-right stack of toasts, newest on top; 320-480 px wide (narrower only on tiny screens). */
export function Toaster() {
  const store = useToastStore()
  const toasts = useStore(store, (s) => s.toasts)
  const dismiss = useStore(store, (s) => s.dismiss)
  const pause = useStore(store, (s) => s.pause)
  const resume = useStore(store, (s) => s.resume)
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-[100] flex flex-col gap-3"
    >
      {toasts.map((toast) => {
        const { icon: Icon, accent } = typeStyle[toast.type]
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: an alert/status region; focus only pauses its timer
          <div
            key={toast.id}
            role={toast.type === 'error' ? 'alert' : 'status'}
            data-phase={toast.phase}
            data-type={toast.type}
            onFocus={() => pause(toast.id)}
            onBlur={(event) => {
              if (!event.currentTarget.contains(event.relatedTarget as Node | null)) resume(toast.id)
            }}
            className={cn(
              'pointer-events-auto flex w-[calc(100vw-2rem)] min-w-[min(320px,calc(100vw-2rem))] max-w-[480px] items-start gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-lg sm:w-auto',
              'transition-all duration-300 ease-out motion-reduce:transition-opacity',
              phaseClasses[toast.phase],
            )}
          >
            <Icon className={cn('mt-0.5 size-5 shrink-0', accent)} aria-hidden="true" />
            <div className="min-w-0 flex-1">
              {toast.title && <p className="text-sm font-semibold text-slate-900">{toast.title}</p>}
              <p className={cn('text-sm text-slate-700', toast.title && 'mt-0.5')}>{toast.message}</p>
              {toast.action && (
                <button
                  type="button"
                  onClick={toast.action.onClick}
                  className="mt-2 text-sm font-semibold text-brand-700 hover:text-brand-800"
                >
                  {toast.action.label}
                </button>
              )}
            </div>
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              className="-m-1 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
              aria-label="Close notification"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
        )
      })}
    </section>
  )
}
