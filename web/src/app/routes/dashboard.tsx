// The dashboard (product.md §2): the shell from features/dashboard with each feature's tab, wizards and
// detail views composed here, so features never import each other. The wizards and detail views
// load when one opens: the first screen does not wait for their forms, schemas and charts.
import type { RoleAbilities } from '@reachflow/domain'
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useCallback, useState } from 'react'
import { useSearchParams } from 'react-router'
import { RoleNotAllowed } from '@/components/ui/role-not-allowed'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { ActivityNavLink } from '@/features/activity/components/activity-nav-link'
import { AutomationsTab } from '@/features/automations/components/automations-tab'
import { NoPlanBanner } from '@/features/billing/components/no-plan-banner'
import { CampaignsTab } from '@/features/campaigns/components/campaigns-tab'
import { DashboardShell } from '@/features/dashboard/components/dashboard-shell'
import {
  DASHBOARD_TABS,
  type DashboardTab,
  DEFAULT_TAB,
  isDashboardTab,
} from '@/features/dashboard/components/dashboard-tabs'
import { InboxBadge } from '@/features/inbox/components/inbox-badge'
import { InboxTab } from '@/features/inbox/components/inbox-tab'
import { LeadsTab } from '@/features/leads/components/leads-tab'
import { NotificationsMenu } from '@/features/notifications/components/notifications-menu'
import { PlatformNotices } from '@/features/platform-notices/components/platform-notices'
import { ScrapingTab } from '@/features/scraping/components/scraping-tab'
import { AccountsTab } from '@/features/social-accounts/components/accounts-tab'
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher'
import { useAccountsChanged } from '@/lib/accounts/accounts-changed'
import { useAuth } from '@/lib/auth-store'
import { ExportProvider } from '@/lib/export-registry'
import { createQueryClient } from '@/lib/query-client'
import { queryRoots } from '@/lib/query-keys'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { seedFirstScreen, startEarlySnapshot } from './dashboard-first-screen'

startEarlySnapshot()

const CampaignWizard = lazy(() =>
  import('@/features/campaigns/components/wizard/campaign-wizard').then((m) => ({
    default: m.CampaignWizard,
  })),
)
const CampaignDetailsDialog = lazy(() =>
  import('@/features/campaigns/components/details/campaign-details-dialog').then((m) => ({
    default: m.CampaignDetailsDialog,
  })),
)
const ScrapingWizard = lazy(() =>
  import('@/features/scraping/components/wizard/scraping-wizard').then((m) => ({
    default: m.ScrapingWizard,
  })),
)
const ScrapingDetailsDialog = lazy(() =>
  import('@/features/scraping/components/details/scraping-details-dialog').then((m) => ({
    default: m.ScrapingDetailsDialog,
  })),
)
const AddAccountWizard = lazy(() =>
  import('@/features/social-accounts/components/wizard/add-account-wizard').then((m) => ({
    default: m.AddAccountWizard,
  })),
)

type Modal =
  | { kind: 'campaign-wizard'; sourceId?: string }
  | { kind: 'scraping-wizard' }
  | { kind: 'account-wizard' }
  | { kind: 'campaign'; id: string }
  | { kind: 'scraping'; id: string }
  | null

/** The tabs a role opens: an agent only the inbox, a viewer everything but it (the role matrix). */
function tabsFor(can: RoleAbilities): readonly DashboardTab[] {
  return DASHBOARD_TABS.filter((id) => (id === 'inbox' ? can.inbox : can.readWorkspace))
}

function Dashboard() {
  const [params, setParams] = useSearchParams()
  const { can, loading: roleLoading } = useWorkspaceRole()
  const tabs = roleLoading ? DASHBOARD_TABS : tabsFor(can)
  const home: DashboardTab = tabs.includes(DEFAULT_TAB) ? DEFAULT_TAB : (tabs[0] ?? DEFAULT_TAB)
  const requested = params.get('tab')
  const tab: DashboardTab = isDashboardTab(requested) ? requested : home
  const [modal, setModal] = useState<Modal>(null)
  const close = () => setModal(null)

  const toast = useToast()
  const queryClient = useQueryClient()
  // An account connected in the setup modal (outside this cache) shows in counts and lists at once.
  const refreshAccounts = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: [queryRoots.accounts] })
    void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
  }, [queryClient])
  useAccountsChanged(refreshAccounts)
  const setTab = (next: DashboardTab, threadId: string | null = null) => {
    // Errors about the tab being left are stale on the next one.
    if (next !== tab) toast.dismissType('error')
    setParams(
      (current) => {
        const copy = new URLSearchParams(current)
        if (next === home) copy.delete('tab')
        else copy.set('tab', next)
        if (threadId) copy.set('thread', threadId)
        else copy.delete('thread')
        return copy
      },
      { replace: true },
    )
  }

  return (
    <>
      <DashboardShell
        tab={tab}
        onTabChange={setTab}
        // One "New Campaign" per screen: on the Lead Scraping tab it is the scraping campaign.
        onNewCampaign={() =>
          setModal({ kind: tab === 'lead-scraping' ? 'scraping-wizard' : 'campaign-wizard' })
        }
        headerExtra={
          <>
            <ActivityNavLink />
            <NotificationsMenu onOpenReply={(threadId) => setTab('inbox', threadId)} />
          </>
        }
        headerLeading={<WorkspaceSwitcher />}
        tabs={tabs}
        canCreate={roleLoading || can.editWorkspace}
        showFigures={roleLoading || can.readWorkspace}
        management={{ members: can.manageMembers, billing: roleLoading || can.billing, settings: true }}
        badges={{ inbox: (active) => <InboxBadge active={active} /> }}
        notices={
          <>
            <NoPlanBanner />
            <PlatformNotices />
          </>
        }
      >
        {!tabs.includes(tab) && <RoleNotAllowed backHref={paths.dashboard} backLabel="Back to Dashboard" />}
        {tabs.includes(tab) && tab === 'campaigns' && (
          <CampaignsTab
            onCreate={() => setModal({ kind: 'campaign-wizard' })}
            onOpen={(id) => setModal({ kind: 'campaign', id })}
          />
        )}
        {tabs.includes(tab) && tab === 'inbox' && (
          <InboxTab threadId={params.get('thread')} onOpenThread={(id) => setTab('inbox', id)} />
        )}
        {tabs.includes(tab) && tab === 'automations' && (
          <AutomationsTab onAddAccount={() => setModal({ kind: 'account-wizard' })} />
        )}
        {tabs.includes(tab) && tab === 'leads' && (
          <LeadsTab
            onViewCampaigns={() => setTab('campaigns')}
            onOpenCampaign={(lead) =>
              setModal({ kind: lead.source === 'campaign' ? 'campaign' : 'scraping', id: lead.campaign_id })
            }
          />
        )}
        {tabs.includes(tab) && tab === 'social-accounts' && (
          <AccountsTab onAdd={() => setModal({ kind: 'account-wizard' })} />
        )}
        {tabs.includes(tab) && tab === 'lead-scraping' && (
          <ScrapingTab
            onCreate={() => setModal({ kind: 'scraping-wizard' })}
            onOpen={(id) => setModal({ kind: 'scraping', id })}
          />
        )}
      </DashboardShell>
      <Suspense fallback={null}>
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
      </Suspense>
    </>
  )
}

export default function DashboardRoute() {
  const [queryClient] = useState(() => {
    const client = createQueryClient()
    // The guard renders this page only for a signed-in user.
    seedFirstScreen(client, useAuth.getState().user?.id)
    return client
  })
  return (
    <QueryClientProvider client={queryClient}>
      <ExportProvider>
        <Dashboard />
      </ExportProvider>
    </QueryClientProvider>
  )
}
