import { Building2, Filter, Megaphone, Plus, Search, SlidersHorizontal } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { FilterMenu } from '@/components/ui/filter-menu'
import { Input } from '@/components/ui/form-field'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { SegmentedControl } from '@/components/ui/segmented-control'
import { badgeStyle } from '@/components/ui/status-badge-style'
import { useRegisterExport } from '@/lib/export-registry'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { exportCampaigns } from '../campaign-export'
import { type CampaignFilters, distinct, filterCampaigns, NO_FILTERS } from '../campaign-filters'
import { CAMPAIGN_FILTERS, campaignFilterOf, isSending } from '../campaign-status'
import { useCampaignWaits } from '../hooks/use-campaign-waits'
import { useCampaigns } from '../hooks/use-campaigns'
import { CampaignCard, CampaignCardSkeleton } from './campaign-card'

/** product.md §2 Campaigns tab. */
export function CampaignsTab({
  onCreate,
  onOpen,
}: {
  onCreate: () => void
  onOpen: (campaignId: string) => void
}) {
  const campaigns = useCampaigns()
  const canEdit = useCanEditWorkspace()
  const [filters, setFilters] = useState<CampaignFilters>(NO_FILTERS)
  const all = campaigns.data ?? []
  const waits = useCampaignWaits(all.some((c) => isSending(c.status)))
  const shown = useMemo(() => filterCampaigns(all, filters), [all, filters])
  useRegisterExport(() => exportCampaigns(shown))
  const patch = (change: Partial<CampaignFilters>) => setFilters((f) => ({ ...f, ...change }))

  const accounts = useMemo(() => {
    const seen = new Map<string, string>()
    for (const c of all) if (c.social_account) seen.set(c.social_account.id, `@${c.social_account.username}`)
    return [...seen].map(([value, label]) => ({ value, label }))
  }, [all])

  if (campaigns.isError)
    return <ErrorState message={campaigns.error.message} onRetry={() => void campaigns.refetch()} />

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 2xl:flex-row 2xl:items-center 2xl:justify-between">
        <SegmentedControl
          label="Campaign status"
          value={filters.bucket}
          onChange={(bucket) => patch({ bucket })}
          options={[
            { value: 'all', label: 'All', count: all.length },
            ...CAMPAIGN_FILTERS.map((value) => ({
              value,
              label: value,
              count: all.filter((c) => campaignFilterOf(c.status) === value).length,
            })),
          ]}
        />
        <div className="flex flex-wrap items-center gap-2">
          <div className="relative w-full min-w-0 sm:w-64 sm:flex-none">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
              aria-hidden="true"
            />
            <Input
              type="search"
              aria-label="Search campaigns"
              placeholder="Search campaigns..."
              className="h-9 py-0 pl-9"
              value={filters.search}
              onChange={(e) => patch({ search: e.target.value })}
            />
          </div>
          <FilterMenu
            label="Filter"
            icon={<Filter className="size-4" aria-hidden="true" />}
            allLabel="All accounts"
            options={accounts}
            value={filters.accountId}
            onChange={(accountId) => patch({ accountId })}
          />
          <FilterMenu
            label="Status"
            icon={<SlidersHorizontal className="size-4" aria-hidden="true" />}
            allLabel="All statuses"
            options={distinct(all.map((c) => c.status)).map((value) => ({
              value,
              label:
                value === 'queued'
                  ? 'Queued'
                  : badgeStyle(value).label === 'Unknown'
                    ? value
                    : badgeStyle(value).label,
            }))}
            value={filters.status}
            onChange={(status) => patch({ status })}
          />
          <FilterMenu
            label="Industry"
            icon={<Building2 className="size-4" aria-hidden="true" />}
            allLabel="All industries"
            options={distinct(all.map((c) => c.industry)).map((value) => ({ value, label: value }))}
            value={filters.industry}
            onChange={(industry) => patch({ industry })}
          />
        </div>
      </div>

      {campaigns.isPending ? (
        <div
          className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3"
          aria-busy="true"
          data-testid="campaigns-loading"
        >
          {[0, 1, 2, 3].map((i) => (
            <CampaignCardSkeleton key={i} />
          ))}
        </div>
      ) : all.length === 0 ? (
        <EmptyState
          icon={Megaphone}
          title="No campaigns yet"
          description="Turn the leads you scraped into conversations: write a short sequence and pick when it sends."
          action={
            canEdit ? (
              <Button onClick={onCreate} icon={<Plus className="size-4" aria-hidden="true" />}>
                Create Your First Campaign
              </Button>
            ) : (
              <ReadOnlyNote />
            )
          }
        />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={Search}
          title="No campaigns match"
          description="Try another search or clear the filters."
          action={
            <Button variant="secondary" onClick={() => setFilters(NO_FILTERS)}>
              Clear filters
            </Button>
          }
        />
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {shown.map((campaign) => (
            <CampaignCard
              key={campaign.id}
              campaign={campaign}
              waiting={waits.data?.get(campaign.id) ?? null}
              onOpen={() => onOpen(campaign.id)}
            />
          ))}
        </div>
      )}
    </div>
  )
}
