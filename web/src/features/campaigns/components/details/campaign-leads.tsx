import { useQuery } from '@tanstack/react-query'
import { Users } from 'lucide-react'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Pill, type PillTone } from '@/components/ui/pill'
import { Skeleton } from '@/components/ui/skeleton'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { relativeTime } from '@/lib/relative-time'
import { type CampaignLead, getCampaignLeads } from '../../api/get-campaign-leads'

const LEAD_TONE: Record<string, PillTone> = {
  pending: 'grey',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
  uncertain: 'yellow',
  skipped: 'grey',
}

export function leadStateLabel(state: string, repliedAt: string | null): string {
  if (repliedAt) return 'Replied'
  return (
    {
      pending: 'Pending',
      sending: 'Sending',
      sent: 'Sent',
      failed: 'Failed',
      uncertain: 'Checking',
      skipped: 'Skipped',
    }[state] ?? state
  )
}

/** A skip's reason fits the Status cell in a line or two; the whole text is its tooltip. */
const SKIP_REASON_MAX = 60

/**
 * Why a lead was skipped, in the words stored with it (the platform's own notice: X's closed inbox,
 * Instagram's "can't receive your message"; or ours: do-not-contact, already contacted): its first
 * sentence without the signal code the runner appends or the final full stop, cut at a word. Only
 * the reason's name when no words were stored.
 */
export function skipReasonText(lead: Pick<CampaignLead, 'skip_reason' | 'last_error'>): string | null {
  const words = lead.last_error?.replace(/\s*\([a-z0-9_]+\)\s*$/, '').trim()
  if (!words) return lead.skip_reason?.replaceAll('_', ' ') ?? null
  const sentence = (words.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? words).replace(/\.$/, '')
  if (sentence.length <= SKIP_REASON_MAX) return sentence
  const cut = sentence.slice(0, SKIP_REASON_MAX)
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : SKIP_REASON_MAX)}…`
}

function SkipReason({ lead }: { lead: CampaignLead }) {
  const reason = skipReasonText(lead)
  if (!reason) return null
  return (
    <span
      className="mt-0.5 block max-w-56 text-xs text-slate-500"
      title={lead.last_error ?? undefined}
      data-testid="skip-reason"
    >
      {reason}
    </span>
  )
}

const stepName = (step: number) => (step === 0 ? 'First message' : `Follow-up ${step}`)

/**
 * The Step column. `current_step` is the step to send next and advances when a send is recorded,
 * so a lead whose sequence is over (a reply, a skip, nothing more scheduled) shows what was sent
 * last rather than a step that will never go out.
 */
export function leadStepLabel(
  lead: Pick<CampaignLead, 'state' | 'current_step' | 'next_send_at' | 'replied_at'>,
): string {
  const last = lead.current_step > 0 ? stepName(lead.current_step - 1).toLowerCase() : null
  if (lead.replied_at) return last ? `Replied after ${last}` : 'Replied'
  const step = stepName(lead.current_step)
  switch (lead.state) {
    case 'skipped':
      return '—'
    case 'sending':
      return `${step} sending`
    case 'failed':
      return `${step} failed`
    case 'uncertain':
      return `${step} unconfirmed`
    case 'sent':
      if (!lead.next_send_at) return last ? `Done · ${last} sent` : 'Done'
  }
  return `${step} next`
}

/** product.md §2 Modals 4, Leads: the latest 100 leads. */
export function CampaignLeads({ campaignId, live }: { campaignId: string; live: boolean }) {
  const leads = useQuery({
    queryKey: [queryRoots.campaigns, 'leads', campaignId],
    queryFn: () => getCampaignLeads(campaignId),
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
  if (leads.isPending) return <Skeleton className="h-48" />
  if (leads.isError) return <ErrorState message={leads.error.message} onRetry={() => void leads.refetch()} />
  if (leads.data.length === 0) return <EmptyState icon={Users} title="No leads collected yet" />
  return (
    <div className="overflow-x-auto rounded-xl ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
          <tr>
            <th className="px-4 py-2.5">Lead</th>
            <th className="px-4 py-2.5">Status</th>
            <th className="px-4 py-2.5">Step</th>
            <th className="px-4 py-2.5">Last message</th>
            <th className="px-4 py-2.5">Reply</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {leads.data.map((lead) => (
            <tr key={lead.id}>
              <td className="px-4 py-2.5">
                <span className="font-medium text-slate-900">@{lead.username}</span>
                {typeof lead.profile_data.display_name === 'string' && (
                  <span className="block text-xs text-slate-500">{lead.profile_data.display_name}</span>
                )}
              </td>
              <td className="px-4 py-2.5">
                <Pill tone={lead.replied_at ? 'blue' : (LEAD_TONE[lead.state] ?? 'grey')}>
                  {leadStateLabel(lead.state, lead.replied_at)}
                </Pill>
                {lead.state === 'skipped' && <SkipReason lead={lead} />}
              </td>
              <td className="px-4 py-2.5 text-slate-600">{leadStepLabel(lead)}</td>
              <td className="px-4 py-2.5 text-slate-600">
                {lead.last_sent_at ? relativeTime(lead.last_sent_at) : '—'}
              </td>
              <td
                className="max-w-56 truncate px-4 py-2.5 text-slate-600"
                title={lead.reply_text ?? undefined}
              >
                {lead.reply_text ?? (lead.replied_at ? relativeTime(lead.replied_at) : '—')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
