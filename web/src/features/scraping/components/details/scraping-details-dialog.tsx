import { useQuery } from '@tanstack/react-query'
import { Send } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { DetailsBody } from '@/components/ui/details-body'
import { Dialog } from '@/components/ui/dialog'
import { StatusBadge } from '@/components/ui/status-badge'
import { lazyWithPreload } from '@/lib/lazy-with-preload'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { getScrapingDetails } from '../../api/get-scraping-details'
import { criteriaText } from '../../scraping-form'
import { scrapingDisplay } from '../../scraping-status'
import { ScrapedLeads } from './scraped-leads'
import { ScrapingOverview } from './scraping-overview'
import { ScrapingSources } from './scraping-sources'

const analytics = lazyWithPreload(() => import('./scraping-analytics'))
const ScrapingAnalytics = analytics.Component

type DetailTab = 'overview' | 'leads' | 'sources' | 'analytics'

/** product.md §2 Modals 5: scraping campaign details with Overview, Scraped Leads, Sources and Analytics. */
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
  const canEdit = useCanEditWorkspace()
  const details = useQuery({
    queryKey: [queryRoots.scraping, 'details', campaignId],
    queryFn: () => getScrapingDetails(campaignId),
    refetchInterval: (query) => (query.state.data?.campaign.status === 'running' ? LIVE_POLL_MS : false),
  })
  const campaign = details.data?.campaign
  const live = campaign?.status === 'running'
  // the charts' code loads as the dialog opens; the figures come with the details
  useEffect(() => analytics.preload(), [])
  return (
    <Dialog
      open
      onClose={onClose}
      size="4xl"
      title={campaign?.name ?? 'Scraping campaign'}
      description={
        campaign ? `${campaign.platform?.display_name ?? ''} · ${criteriaText(campaign.sources)}` : undefined
      }
      headerExtra={
        campaign && (
          <StatusBadge status={scrapingDisplay(campaign).badge} label={scrapingDisplay(campaign).label} />
        )
      }
    >
      <DetailsBody
        query={details}
        notFound="Campaign not found"
        tabsLabel="Scraping campaign details"
        tab={tab}
        onTabChange={setTab}
        loadingLabel={tab === 'analytics' ? 'Loading analytics...' : 'Loading...'}
        tabs={[
          { id: 'overview', label: 'Overview' },
          { id: 'leads', label: 'Scraped Leads' },
          { id: 'sources', label: 'Sources' },
          { id: 'analytics', label: 'Analytics' },
        ]}
        actions={({ campaign }) =>
          canEdit &&
          campaign.status === 'completed' &&
          campaign.leads_collected > 0 && (
            <Button
              size="sm"
              onClick={() => onCreateDmCampaign(campaign.id)}
              icon={<Send className="size-4" aria-hidden="true" />}
            >
              Message these leads
            </Button>
          )
        }
      >
        {({ campaign, stats, perHour }) => (
          <>
            {tab === 'overview' && <ScrapingOverview campaign={campaign} stats={stats} />}
            {tab === 'leads' && <ScrapedLeads campaignId={campaignId} live={live} />}
            {tab === 'sources' && <ScrapingSources stats={stats} />}
            {tab === 'analytics' && <ScrapingAnalytics stats={stats} perHour={perHour} />}
          </>
        )}
      </DetailsBody>
    </Dialog>
  )
}
