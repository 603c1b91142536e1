import { formatDate, formatDateTime, pluralize } from '@/lib/format'
import type { CampaignStats } from '../../api/get-campaign-details'
import type { Campaign } from '../../api/types'
import { isSending } from '../../campaign-status'
import { DetailStat, InfoList, SectionTitle } from './detail-bits'

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
  return (
    <div className="space-y-5">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <DetailStat label="Total Leads" value={stats.totalLeads} running={running} />
        <DetailStat label="Messages Sent" value={stats.messagesSent} running={running} />
        <DetailStat label="Responses" value={stats.responses} running={running} />
        <DetailStat label="Reply Rate" value={stats.replyRate} suffix="%" />
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
              { label: 'Target count', value: pluralize(stats.target, 'lead') },
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
