import { Clock } from 'lucide-react'
import { StatusBadge } from '@/components/ui/status-badge'
import { campaignBadgeStatus } from '../campaign-status'

/**
 * The campaign's badge: the shared status badge for the statuses it names, and a grey 'Draft' with
 * the clock for the product's Draft mapping (the shared badge would read 'Unknown' for it).
 */
export function CampaignStatusBadge({ status }: { status: string }) {
  const shown = campaignBadgeStatus(status)
  if (shown !== 'Draft') return <StatusBadge status={shown} />
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-500/20 ring-inset">
      <Clock className="size-3.5" aria-hidden="true" />
      Draft
    </span>
  )
}
