import { CAMPAIGN_FIGURE_DEFINITIONS as DEFINED, formatRate } from '@reachflow/domain'
import { AlertTriangle, Clock } from 'lucide-react'
import { LiveFigure } from '@/components/ui/live-figure'
import { ProgressBar } from '@/components/ui/progress-bar'
import { formatCount } from '@/lib/format'
import { relativeTime } from '@/lib/relative-time'
import type { CampaignWait } from '../api/get-campaign-waits'
import type { Campaign } from '../api/types'
import { campaignFilterOf } from '../campaign-status'
import { CampaignStatusBadge } from './campaign-status-badge'
import { CampaignWaitNote } from './campaign-wait-note'

/** product.md §2 campaign card: name, industry and stage, status, Total Leads, Messages Sent, Delivery Rate, Progress, Updated. */
export function CampaignCard({
  campaign,
  waiting = null,
  onOpen,
}: {
  campaign: Campaign
  /** Set while a daily cap is used up: the card says why nothing sends instead of "Running". */
  waiting?: CampaignWait | null
  onOpen: () => void
}) {
  const running = campaignFilterOf(campaign.status) === 'active' && !waiting
  const { figures } = campaign
  const subtitle = [campaign.industry, campaign.stage].filter(Boolean).join(' · ')
  return (
    <button
      type="button"
      onClick={onOpen}
      className="group flex w-full flex-col rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-card transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-lift"
      data-testid="campaign-card"
    >
      <div className="flex w-full items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-slate-900 group-hover:text-brand-700">
            {campaign.name}
          </h3>
          <p className="truncate text-xs text-slate-500">
            {subtitle ||
              `@${campaign.social_account?.username ?? 'no account'} · ${campaign.platform?.display_name ?? ''}`}
          </p>
        </div>
        <CampaignStatusBadge status={campaign.status} />
      </div>
      <dl className="mt-4 grid w-full grid-cols-3 gap-3">
        <LiveFigure label="Total Leads" value={figures.target} running={running} />
        <LiveFigure label="Messages Sent" value={figures.delivered} running={running} />
        <div title={DEFINED.delivery_rate}>
          <dt className="text-xs text-slate-500">Delivery Rate</dt>
          <dd className="mt-0.5 font-semibold text-slate-900 tabular-nums">
            {formatRate(figures.delivery_rate)}
          </dd>
        </div>
      </dl>
      <div className="mt-4 w-full">
        <div className="mb-1.5 flex justify-between gap-2 text-xs" title={DEFINED.progress}>
          <span className="text-slate-500">Progress</span>
          <span className="font-medium text-slate-700">
            {formatRate(figures.progress)} contacted{' '}
            <span className="font-normal text-slate-500">
              ({formatCount(figures.contacted)} of {formatCount(figures.eligible)} eligible)
            </span>
          </span>
        </div>
        <ProgressBar value={figures.progress ?? 0} label={`${campaign.name} progress`} />
      </div>
      {waiting && <CampaignWaitNote wait={waiting} className="mt-3" />}
      {campaign.error_message && (
        // Why it stopped (a failing account, a deleted account...), on the card itself.
        <p className="mt-3 flex w-full items-start gap-1.5 rounded-lg bg-red-50 px-3 py-2 text-xs text-red-700 ring-1 ring-red-100">
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          <span>{campaign.error_message}</span>
        </p>
      )}
      <p className="mt-4 flex items-center gap-1.5 text-xs text-slate-400">
        <Clock className="size-3.5" aria-hidden="true" />
        Updated {relativeTime(campaign.updated_at).toLowerCase()}
      </p>
    </button>
  )
}

export function CampaignCardSkeleton() {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-card" aria-hidden="true">
      <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
      <div className="mt-2 h-3 w-1/3 animate-pulse rounded bg-slate-100" />
      <div className="mt-5 grid grid-cols-3 gap-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-9 animate-pulse rounded bg-slate-100" />
        ))}
      </div>
      <div className="mt-5 h-2 animate-pulse rounded-full bg-slate-100" />
    </div>
  )
}
