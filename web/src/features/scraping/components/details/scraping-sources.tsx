import { PieChart } from 'lucide-react'
import { EmptyState } from '@/components/ui/empty-state'
import { formatCount } from '@/lib/format'
import type { ScrapingStats } from '../../api/get-scraping-details'
import { sourceLabel } from './bits'

/** product.md §2 Modals 5, Sources: leads per source with their share of the total. */
export function ScrapingSources({ stats }: { stats: ScrapingStats }) {
  if (stats.sources.length === 0) return <EmptyState icon={PieChart} title="No leads collected yet" />
  return (
    <ul className="space-y-3" data-testid="scraping-sources">
      {stats.sources.map((source) => (
        <li key={`${source.type}:${source.value}`} className="rounded-xl p-4 ring-1 ring-slate-200">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="font-medium text-slate-900">
              {sourceLabel(source.type)}: <span className="text-slate-600">{source.value}</span>
            </span>
            <span className="tabular-nums text-slate-700">
              {formatCount(source.count)} leads · <strong>{source.percentage ?? 0}%</strong>
            </span>
          </div>
          <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100">
            <div
              className="h-full rounded-full bg-brand-gradient"
              style={{ width: `${source.percentage ?? 0}%` }}
            />
          </div>
        </li>
      ))}
    </ul>
  )
}
