// Workspaces: name, owner, members with their roles, plan and status, accounts used against the
// plan's limit, created, View Details (the members).

import type { AdminWorkspace } from '@reachflow/domain'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { getWorkspaces } from '../api/get-workspaces'
import { formatDate, humanize } from '../format'
import { usePolling } from '../hooks/use-polling'
import { type Column, DataTable } from './data-table'
import { Pill } from './pill'
import { matches, SearchBox } from './search-box'
import type { TabProps } from './tab-props'
import { WorkspaceDrawer } from './workspace-drawer'
import { describeRoles } from './workspace-roles'

export function WorkspacesTab({ refreshKey }: TabProps) {
  const load = useCallback(() => getWorkspaces(), [])
  const { data, loading } = usePolling(load, { intervalMs: null, enabled: false, refreshKey })
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<AdminWorkspace | null>(null)
  const columns: Column<AdminWorkspace>[] = [
    {
      key: 'name',
      header: 'Workspace',
      primary: true,
      cell: (w) => <span className="font-medium text-slate-900">{w.name}</span>,
    },
    {
      key: 'owner',
      header: 'Owner',
      wide: true,
      cell: (w) => <span className="break-all">{w.owner_email ?? '—'}</span>,
    },
    {
      key: 'members',
      header: 'Members',
      wide: true,
      cell: (w) => (
        <span>
          <span className="font-medium text-slate-900 tabular-nums">{w.member_count}</span>
          <span className="ml-1.5 text-xs text-slate-500">{describeRoles(w.roles)}</span>
        </span>
      ),
    },
    {
      key: 'plan',
      header: 'Plan',
      cell: (w) => (
        <span className="inline-flex items-center gap-1.5">
          {humanize(w.plan_type)}
          {w.subscription_status !== 'none' && <Pill status={w.subscription_status} />}
        </span>
      ),
    },
    {
      key: 'accounts',
      header: 'Accounts',
      numeric: true,
      cell: (w) => `${w.accounts_used} / ${w.account_limit}`,
    },
    { key: 'created', header: 'Created', cell: (w) => formatDate(w.created_at) },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (w) => (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setSelected(w)}
          aria-label={`View details of ${w.name}`}
        >
          View Details
        </Button>
      ),
    },
  ]
  return (
    <div className="space-y-4">
      <SearchBox value={query} onChange={setQuery} placeholder="Search workspaces..." />
      <DataTable
        testId="workspaces-table"
        label="Workspaces"
        columns={columns}
        rows={matches(data, query, (w) => [w.name, w.owner_email ?? '', w.plan_type, w.subscription_status])}
        rowKey={(w) => w.id}
        loading={loading}
        empty={query ? 'No workspaces match your search' : 'No workspaces yet'}
      />
      <WorkspaceDrawer workspace={selected} onClose={() => setSelected(null)} />
    </div>
  )
}
