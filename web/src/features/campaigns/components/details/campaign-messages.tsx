import { useQuery } from '@tanstack/react-query'
import { MessageSquare, Sparkles } from 'lucide-react'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Skeleton } from '@/components/ui/skeleton'
import { StatusBadge } from '@/components/ui/status-badge'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { relativeTime } from '@/lib/relative-time'
import { getCampaignMessages, type MessageLog } from '../../api/get-campaign-messages'
import { sentVariantLabel } from '../../variant-results'

/** product.md §9: message previews are cut to 50 characters. */
export function messagePreview(text: string | null): string {
  if (!text) return '—'
  return text.length > 50 ? `${text.slice(0, 50)}…` : text
}

const STATUS_BADGE: Record<string, string> = {
  sent: 'success',
  failed: 'failed',
  error: 'error',
  uncertain: 'warning',
  // the page was slow before anything was typed: waiting to be sent again, not a failure
  deferred: 'pending',
}

/** Log statuses whose note explains, not an error: waiting to be sent again, or a lead the platform refused. */
const NOT_FAILED = new Set(['deferred', 'skipped'])

/** Whether the AI personalised this DM or the template went out instead (and why), with the full text sent. */
function PersonalizationLine({ log }: { log: MessageLog }) {
  return (
    <details className="mt-1 text-xs" data-testid="message-personalization">
      <summary className="cursor-pointer list-none text-slate-500 hover:text-slate-700">
        {log.personalization === 'personalized' ? (
          <span className="inline-flex items-center gap-1 font-medium text-brand-700">
            <Sparkles className="size-3" aria-hidden="true" /> AI personalised
          </span>
        ) : (
          <span className="font-medium text-amber-700">
            Sent as written: {log.personalization_note ?? 'AI unavailable'}
          </span>
        )}
        <span className="ml-1 text-slate-400">· show full text</span>
      </summary>
      <p className="mt-1 whitespace-pre-wrap rounded-lg bg-slate-50 p-2 text-slate-700">{log.message_sent}</p>
    </details>
  )
}

/** product.md §2 Modals 4, Messages: the latest 100. */
export function CampaignMessages({ campaignId, live }: { campaignId: string; live: boolean }) {
  const messages = useQuery({
    queryKey: [queryRoots.campaigns, 'messages', campaignId],
    queryFn: () => getCampaignMessages(campaignId),
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
  if (messages.isPending) return <Skeleton className="h-48" />
  if (messages.isError)
    return <ErrorState message={messages.error.message} onRetry={() => void messages.refetch()} />
  if (messages.data.length === 0) return <EmptyState icon={MessageSquare} title="No messages sent yet" />
  return (
    <ul
      className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200"
      data-testid="campaign-messages"
    >
      {messages.data.map((log) => (
        <li key={log.id} className="flex items-start justify-between gap-4 px-4 py-3">
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-900">
              @{log.target_username}
              <span className="ml-2 text-xs font-normal text-slate-400">
                {log.message_type === 'initial' ? 'Initial message' : `Follow-up ${log.step}`}
                {sentVariantLabel(log) && ` · ${sentVariantLabel(log)}`}
              </span>
            </p>
            <p className="truncate text-sm text-slate-600" title={log.message_sent ?? undefined}>
              {messagePreview(log.message_sent)}
            </p>
            {log.personalization && <PersonalizationLine log={log} />}
            {log.error && (
              // a deferred DM is waiting and a refused lead was skipped: neither note is an error
              <p className={NOT_FAILED.has(log.status) ? 'text-xs text-slate-500' : 'text-xs text-red-600'}>
                {log.error}
              </p>
            )}
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            {log.status === 'skipped' ? (
              // the platform refused the lead: nothing went out, and it is no failure
              <StatusBadge status="pending" label="Skipped" />
            ) : (
              <StatusBadge status={STATUS_BADGE[log.status] ?? log.status} />
            )}
            <span className="text-xs text-slate-400">{relativeTime(log.sent_at)}</span>
          </div>
        </li>
      ))}
    </ul>
  )
}
