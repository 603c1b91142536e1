import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Search, ShieldBan, Users } from 'lucide-react'
import { useDeferredValue, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Input, Select } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { useRegisterExport } from '@/lib/export-registry'
import { formatCount } from '@/lib/format'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { exportLeads } from '../api/export-leads'
import { getLeadCampaignOptions } from '../api/get-lead-campaign-options'
import { getLeadsPage, type Lead } from '../api/get-leads-page'
import { LEAD_STATUSES, LeadsTable } from './leads-table'

export const LEADS_PAGE_SIZE = 25

/** product.md §2 Leads tab, paged and counted on the server. */
export function LeadsTab({
  onViewCampaigns,
  onOpenCampaign,
}: {
  onViewCampaigns: () => void
  onOpenCampaign: (lead: Lead) => void
}) {
  const toast = useToast()
  const [page, setPage] = useState(0)
  const [search, setSearch] = useState('')
  const [campaignId, setCampaignId] = useState('')
  const [status, setStatus] = useState('')
  const deferredSearch = useDeferredValue(search)
  const filters = { search: deferredSearch, campaignId, status }
  const filtered = Boolean(search || campaignId || status)

  const leads = useQuery({
    queryKey: [queryRoots.leads, 'page', page, filters],
    queryFn: () => getLeadsPage({ ...filters, page, pageSize: LEADS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // The first page follows new leads while the tab is visible; older pages stay still.
    refetchInterval: page === 0 ? LIVE_POLL_MS : false,
  })
  const campaigns = useQuery({
    queryKey: [queryRoots.leads, 'campaign-options'],
    queryFn: getLeadCampaignOptions,
  })
  useRegisterExport(async () => {
    const count = await exportLeads(filters)
    toast.success(`${formatCount(count)} leads exported`)
  })

  const change = (apply: () => void) => {
    apply()
    setPage(0)
  }
  const total = leads.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / LEADS_PAGE_SIZE))
  const first = total === 0 ? 0 : page * LEADS_PAGE_SIZE + 1
  const last = Math.min(total, (page + 1) * LEADS_PAGE_SIZE)

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <div className="relative sm:w-72">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search leads"
            placeholder="Search leads..."
            className="h-9 py-0 pl-9"
            value={search}
            onChange={(e) => change(() => setSearch(e.target.value))}
          />
        </div>
        <Select
          aria-label="Campaign"
          className="h-9 py-0 sm:w-56"
          value={campaignId}
          onChange={(e) => change(() => setCampaignId(e.target.value))}
        >
          <option value="">All Campaigns</option>
          {campaigns.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.kind === 'scraping' ? ' (scraping)' : ''}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Status"
          className="h-9 py-0 sm:w-44"
          value={status}
          onChange={(e) => change(() => setStatus(e.target.value))}
        >
          <option value="">All Statuses</option>
          {LEAD_STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
        <Link
          to={paths.doNotContact}
          className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:text-brand-800 sm:ml-auto"
        >
          <ShieldBan className="size-4" aria-hidden="true" />
          Do-not-contact list
        </Link>
      </div>

      {leads.isError ? (
        <ErrorState message={leads.error.message} onRetry={() => void leads.refetch()} />
      ) : !leads.isPending && total === 0 ? (
        filtered ? (
          <EmptyState icon={Search} title="No leads found" description="No lead matches these filters." />
        ) : (
          <EmptyState
            icon={Users}
            title="No leads yet"
            description="Leads arrive as your scraping campaigns collect them and your DM campaigns message them."
            action={<Button onClick={onViewCampaigns}>View Campaigns</Button>}
          />
        )
      ) : (
        <>
          <LeadsTable
            rows={leads.data?.rows ?? []}
            loading={leads.isPending}
            onOpenCampaign={onOpenCampaign}
          />
          <div className="flex flex-col items-center justify-between gap-3 text-sm text-slate-600 sm:flex-row">
            <p data-testid="leads-range">
              {leads.isPending
                ? 'Counting leads...'
                : `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)} leads`}
            </p>
            <div className="flex items-center gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={page === 0 || leads.isFetching}
                onClick={() => setPage((p) => Math.max(0, p - 1))}
                icon={<ChevronLeft className="size-4" aria-hidden="true" />}
              >
                Previous
              </Button>
              <span className="tabular-nums">
                Page {page + 1} of {formatCount(pages)}
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled={page + 1 >= pages || leads.isFetching}
                onClick={() => setPage((p) => p + 1)}
              >
                Next
                <ChevronRight className="size-4" aria-hidden="true" />
              </Button>
            </div>
          </div>
        </>
      )}
    </div>
  )
}
