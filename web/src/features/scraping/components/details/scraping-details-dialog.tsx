import { useQuery } from '@tanstack/react-query'
import { Send } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { ErrorState } from '@/components/ui/error-state'
import { Skeleton } from '@/components/ui/skeleton'
import { StatusBadge } from '@/components/ui/status-badge'
import { Tabs } from '@/components/ui/tabs'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { getScrapingDetails } from '../../api/get-scraping-details'
import { criteriaText } from '../../scraping-form'
import { scrapingBadgeStatus } from '../../scraping-status'
import { ScrapedLeads } from './scraped-leads'
import { ScrapingOverview } from './scraping-overview'
import { ScrapingSources } from './scraping-sources'

const ScrapingAnalytics = lazy(() => import('./scraping-analytics'))

type DetailTab = 'overview' | 'leads' | 'sources' | 'analytics'

/** Spec §2 Modals 5: scraping campaign details with Overview, Scraped Leads, Sources and Analytics. */
export function ScrapingDetailsDialog({
  campaignId,
  onClose,
  onCreateDmCampaign,
}: {
  campaignId: string
  onClose: () => void
  /** Opens the DM wizard with this campaign as its lead source. */
  onCreateDmCampaign: (scrapingCampaignId: string) => void
}) {
  const [tab, setTab] = useState<DetailTab>('overview')
  const details = useQuery({
    queryKey: [queryRoots.scraping, 'details', campaignId],
    queryFn: () => getScrapingDetails(campaignId),
    refetchInterval: (query) => (query.state.data?.campaign.status === 'running' ? LIVE_POLL_MS : false),
  })
  const campaign = details.data?.campaign
  const live = campaign?.status === 'running'
  return (
    <Dialog
      open
      onClose={onClose}
      size="4xl"
      title={campaign?.name ?? 'Scraping campaign'}
      description={
        campaign ? `${campaign.platform?.display_name ?? ''} · ${criteriaText(campaign.sources)}` : undefined
      }
      headerExtra={campaign && <StatusBadge status={scrapingBadgeStatus(campaign.status)} />}
    >
      {details.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="h-10" />
          <Skeleton className="h-28" />
          <Skeleton className="h-40" />
        </div>
      ) : details.isError || !campaign ? (
        <ErrorState
          message={details.error?.message ?? 'Campaign not found'}
          onRetry={() => void details.refetch()}
        />
      ) : (
        <div className="space-y-5">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Tabs<DetailTab>
              label="Scraping campaign details"
              value={tab}
              onChange={setTab}
              className="min-w-0 flex-1"
              items={[
                { id: 'overview', label: 'Overview' },
                { id: 'leads', label: 'Scraped Leads' },
                { id: 'sources', label: 'Sources' },
                { id: 'analytics', label: 'Analytics' },
              ]}
            />
            {campaign.status === 'completed' && campaign.leads_collected > 0 && (
              <Button
                size="sm"
                onClick={() => onCreateDmCampaign(campaign.id)}
                icon={<Send className="size-4" aria-hidden="true" />}
              >
                Message these leads
              </Button>
            )}
          </div>
          {tab === 'overview' && <ScrapingOverview campaign={campaign} stats={details.data.stats} />}
          {tab === 'leads' && <ScrapedLeads campaignId={campaignId} live={live} />}
          {tab === 'sources' && <ScrapingSources stats={details.data.stats} />}
          {tab === 'analytics' && (
            <Suspense fallback={<Skeleton className="h-64" />}>
              <ScrapingAnalytics stats={details.data.stats} perHour={details.data.perHour} />
            </Suspense>
          )}
        </div>
      )}
    </Dialog>
  )
}
