import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pause, Play } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { DetailsBody } from '@/components/ui/details-body'
import { Dialog } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toast'
import { errorMessage } from '@/lib/api-client'
import { lazyWithPreload } from '@/lib/lazy-with-preload'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { getCampaignDetails } from '../../api/get-campaign-details'
import { getVariantStats } from '../../api/get-variant-stats'
import { launchCampaign } from '../../api/launch-campaign'
import { pauseCampaign } from '../../api/pause-campaign'
import { isSending } from '../../campaign-status'
import { useCampaignWaits } from '../../hooks/use-campaign-waits'
import { CampaignStatusBadge } from '../campaign-status-badge'
import { CampaignWaitNote } from '../campaign-wait-note'
import { CampaignLeads } from './campaign-leads'
import { CampaignMessages } from './campaign-messages'
import { CampaignOverview } from './campaign-overview'
import { CampaignVariants } from './campaign-variants'

const analytics = lazyWithPreload(() => import('./campaign-analytics'))
const CampaignAnalytics = analytics.Component

type DetailTab = 'overview' | 'leads' | 'messages' | 'analytics'

/** product.md §2 Modals 4: DM campaign details with Overview, Leads, Messages and Analytics. */
export function CampaignDetailsDialog({ campaignId, onClose }: { campaignId: string; onClose: () => void }) {
  const [tab, setTab] = useState<DetailTab>('overview')
  const canEdit = useCanEditWorkspace()
  const toast = useToast()
  const queryClient = useQueryClient()
  const details = useQuery({
    queryKey: [queryRoots.campaigns, 'details', campaignId],
    queryFn: () => getCampaignDetails(campaignId),
    refetchInterval: (query) =>
      query.state.data && isSending(query.state.data.campaign.status) ? LIVE_POLL_MS : false,
  })
  const campaign = details.data?.campaign
  const live = campaign ? isSending(campaign.status) : false
  const waiting = useCampaignWaits(live).data?.get(campaignId) ?? null
  // Analytics is one click away: its code (the charts) and its per-message results start loading
  // as the dialog opens, so the tab shows results, not a wait.
  useEffect(() => {
    analytics.preload()
    void queryClient.prefetchQuery({
      queryKey: [queryRoots.campaigns, 'variants', campaignId],
      queryFn: () => getVariantStats(campaignId),
    })
  }, [campaignId, queryClient])

  const action = useMutation({
    mutationFn: (kind: 'launch' | 'pause') =>
      kind === 'launch' ? launchCampaign(campaignId) : pauseCampaign(campaignId),
    onSuccess: (result, kind) => {
      toast.success(
        result.message ?? (kind === 'launch' ? 'Campaign launched!' : 'Campaign paused!'),
        undefined,
        {
          key: `campaign:${campaignId}`,
        },
      )
      void queryClient.invalidateQueries({ queryKey: [queryRoots.campaigns] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
    },
    onError: (error, kind) =>
      toast.error(
        `Error ${kind === 'launch' ? 'launching' : 'pausing'} campaign: ${errorMessage(error)}`,
        undefined,
        {
          key: `campaign:${campaignId}`,
        },
      ),
  })

  return (
    <Dialog
      open
      onClose={onClose}
      size="4xl"
      title={campaign?.name ?? 'Campaign'}
      description={
        campaign
          ? `@${campaign.social_account?.username ?? 'deleted account'} · ${campaign.platform?.display_name ?? ''}`
          : undefined
      }
      headerExtra={campaign && <CampaignStatusBadge status={campaign.status} />}
    >
      <DetailsBody
        query={details}
        notFound="Campaign not found"
        tabsLabel="Campaign details"
        tab={tab}
        onTabChange={setTab}
        loadingLabel={tab === 'analytics' ? 'Loading analytics...' : 'Loading...'}
        tabs={[
          { id: 'overview', label: 'Overview' },
          { id: 'leads', label: 'Leads' },
          { id: 'messages', label: 'Messages' },
          { id: 'analytics', label: 'Analytics' },
        ]}
        actions={({ campaign }) =>
          canEdit && (
            <>
              {(campaign.status === 'draft' || campaign.status === 'paused') && !campaign.account_id && (
                <span className="text-xs font-medium text-amber-700">
                  No account: choose one to send again
                </span>
              )}
              {(campaign.status === 'draft' || campaign.status === 'paused') && campaign.account_id && (
                <Button
                  size="sm"
                  onClick={() => action.mutate('launch')}
                  loading={action.isPending}
                  icon={<Play className="size-4" aria-hidden="true" />}
                >
                  {campaign.status === 'paused' ? 'Resume' : 'Launch'}
                </Button>
              )}
              {live && (
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => action.mutate('pause')}
                  loading={action.isPending}
                  icon={<Pause className="size-4" aria-hidden="true" />}
                >
                  Pause
                </Button>
              )}
            </>
          )
        }
      >
        {({ campaign, stats }) => (
          <>
            {tab === 'overview' && waiting && <CampaignWaitNote wait={waiting} large className="mb-4" />}
            {tab === 'overview' && (
              <CampaignOverview campaign={campaign} stats={stats} waiting={waiting !== null} />
            )}
            {tab === 'leads' && <CampaignLeads campaignId={campaignId} live={live} />}
            {tab === 'messages' && <CampaignMessages campaignId={campaignId} live={live} />}
            {tab === 'analytics' && (
              <div className="space-y-6">
                <CampaignVariants campaign={campaign} live={live} />
                <CampaignAnalytics stats={stats} figures={campaign.figures} />
              </div>
            )}
          </>
        )}
      </DetailsBody>
    </Dialog>
  )
}
