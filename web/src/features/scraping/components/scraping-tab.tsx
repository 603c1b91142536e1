import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Globe, Plus, Radar, SlidersHorizontal } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { FilterMenu } from '@/components/ui/filter-menu'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { SegmentedControl } from '@/components/ui/segmented-control'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { errorMessage } from '@/lib/api-client'
import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { useRegisterExport } from '@/lib/export-registry'
import { percentOf } from '@/lib/format'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { deleteScrapingCampaign } from '../api/delete-scraping-campaign'
import { getScrapingCampaigns } from '../api/get-scraping-campaigns'
import { pauseScrapingCampaign } from '../api/pause-scraping-campaign'
import { startScrapingCampaign } from '../api/start-scraping-campaign'
import type { ScrapingCampaign } from '../api/types'
import { criteriaText } from '../scraping-form'
import {
  SCRAPING_FILTER_LABELS,
  SCRAPING_STATUS_FILTERS,
  type ScrapingStatusFilter,
  scrapingFilterOf,
} from '../scraping-status'
import { ScrapingCard } from './scraping-card'

const CSV: CsvColumn<ScrapingCampaign>[] = [
  { header: 'Name', value: (c) => c.name },
  { header: 'Platform', value: (c) => c.platform?.display_name },
  { header: 'Criteria', value: (c) => criteriaText(c.sources) },
  { header: 'Status', value: (c) => c.status },
  { header: 'Total Scraped', value: (c) => c.collected_count },
  { header: 'Verified Leads', value: (c) => c.leads_collected },
  { header: 'Success Rate %', value: (c) => percentOf(c.leads_collected, c.collected_count, 1) },
  { header: 'Target', value: (c) => c.target_count },
  { header: 'Last Run', value: (c) => c.last_run_at },
  { header: 'Next Run', value: (c) => c.next_run_at },
]

type Action = 'start' | 'pause' | 'delete'
const DONE: Record<Action, string> = {
  start: 'Scraping campaign started!',
  pause: 'Scraping campaign paused!',
  delete: 'Scraping campaign deleted successfully!',
}
const FAILED: Record<Action, string> = {
  start: 'Error starting scraping campaign',
  pause: 'Error pausing scraping campaign',
  delete: 'Error deleting scraping campaign',
}

/** product.md §2 Lead Scraping tab. */
export function ScrapingTab({ onCreate, onOpen }: { onCreate: () => void; onOpen: (id: string) => void }) {
  const toast = useToast()
  const canEdit = useCanEditWorkspace()
  const queryClient = useQueryClient()
  const [bucket, setBucket] = useState<ScrapingStatusFilter | 'all'>('all')
  const [platform, setPlatform] = useState('')
  const [status, setStatus] = useState('')
  const [confirming, setConfirming] = useState<ScrapingCampaign | null>(null)
  const campaigns = useQuery({
    queryKey: [queryRoots.scraping, 'list'],
    queryFn: getScrapingCampaigns,
    refetchInterval: (query) =>
      query.state.data?.some((c) => c.status === 'running') ? LIVE_POLL_MS : false,
  })
  const all = campaigns.data ?? []
  const shown = useMemo(
    () =>
      all.filter(
        (c) =>
          (bucket === 'all' || scrapingFilterOf(c.status) === bucket) &&
          (!platform || c.platform?.name === platform) &&
          (!status || c.status === status),
      ),
    [all, bucket, platform, status],
  )
  useRegisterExport(() => downloadCsv(csvFilename('lead-scraping'), toCsv(shown, CSV)))

  const act = useMutation({
    mutationFn: ({ action, campaign }: { action: Action; campaign: ScrapingCampaign }) =>
      action === 'start'
        ? startScrapingCampaign(campaign.id)
        : action === 'pause'
          ? pauseScrapingCampaign(campaign.id)
          : deleteScrapingCampaign(campaign.id),
    onSuccess: (_result, { action, campaign }) => {
      toast.success(DONE[action], undefined, { key: `scraping:${campaign.id}` })
      if (action === 'delete') setConfirming(null)
    },
    onError: (error, { action, campaign }) =>
      toast.error(`${FAILED[action]}: ${errorMessage(error)}`, undefined, { key: `scraping:${campaign.id}` }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [queryRoots.scraping] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.leads] })
    },
  })
  const busyFor = (id: string): Action | null =>
    act.isPending && act.variables?.campaign.id === id ? act.variables.action : null
  const platforms = [
    ...new Map(
      all.filter((c) => c.platform).map((c) => [c.platform?.name ?? '', c.platform?.display_name ?? '']),
    ).entries(),
  ]

  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold text-slate-900">Lead Scraping Campaigns</h2>
      <div className="flex flex-wrap items-center gap-2">
        <SegmentedControl
          label="Scraping status"
          value={bucket}
          onChange={setBucket}
          options={[
            { value: 'all', label: 'All', count: all.length },
            ...SCRAPING_STATUS_FILTERS.map((value) => ({
              value,
              label: SCRAPING_FILTER_LABELS[value],
              count: all.filter((c) => scrapingFilterOf(c.status) === value).length,
            })),
          ]}
        />
        <FilterMenu
          label="Platform"
          icon={<Globe className="size-4" aria-hidden="true" />}
          allLabel="All platforms"
          options={platforms.map(([value, label]) => ({ value, label }))}
          value={platform}
          onChange={setPlatform}
        />
        <FilterMenu
          label="Status"
          icon={<SlidersHorizontal className="size-4" aria-hidden="true" />}
          allLabel="All statuses"
          options={['pending', 'running', 'paused', 'completed'].map((value) => ({
            value,
            label: value.charAt(0).toUpperCase() + value.slice(1),
          }))}
          value={status}
          onChange={setStatus}
        />
      </div>
      {campaigns.isPending ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-64 rounded-2xl" />
          ))}
        </div>
      ) : campaigns.isError ? (
        <ErrorState message={campaigns.error.message} onRetry={() => void campaigns.refetch()} />
      ) : all.length === 0 ? (
        <EmptyState
          icon={Radar}
          title="No scraping campaigns yet"
          description="Collect leads from followers, hashtags or keyword searches, filtered the way you want."
          action={
            canEdit ? (
              <Button onClick={onCreate} icon={<Plus className="size-4" aria-hidden="true" />}>
                Create Scraping Campaign
              </Button>
            ) : (
              <ReadOnlyNote />
            )
          }
        />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={Radar}
          title="No scraping campaigns match"
          description="Choose another status or platform."
        />
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {shown.map((c) => (
            <ScrapingCard
              key={c.id}
              campaign={c}
              busy={busyFor(c.id)}
              readOnly={!canEdit}
              onOpen={() => onOpen(c.id)}
              onStart={() => act.mutate({ action: 'start', campaign: c })}
              onPause={() => act.mutate({ action: 'pause', campaign: c })}
              onDelete={() => setConfirming(c)}
            />
          ))}
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Delete scraping campaign?"
        message={`"${confirming?.name ?? ''}" and every lead it collected will be deleted. This cannot be undone.`}
        confirmLabel="Delete Campaign"
        busy={act.isPending && act.variables?.action === 'delete'}
        onConfirm={() => confirming && act.mutate({ action: 'delete', campaign: confirming })}
        onCancel={() => setConfirming(null)}
      />
    </div>
  )
}
