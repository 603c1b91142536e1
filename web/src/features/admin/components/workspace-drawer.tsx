// A workspace's details: its plan and whether it sends, accounts against the limit, and each member
// with their role.

import type { AdminWorkspace } from '@reachflow/domain'
import { useCallback } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { getWorkspace } from '../api/get-workspace'
import { formatDate, humanize } from '../format'
import { usePolling } from '../hooks/use-polling'
import { Drawer, DrawerSection, Fact, FactGrid } from './drawer'
import { Pill } from './pill'

function WorkspaceDetailBody({ id }: { id: string }) {
  const load = useCallback(() => getWorkspace(id), [id])
  const { data: workspace, error } = usePolling(load, { intervalMs: null, enabled: false })
  if (error && !workspace) return <p className="text-sm text-red-600">{error.message}</p>
  if (!workspace)
    return (
      <div className="flex justify-center py-12 text-brand-600">
        <Spinner size={32} label="Loading workspace" />
      </div>
    )
  return (
    <>
      <FactGrid>
        <Fact label="Plan">
          {humanize(workspace.planType)}
          {workspace.subscriptionStatus !== 'none' && (
            <>
              {' · '}
              <Pill status={workspace.subscriptionStatus} />
            </>
          )}
        </Fact>
        <Fact label="Sending">{workspace.sends ? 'Sends' : 'Nothing is sent (no active plan)'}</Fact>
        <Fact label="Accounts">
          {workspace.accountsUsed} / {workspace.accountLimit}
        </Fact>
        <Fact label="Kind">{workspace.personal ? 'Personal' : 'Team'}</Fact>
        <Fact label="Stripe customer">{workspace.stripeCustomerId ?? '—'}</Fact>
        <Fact label="Created">{formatDate(workspace.createdAt)}</Fact>
      </FactGrid>

      <DrawerSection title={`Members (${workspace.members.length})`}>
        <ul
          className="divide-y divide-slate-100 rounded-xl border border-slate-200"
          data-testid="workspace-members"
        >
          {workspace.members.map((m) => (
            <li key={m.userId} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900">{m.fullName ?? m.email}</span>
                <span className="block truncate text-xs text-slate-500">
                  {m.email} · joined {formatDate(m.joinedAt)}
                </span>
              </span>
              <Pill status="queued" label={humanize(m.role)} />
            </li>
          ))}
        </ul>
      </DrawerSection>
    </>
  )
}

export function WorkspaceDrawer({
  workspace,
  onClose,
}: {
  workspace: AdminWorkspace | null
  onClose: () => void
}) {
  return (
    <Drawer
      open={workspace !== null}
      onClose={onClose}
      title={workspace?.name}
      description="Workspace details"
    >
      {workspace && <WorkspaceDetailBody id={workspace.id} />}
    </Drawer>
  )
}
