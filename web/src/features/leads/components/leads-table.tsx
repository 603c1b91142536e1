import { Copy, ExternalLink } from 'lucide-react'
import { Pill, type PillTone } from '@/components/ui/pill'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { relativeTime } from '@/lib/relative-time'
import type { Lead } from '../api/get-leads-page'

export const LEAD_STATUSES: { value: string; label: string; tone: PillTone }[] = [
  { value: 'active', label: 'Active', tone: 'green' },
  { value: 'filtered', label: 'Filtered', tone: 'grey' },
  { value: 'pending', label: 'Pending', tone: 'grey' },
  { value: 'sending', label: 'Sending', tone: 'blue' },
  { value: 'sent', label: 'Contacted', tone: 'green' },
  { value: 'replied', label: 'Replied', tone: 'blue' },
  { value: 'uncertain', label: 'Checking', tone: 'yellow' },
  { value: 'failed', label: 'Failed', tone: 'red' },
  { value: 'skipped', label: 'Skipped', tone: 'grey' },
]

const statusOf = (value: string) =>
  LEAD_STATUSES.find((s) => s.value === value) ?? { label: value, tone: 'grey' as const }

const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase'

/** product.md §2 Leads table: Contact, Company (with e-mail), Status, Campaign, Last Activity, Actions. */
export function LeadsTable({
  rows,
  loading,
  onOpenCampaign,
}: {
  rows: Lead[]
  loading: boolean
  onOpenCampaign: (lead: Lead) => void
}) {
  const toast = useToast()
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-card">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50">
          <tr>
            <th className={th}>Contact</th>
            <th className={th}>Company</th>
            <th className={th}>Status</th>
            <th className={th}>Campaign</th>
            <th className={th}>Last Activity</th>
            <th className={`${th} text-right`}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100" aria-busy={loading}>
          {loading
            ? [0, 1, 2, 3, 4].map((i) => (
                <tr key={i} data-testid="lead-skeleton-row">
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <Skeleton className="size-9 rounded-full" />
                      <div className="space-y-1.5">
                        <Skeleton className="h-3.5 w-28" />
                        <Skeleton className="h-3 w-20" />
                      </div>
                    </div>
                  </td>
                  {[0, 1, 2, 3, 4].map((j) => (
                    <td key={j} className="px-4 py-3">
                      <Skeleton className="h-3.5 w-20" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((lead) => {
                const status = statusOf(lead.status)
                return (
                  <tr
                    key={`${lead.platform}-${lead.username}`}
                    data-testid="lead-row"
                    className="hover:bg-slate-50/70"
                  >
                    <td className="px-4 py-3">
                      <div className="flex items-center gap-3">
                        <span
                          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-gradient text-sm font-semibold text-white"
                          aria-hidden="true"
                        >
                          {lead.avatar}
                        </span>
                        <div className="min-w-0">
                          <p className="truncate font-medium text-slate-900">{lead.display_name}</p>
                          <p className="truncate text-xs text-slate-500">
                            {lead.title ?? `@${lead.username}`}
                          </p>
                        </div>
                      </div>
                    </td>
                    <td className="px-4 py-3">
                      <p className="text-slate-800">{lead.company ?? '—'}</p>
                      {lead.email && <p className="text-xs text-slate-500">{lead.email}</p>}
                    </td>
                    <td className="px-4 py-3">
                      <Pill tone={status.tone}>{status.label}</Pill>
                    </td>
                    <td className="max-w-56 px-4 py-3 text-slate-700" title={lead.sources.join('\n')}>
                      <p className="truncate">{lead.campaign_name}</p>
                      {lead.source_count > 1 && (
                        <p className="truncate text-xs text-slate-500">
                          {lead.sources.length > 1
                            ? `+${lead.sources.length - 1} more: ${lead.sources.filter((s) => s !== lead.campaign_name).join(', ')}`
                            : `${lead.source_count} sources`}
                        </p>
                      )}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-500">
                      {relativeTime(lead.last_activity)}
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex justify-end gap-1">
                        <button
                          type="button"
                          onClick={() => onOpenCampaign(lead)}
                          className="rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
                          aria-label={`Open ${lead.campaign_name}`}
                          title="Open campaign"
                        >
                          <ExternalLink className="size-4" aria-hidden="true" />
                        </button>
                        <button
                          type="button"
                          onClick={() => {
                            void navigator.clipboard
                              ?.writeText(lead.username)
                              .then(() => toast.success(`@${lead.username} copied to clipboard`))
                          }}
                          className="rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
                          aria-label={`Copy @${lead.username}`}
                          title="Copy username"
                        >
                          <Copy className="size-4" aria-hidden="true" />
                        </button>
                      </div>
                    </td>
                  </tr>
                )
              })}
        </tbody>
      </table>
    </div>
  )
}
