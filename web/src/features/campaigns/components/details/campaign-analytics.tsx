// Loaded on demand (recharts is large): the DM campaign's Analytics tab.

import { type CampaignFigures, CAMPAIGN_FIGURE_DEFINITIONS as DEFINED } from '@reachflow/domain'
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { formatCount, formatDate } from '@/lib/format'
import type { CampaignStats } from '../../api/get-campaign-details'
import { DetailStat, SectionTitle } from './detail-bits'

const FUNNEL_COLOURS = ['#6366f1', '#818cf8', '#8b5cf6', '#10b981']

/** Sends and replies per day, the lead funnel, and the rates behind them. */
export default function CampaignAnalytics({
  stats,
  figures,
}: {
  stats: CampaignStats
  figures: CampaignFigures
}) {
  const perDay = stats.perDay
    .slice(-14)
    .map((d) => ({ ...d, label: formatDate(d.date).replace(/, \d{4}$/, '') }))
  const funnel = [
    { stage: 'Leads', value: figures.target },
    { stage: 'Eligible', value: figures.eligible },
    { stage: 'Contacted', value: figures.contacted },
    { stage: 'Replied', value: figures.replied },
  ]
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <DetailStat
          label="Delivery Rate"
          value={figures.delivery_rate}
          suffix="%"
          definition={DEFINED.delivery_rate}
          detail={`${formatCount(figures.delivered)} of ${formatCount(figures.delivered + figures.not_delivered)} delivered`}
        />
        <DetailStat
          label="Reply Rate"
          value={figures.reply_rate}
          suffix="%"
          definition={DEFINED.reply_rate}
        />
        <DetailStat
          label="Progress"
          value={figures.progress}
          suffix="%"
          definition={DEFINED.progress}
          detail={`${formatCount(figures.contacted)} of ${formatCount(figures.eligible)} eligible`}
        />
        <DetailStat label="Sent Today" value={stats.sentToday} />
      </div>
      <div>
        <SectionTitle>Messages and replies per day (last 14 days)</SectionTitle>
        <div className="h-64 rounded-xl p-3 ring-1 ring-slate-200" data-testid="chart-per-day">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={perDay} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
              <XAxis
                dataKey="label"
                tick={{ fontSize: 11, fill: '#64748b' }}
                tickLine={false}
                axisLine={false}
              />
              <YAxis
                allowDecimals={false}
                tick={{ fontSize: 11, fill: '#64748b' }}
                tickLine={false}
                axisLine={false}
              />
              <Tooltip cursor={{ fill: '#f1f5f9' }} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="sent" name="Sent" fill="#6366f1" radius={[4, 4, 0, 0]} />
              <Bar dataKey="replies" name="Replies" fill="#10b981" radius={[4, 4, 0, 0]} />
              <Bar dataKey="failed" name="Failed" fill="#f87171" radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
      <div>
        <SectionTitle>Funnel</SectionTitle>
        <div className="h-44 rounded-xl p-3 ring-1 ring-slate-200" data-testid="chart-funnel">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={funnel} layout="vertical" margin={{ top: 4, right: 24, left: 8, bottom: 4 }}>
              <XAxis type="number" hide allowDecimals={false} />
              <YAxis
                type="category"
                dataKey="stage"
                tick={{ fontSize: 12, fill: '#334155' }}
                tickLine={false}
                axisLine={false}
                width={80}
              />
              <Tooltip cursor={{ fill: '#f1f5f9' }} />
              <Bar
                dataKey="value"
                name="Leads"
                radius={[0, 6, 6, 0]}
                label={{ position: 'right', fontSize: 12, fill: '#334155' }}
              >
                {funnel.map((row, index) => (
                  <Cell key={row.stage} fill={FUNNEL_COLOURS[index]} />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
    </div>
  )
}
