// Loaded on demand (recharts is large): the scraping campaign's Analytics tab.
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Pill } from '@/components/ui/pill'
import { formatCount, formatDateTime } from '@/lib/format'
import { relativeTime } from '@/lib/relative-time'
import type { HourlyCollection, ScrapingStats } from '../../api/get-scraping-details'
import { Heading, sourceLabel, Tile } from './bits'

const hourLabel = new Intl.DateTimeFormat('en-US', { hour: 'numeric', day: 'numeric', month: 'short' })

/** Collection rate, quality score, average per hour, leads per hour, summary and the 10 most recent. */
export default function ScrapingAnalytics({
  stats,
  perHour,
}: {
  stats: ScrapingStats
  perHour: HourlyCollection[]
}) {
  const firstActive = perHour.findIndex((h) => h.collected > 0)
  const chart = perHour
    .slice(firstActive < 0 ? -24 : Math.max(0, Math.min(firstActive, perHour.length - 24)))
    .map((h) => ({ ...h, label: hourLabel.format(new Date(h.hour)) }))
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-3 gap-3">
        <Tile label="Collection Rate" value={`${stats.collectionRate}%`} />
        <Tile label="Quality Score" value={`${stats.qualityScore}%`} />
        <Tile label="Average per Hour" value={stats.averagePerHour} />
      </div>
      <div>
        <Heading>Leads collected per hour</Heading>
        <div className="h-56 rounded-xl p-3 ring-1 ring-slate-200" data-testid="chart-per-hour">
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={chart} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <defs>
                <linearGradient id="collected-fill" x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor="#6366f1" stopOpacity={0.35} />
                  <stop offset="100%" stopColor="#6366f1" stopOpacity={0} />
                </linearGradient>
              </defs>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
              <XAxis
                dataKey="label"
                tick={{ fontSize: 11, fill: '#64748b' }}
                tickLine={false}
                axisLine={false}
                minTickGap={24}
              />
              <YAxis
                allowDecimals={false}
                tick={{ fontSize: 11, fill: '#64748b' }}
                tickLine={false}
                axisLine={false}
              />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Area
                type="monotone"
                dataKey="collected"
                name="Collected"
                stroke="#6366f1"
                fill="url(#collected-fill)"
                strokeWidth={2}
              />
              <Area
                type="monotone"
                dataKey="valid"
                name="Valid"
                stroke="#10b981"
                fill="none"
                strokeWidth={2}
              />
            </AreaChart>
          </ResponsiveContainer>
        </div>
      </div>
      <div className="grid gap-5 md:grid-cols-2">
        <div>
          <Heading>Collection summary</Heading>
          <dl className="divide-y divide-slate-100 rounded-xl px-4 text-sm ring-1 ring-slate-200">
            {[
              ['Collected', formatCount(stats.collected)],
              ['Valid', formatCount(stats.valid)],
              ['Filtered out', formatCount(stats.filtered)],
              ['First collected', formatDateTime(stats.firstCollectedAt)],
              ['Last collected', formatDateTime(stats.lastCollectedAt)],
            ].map(([label, value]) => (
              <div key={label} className="flex justify-between gap-4 py-2.5">
                <dt className="text-slate-500">{label}</dt>
                <dd className="font-medium text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div>
          <Heading>10 most recent collections</Heading>
          {stats.recent.length === 0 ? (
            <p className="text-sm text-slate-500">No leads collected yet</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
              {stats.recent.map((lead) => (
                <li key={lead.id} className="flex items-center justify-between gap-3 px-4 py-2 text-sm">
                  <span className="min-w-0 truncate">
                    <span className="font-medium text-slate-900">@{lead.username}</span>
                    <span className="ml-2 text-xs text-slate-500">{sourceLabel(lead.sourceType)}</span>
                  </span>
                  <span className="flex shrink-0 items-center gap-2">
                    <Pill tone={lead.isFiltered ? 'grey' : 'green'}>
                      {lead.isFiltered ? 'Filtered' : 'Active'}
                    </Pill>
                    <span className="text-xs text-slate-400">{relativeTime(lead.collectedAt)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  )
}
