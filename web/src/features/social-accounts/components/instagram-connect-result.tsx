import { CheckCircle2, TriangleAlert, X } from 'lucide-react'
import { useSearchParams } from 'react-router'
import { cn } from '@/lib/cn'

/**
 * What the Instagram connection ended with, as its callback put it in the URL
 * (?instagram=connected&username=… or ?instagram=error&message=…), until dismissed.
 */
export function InstagramConnectResult() {
  const [params, setParams] = useSearchParams()
  const outcome = params.get('instagram')
  if (outcome !== 'connected' && outcome !== 'error') return null
  const ok = outcome === 'connected'
  const username = params.get('username') ?? ''
  const dismiss = () =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current)
        for (const name of ['instagram', 'username', 'message']) copy.delete(name)
        return copy
      },
      { replace: true },
    )
  const Icon = ok ? CheckCircle2 : TriangleAlert
  return (
    <div
      role={ok ? 'status' : 'alert'}
      className={cn(
        'mb-4 flex items-start gap-3 rounded-xl px-4 py-3 text-sm ring-1',
        ok ? 'bg-emerald-50 text-emerald-900 ring-emerald-200' : 'bg-red-50 text-red-900 ring-red-200',
      )}
    >
      <Icon aria-hidden className={cn('mt-0.5 h-5 w-5 shrink-0', ok ? 'text-emerald-600' : 'text-red-600')} />
      <div className="flex-1">
        <p className="font-semibold">
          {ok ? `@${username} is connected through Instagram's API` : 'Instagram was not connected'}
        </p>
        <p className="mt-0.5">
          {ok
            ? 'Comments and messages on this account now reach Reachflow.'
            : (params.get('message') ?? 'Something went wrong. Please try again.')}
        </p>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label="Dismiss"
        className="rounded-md p-1 text-current opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <X aria-hidden className="h-4 w-4" />
      </button>
    </div>
  )
}
