import { formatCount } from '@/lib/format'

/**
 * A card figure (product.md §2): the count, or 'Running' with the count so far beneath while the campaign
 * or scrape runs. Shared by the campaign and scraping cards, which must read the same.
 */
export function LiveFigure({ label, value, running }: { label: string; value: number; running: boolean }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-0.5 font-semibold text-slate-900 tabular-nums">
        {running ? (
          <>
            <span className="inline-flex items-center gap-1.5 text-emerald-700">
              <span className="size-1.5 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" />
              Running
            </span>
            <span className="block text-xs font-normal text-slate-500">{formatCount(value)} so far</span>
          </>
        ) : (
          formatCount(value)
        )}
      </dd>
    </div>
  )
}
