import { useQuery } from '@tanstack/react-query'
import { Users } from 'lucide-react'
import { useState } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Pill } from '@/components/ui/pill'
import { SegmentedControl } from '@/components/ui/segmented-control'
import { Skeleton } from '@/components/ui/skeleton'
import { aiVerdictSchema, type ProfileData } from '@/lib/database/leads'
import { formatDateTime } from '@/lib/format'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { getScrapedLeads, type ScrapedLeadFilter } from '../../api/get-scraped-leads'
import { sourceLabel } from './bits'

/** product.md §2 Modals 5, Scraped Leads: all / active only / filtered only, the latest 500. */
/** What the AI filter said of a kept lead: its score, or why it is unscored. */
export function aiVerdict(profile: ProfileData | null): string | null {
  const verdict = aiVerdictSchema.safeParse(profile?.ai)
  const ai = verdict.success ? verdict.data : undefined
  if (ai?.status === 'scored') return `AI score ${ai.score}`
  if (ai?.status === 'unscored') return `Kept unscored: ${ai.error ?? 'the AI could not score it'}`
  return null
}

export function ScrapedLeads({ campaignId, live }: { campaignId: string; live: boolean }) {
  const [filter, setFilter] = useState<ScrapedLeadFilter>('all')
  const leads = useQuery({
    queryKey: [queryRoots.scraping, 'leads', campaignId, filter],
    queryFn: () => getScrapedLeads(campaignId, filter),
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
  return (
    <div className="space-y-3">
      <SegmentedControl
        label="Show leads"
        value={filter}
        onChange={setFilter}
        options={[
          { value: 'all', label: 'All' },
          { value: 'active', label: 'Active only' },
          { value: 'filtered', label: 'Filtered only' },
        ]}
      />
      {leads.isPending ? (
        <Skeleton className="h-48" />
      ) : leads.isError ? (
        <ErrorState message={leads.error.message} onRetry={() => void leads.refetch()} />
      ) : leads.data.length === 0 ? (
        <EmptyState icon={Users} title={filter === 'all' ? 'No leads collected yet' : 'No leads found'} />
      ) : (
        <div className="max-h-[28rem] overflow-auto rounded-xl ring-1 ring-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="scraped-leads">
            <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold text-slate-500">
              <tr>
                <th className="px-4 py-2.5">Username</th>
                <th className="px-4 py-2.5">Status</th>
                <th className="px-4 py-2.5">Source</th>
                <th className="px-4 py-2.5">Filter reason</th>
                <th className="px-4 py-2.5">Collected</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 bg-white">
              {leads.data.map((lead) => (
                <tr key={lead.id}>
                  <td className="px-4 py-2.5 font-medium text-slate-900">@{lead.username}</td>
                  <td className="px-4 py-2.5">
                    <Pill tone={lead.is_filtered ? 'grey' : 'green'}>
                      {lead.is_filtered ? 'Filtered' : 'Active'}
                    </Pill>
                  </td>
                  <td className="px-4 py-2.5 text-slate-600">
                    {sourceLabel(lead.source_type)}
                    {lead.source_value ? `: ${lead.source_value}` : ''}
                  </td>
                  <td className="px-4 py-2.5 text-slate-600">
                    {lead.filter_reason ?? aiVerdict(lead.profile_data) ?? '—'}
                  </td>
                  <td className="px-4 py-2.5 whitespace-nowrap text-slate-500">
                    {formatDateTime(lead.collected_at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}
