import { ProgressBar } from '@/components/ui/progress-bar'
import { formatCount, formatDateTime, percentOf } from '@/lib/format'
import type { ScrapingStats } from '../../api/get-scraping-details'
import type { ScrapingCampaign } from '../../api/types'
import { Heading, sourceLabel, Tile } from './bits'

/** product.md §2 Modals 5, Overview. */
export function ScrapingOverview({ campaign, stats }: { campaign: ScrapingCampaign; stats: ScrapingStats }) {
  const progress = percentOf(stats.valid, campaign.target_count)
  return (
    <div className="space-y-5">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile label="Target Count" value={formatCount(campaign.target_count)} />
        <Tile label="Leads Collected" value={formatCount(stats.collected)} testId="scraping-collected" />
        <Tile label="Valid Leads" value={formatCount(stats.valid)} testId="scraping-valid" />
        <Tile label="Success Rate" value={`${stats.successRate}%`} />
      </div>
      <div>
        <div className="mb-1.5 flex justify-between text-sm">
          <span className="font-medium text-slate-700">Progress</span>
          <span className="text-slate-500">
            {formatCount(stats.valid)} / {formatCount(campaign.target_count)} valid leads ({progress}%)
          </span>
        </div>
        <ProgressBar value={progress} label="Scraping progress" className="h-2.5" />
      </div>
      {campaign.error_message && (
        <div role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200">
          <p className="font-semibold">The last run stopped with an error</p>
          <p>{campaign.error_message}</p>
        </div>
      )}
      <div className="grid gap-5 md:grid-cols-2">
        <div>
          <Heading>Details</Heading>
          <dl className="divide-y divide-slate-100 rounded-xl px-4 text-sm ring-1 ring-slate-200">
            {[
              [
                'Lead list',
                campaign.lead_list
                  ? `${campaign.lead_list.name} (${formatCount(campaign.lead_list.lead_count)})`
                  : '—',
              ],
              ['Account', campaign.account ? `@${campaign.account.username}` : 'Deleted account'],
              ['Started', formatDateTime(campaign.started_at)],
              ['Completed', formatDateTime(campaign.completed_at)],
              ['Created', formatDateTime(campaign.created_at)],
            ].map(([label, value]) => (
              <div key={label} className="flex justify-between gap-4 py-2.5">
                <dt className="text-slate-500">{label}</dt>
                <dd className="text-right font-medium text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div>
          <Heading>Sources</Heading>
          <dl className="divide-y divide-slate-100 rounded-xl px-4 text-sm ring-1 ring-slate-200">
            {campaign.sources.map((source) => (
              <div key={`${source.type}:${source.value}`} className="flex justify-between gap-4 py-2.5">
                <dt className="text-slate-500">{sourceLabel(source.type)}</dt>
                <dd className="font-medium text-slate-900">{source.value}</dd>
              </div>
            ))}
            <div className="flex justify-between gap-4 py-2.5">
              <dt className="text-slate-500">Filters</dt>
              <dd className="text-right font-medium text-slate-900">
                {campaign.filters.min_followers}–{campaign.filters.max_followers ?? '∞'} followers
                {campaign.filters.verified_only ? ', verified' : ''}
                {campaign.filters.has_bio ? ', with bio' : ''}
                {campaign.filters.exclude_business ? ', no business' : ''}
              </dd>
            </div>
          </dl>
        </div>
      </div>
    </div>
  )
}
