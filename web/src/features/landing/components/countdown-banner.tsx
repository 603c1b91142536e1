import { Timer } from 'lucide-react'
import { formatCountdown, useCountdown } from '../hooks/use-countdown'

/** Ads variants: the offer countdown above the navigation (23:59:59, wraps). */
export function CountdownBanner() {
  const seconds = useCountdown()
  return (
    <div className="bg-brand-gradient px-4 py-2.5 text-center text-sm font-medium text-white">
      <p className="inline-flex flex-wrap items-center justify-center gap-x-2 gap-y-1">
        <Timer className="size-4" aria-hidden="true" />
        <span>First month free for new customers. Offer ends in</span>
        <span
          className="rounded-md bg-white/20 px-2 py-0.5 font-mono font-semibold tabular-nums"
          role="timer"
          aria-live="off"
        >
          {formatCountdown(seconds)}
        </span>
      </p>
    </div>
  )
}
