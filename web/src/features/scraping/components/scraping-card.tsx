import { AlertTriangle, Pause, Play, Sparkles, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { LiveFigure } from '@/components/ui/live-figure'
import { ProgressBar } from '@/components/ui/progress-bar'
import { StatusBadge } from '@/components/ui/status-badge'
import { formatCount, percentOf } from '@/lib/format'
import { relativeTime } from '@/lib/relative-time'
import type { ScrapingCampaign } from '../api/types'
import { criteriaText } from '../scraping-form'
import { scrapingDisplay } from '../scraping-status'

function when(value: string | null, future = false): string {
  if (!value) return '—'
  if (future && new Date(value).getTime() <= Date.now()) return 'Now'
  if (future) {
    const minutes = Math.round((new Date(value).getTime() - Date.now()) / 60_000)
    return minutes < 60 ? `In ${minutes} min` : `In ${Math.round(minutes / 60)} h`
  }
  return relativeTime(value)
}

/** product.md §2 scraping card: name, platform and criteria, status, Total Scraped, Verified Leads, Success Rate, Last Run, Next Run, actions. */
export function ScrapingCard({
  campaign,
  busy,
  readOnly = false,
  onOpen,
  onStart,
  onPause,
  onDelete,
}: {
  campaign: ScrapingCampaign
  busy: 'start' | 'pause' | 'delete' | null
  /** A role that only reads (a viewer): no start, pause or delete. */
  readOnly?: boolean
  onOpen: () => void
  onStart: () => void
  onPause: () => void
  onDelete: () => void
}) {
  const running = campaign.status === 'running'
  const display = scrapingDisplay(campaign)
  const failing = display.badge === 'error'
  // A campaign whose account was deleted cannot run again: no Resume that would only fail.
  const canStart =
    (campaign.status === 'pending' || campaign.status === 'paused') && campaign.account_id !== null
  return (
    <div
      className="flex flex-col rounded-2xl border border-slate-200 bg-white shadow-card transition hover:border-brand-200"
      data-testid="scraping-card"
    >
      <button type="button" onClick={onOpen} className="group p-5 pb-0 text-left">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="truncate font-semibold text-slate-900 group-hover:text-brand-700">
              {campaign.name}
            </h3>
            <p className="truncate text-xs text-slate-500">
              {campaign.platform?.display_name ?? 'Unknown'} · {criteriaText(campaign.sources)}
            </p>
          </div>
          <StatusBadge status={display.badge} label={display.label} />
        </div>
        <dl className="mt-4 grid grid-cols-3 gap-3">
          <LiveFigure label="Total Scraped" value={campaign.collected_count} running={running} />
          <LiveFigure label="Verified Leads" value={campaign.leads_collected} running={running} />
          <div>
            <dt className="text-xs text-slate-500">Success Rate</dt>
            <dd className="mt-0.5 font-semibold text-slate-900 tabular-nums">
              {percentOf(campaign.leads_collected, campaign.collected_count)}%
            </dd>
          </div>
        </dl>
        <div className="mt-4">
          <div className="mb-1.5 flex justify-between text-xs text-slate-500">
            <span>
              {formatCount(campaign.leads_collected)} of {formatCount(campaign.target_count)} leads
            </span>
            <span>{percentOf(campaign.leads_collected, campaign.target_count)}%</span>
          </div>
          <ProgressBar
            value={percentOf(campaign.leads_collected, campaign.target_count)}
            label={`${campaign.name} progress`}
          />
        </div>
        {campaign.ai_ideal_customer && (
          <p className="mt-3 flex items-center gap-1.5 text-xs text-slate-600" data-testid="ai-filter-counts">
            <Sparkles className="size-3.5 text-brand-600" aria-hidden="true" />
            <span>
              AI filter ≥ {campaign.ai_min_score}: {formatCount(campaign.ai_kept ?? 0)} kept ·{' '}
              {formatCount(campaign.ai_skipped ?? 0)} skipped · {formatCount(campaign.ai_unscored ?? 0)}{' '}
              unscored
            </span>
          </p>
        )}
        <dl className="mt-3 flex gap-6 text-xs">
          <div>
            <dt className="inline text-slate-400">Last Run </dt>
            <dd className="inline font-medium text-slate-700">{when(campaign.last_run_at)}</dd>
          </div>
          <div>
            <dt className="inline text-slate-400">Next Run </dt>
            <dd className="inline font-medium text-slate-700">
              {!running
                ? '—'
                : failing
                  ? `Retry ${when(campaign.next_run_at, true).toLowerCase()}`
                  : when(campaign.next_run_at, true)}
            </dd>
          </div>
        </dl>
        {campaign.error_message && (
          <p
            role={failing ? 'alert' : undefined}
            className="mt-3 flex items-start gap-1.5 rounded-lg bg-red-50 px-3 py-2 text-xs text-red-700 ring-1 ring-red-100"
          >
            <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            <span>{campaign.error_message}</span>
          </p>
        )}
      </button>
      {readOnly ? (
        <div className="pb-5" />
      ) : (
        <div className="mt-4 flex items-center gap-2 border-t border-slate-100 px-5 py-3">
          {running && (
            <Button
              variant="secondary"
              size="sm"
              onClick={onPause}
              loading={busy === 'pause'}
              disabled={busy !== null}
              icon={<Pause className="size-4" aria-hidden="true" />}
            >
              Pause
            </Button>
          )}
          {canStart && (
            <Button
              size="sm"
              onClick={onStart}
              loading={busy === 'start'}
              disabled={busy !== null}
              icon={<Play className="size-4" aria-hidden="true" />}
            >
              {campaign.status === 'pending' ? 'Start' : 'Resume'}
            </Button>
          )}
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto text-red-600 hover:bg-red-50 hover:text-red-700"
            onClick={onDelete}
            loading={busy === 'delete'}
            disabled={busy !== null}
            aria-label={`Delete ${campaign.name}`}
            icon={<Trash2 className="size-4" aria-hidden="true" />}
          />
        </div>
      )}
    </div>
  )
}
