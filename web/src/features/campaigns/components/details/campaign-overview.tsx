import { CAMPAIGN_FIGURE_DEFINITIONS as DEFINED } from '@reachflow/domain'
import { formatCount, formatDate, formatDateTime, pluralize } from '@/lib/format'
import type { CampaignStats } from '../../api/get-campaign-details'
import type { Campaign } from '../../api/types'
import { isSending } from '../../campaign-status'
import { DetailStat, InfoList, SectionTitle } from './detail-bits'

/** "25 leads", and what of them can be messaged once some are not deliverable. */
function targetCount(figures: Campaign['figures']): string {
  const leads = pluralize(figures.target, 'lead')
  if (figures.not_deliverable === 0) return leads
  return `${leads} (${formatCount(figures.eligible)} eligible, ${formatCount(figures.not_deliverable)} not deliverable)`
}

/** product.md §2 Modals 4, Overview. */
export function CampaignOverview({
  campaign,
  stats,
  waiting,
}: {
  campaign: Campaign
  stats: CampaignStats
  /** A daily cap is used up: its figures are not "Running" while nothing can send. */
  waiting: boolean
}) {
  const running = isSending(campaign.status) && !waiting
  const { figures } = campaign
  return (
    <div className="space-y-5">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <DetailStat
          label="Total Leads"
          value={figures.target}
          running={running}
          definition={DEFINED.target}
        />
        <DetailStat
          label="Messages Sent"
          value={figures.delivered}
          running={running}
          definition={DEFINED.delivered}
        />
        <DetailStat
          label="Responses"
          value={figures.replied}
          running={running}
          definition={DEFINED.replied}
        />
        <DetailStat
          label="Reply Rate"
          value={figures.reply_rate}
          suffix="%"
          definition={DEFINED.reply_rate}
        />
      </div>
      {campaign.error_message && (
        <p role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200">
          {campaign.error_message}
        </p>
      )}
      <div className="grid gap-5 md:grid-cols-2">
        <div>
          <SectionTitle>Details</SectionTitle>
          <InfoList
            rows={[
              { label: 'Platform', value: campaign.platform?.display_name ?? '—' },
              {
                label: 'Account',
                value: campaign.social_account ? `@${campaign.social_account.username}` : 'Deleted account',
              },
              { label: 'Lead source', value: campaign.scraping_campaign?.name ?? '—' },
              { label: 'Target count', value: targetCount(figures) },
              {
                label: 'Daily limit',
                value: campaign.daily_message_limit ? `${campaign.daily_message_limit} a day` : 'Unlimited',
              },
              {
                label: 'Schedule',
                value: `${campaign.schedule.timeFrom}–${campaign.schedule.timeTo} ${campaign.schedule.timezone}`,
              },
              {
                label: 'AI personalisation',
                value: campaign.ai_personalization ? 'On: falls back to the message as written' : 'Off',
              },
              {
                label: 'Next days off',
                value: stats.daysOff.length
                  ? stats.daysOff.slice(0, 3).map(formatDate).join(', ')
                  : 'None soon',
              },
            ]}
          />
        </div>
        <div>
          <SectionTitle>Timeline</SectionTitle>
          <InfoList
            rows={[
              { label: 'Created', value: formatDateTime(campaign.created_at) },
              { label: 'Started', value: formatDateTime(campaign.started_at) },
              { label: 'Completed', value: formatDateTime(campaign.completed_at) },
              { label: 'Last updated', value: formatDateTime(campaign.updated_at) },
            ]}
          />
        </div>
      </div>
      <div>
        <SectionTitle>Message template</SectionTitle>
        <p className="rounded-xl bg-slate-50 p-4 text-sm whitespace-pre-wrap text-slate-700 ring-1 ring-slate-200/70">
          {campaign.message_template || campaign.sequences.messages[0] || '—'}
        </p>
        {campaign.sequences.followUpEnabled && (
          <p className="mt-2 text-xs text-slate-500">
            {pluralize(campaign.sequences.followUpMessages.length, 'follow-up')},{' '}
            {pluralize(Number(campaign.sequences.followUpDays), 'day')} apart, stopped by a reply.
          </p>
        )}
      </div>
    </div>
  )
}
