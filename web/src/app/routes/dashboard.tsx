// The dashboard (spec §2): the shell from features/dashboard with each feature's tab, wizards and
// detail views composed here, so features never import each other.
import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { CampaignsTab } from '@/features/campaigns/components/campaigns-tab'
import { CampaignDetailsDialog } from '@/features/campaigns/components/details/campaign-details-dialog'
import { CampaignWizard } from '@/features/campaigns/components/wizard/campaign-wizard'
import { DashboardShell } from '@/features/dashboard/components/dashboard-shell'
import {
  type DashboardTab,
  DEFAULT_TAB,
  isDashboardTab,
} from '@/features/dashboard/components/dashboard-tabs'
import { LeadsTab } from '@/features/leads/components/leads-tab'
import { NotificationsMenu } from '@/features/notifications/components/notifications-menu'
import { ScrapingDetailsDialog } from '@/features/scraping/components/details/scraping-details-dialog'
import { ScrapingTab } from '@/features/scraping/components/scraping-tab'
import { ScrapingWizard } from '@/features/scraping/components/wizard/scraping-wizard'
import { AccountsTab } from '@/features/social-accounts/components/accounts-tab'
import { AddAccountWizard } from '@/features/social-accounts/components/wizard/add-account-wizard'
import { ExportProvider } from '@/lib/export-registry'
import { createQueryClient } from '@/lib/query-client'

type Modal =
  | { kind: 'campaign-wizard'; sourceId?: string }
  | { kind: 'scraping-wizard' }
  | { kind: 'account-wizard' }
  | { kind: 'campaign'; id: string }
  | { kind: 'scraping'; id: string }
  | null

function Dashboard() {
  const [params, setParams] = useSearchParams()
  const requested = params.get('tab')
  const tab: DashboardTab = isDashboardTab(requested) ? requested : DEFAULT_TAB
  const [modal, setModal] = useState<Modal>(null)
  const close = () => setModal(null)

  const setTab = (next: DashboardTab) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current)
        if (next === DEFAULT_TAB) copy.delete('tab')
        else copy.set('tab', next)
        return copy
      },
      { replace: true },
    )

  return (
    <>
      <DashboardShell
        tab={tab}
        onTabChange={setTab}
        onNewCampaign={() => setModal({ kind: 'campaign-wizard' })}
        headerExtra={<NotificationsMenu />}
      >
        {tab === 'campaigns' && (
          <CampaignsTab
            onCreate={() => setModal({ kind: 'campaign-wizard' })}
            onOpen={(id) => setModal({ kind: 'campaign', id })}
          />
        )}
        {tab === 'leads' && (
          <LeadsTab
            onViewCampaigns={() => setTab('campaigns')}
            onOpenCampaign={(lead) =>
              setModal({ kind: lead.source === 'campaign' ? 'campaign' : 'scraping', id: lead.campaign_id })
            }
          />
        )}
        {tab === 'social-accounts' && <AccountsTab onAdd={() => setModal({ kind: 'account-wizard' })} />}
        {tab === 'lead-scraping' && (
          <ScrapingTab
            onCreate={() => setModal({ kind: 'scraping-wizard' })}
            onOpen={(id) => setModal({ kind: 'scraping', id })}
          />
        )}
      </DashboardShell>
      {modal?.kind === 'campaign-wizard' && (
        <CampaignWizard onClose={close} initialSourceId={modal.sourceId} />
      )}
      {modal?.kind === 'scraping-wizard' && <ScrapingWizard onClose={close} />}
      {modal?.kind === 'account-wizard' && <AddAccountWizard onClose={close} />}
      {modal?.kind === 'campaign' && <CampaignDetailsDialog campaignId={modal.id} onClose={close} />}
      {modal?.kind === 'scraping' && (
        <ScrapingDetailsDialog
          campaignId={modal.id}
          onClose={close}
          onCreateDmCampaign={(sourceId) => setModal({ kind: 'campaign-wizard', sourceId })}
        />
      )}
    </>
  )
}

export default function DashboardRoute() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <ExportProvider>
        <Dashboard />
      </ExportProvider>
    </QueryClientProvider>
  )
}
