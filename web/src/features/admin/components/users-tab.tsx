// Users: e-mail, subscription status, account and campaign counts, status, View Details.

import type { AdminUser } from '@reachflow/domain'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { getUsers } from '../api/get-users'
import { usePolling } from '../hooks/use-polling'
import { type Column, DataTable } from './data-table'
import { Pill } from './pill'
import { matches, SearchBox } from './search-box'
import type { TabProps } from './tab-props'
import { UserDrawer } from './user-drawer'

export function UsersTab({ refreshKey }: TabProps) {
  const load = useCallback(() => getUsers(), [])
  const { data, loading } = usePolling(load, { intervalMs: null, enabled: false, refreshKey })
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<AdminUser | null>(null)
  const columns: Column<AdminUser>[] = [
    {
      key: 'email',
      header: 'Email',
      primary: true,
      cell: (u) => <span className="font-medium text-slate-900">{u.email}</span>,
    },
    { key: 'subscription', header: 'Subscription', cell: (u) => <Pill status={u.subscription_status} /> },
    { key: 'accounts', header: 'Accounts', numeric: true, cell: (u) => u.account_count },
    { key: 'campaigns', header: 'Campaigns', numeric: true, cell: (u) => u.campaign_count },
    { key: 'status', header: 'Status', cell: (u) => <Pill status={u.status} /> },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (u) => (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setSelected(u)}
          aria-label={`View details of ${u.email}`}
        >
          View Details
        </Button>
      ),
    },
  ]
  return (
    <div className="space-y-4">
      <SearchBox value={query} onChange={setQuery} placeholder="Search users..." />
      <DataTable
        testId="users-table"
        label="Users"
        columns={columns}
        rows={matches(data, query, (u) => [u.email, u.subscription_status, u.status])}
        rowKey={(u) => u.id}
        loading={loading}
        empty={query ? 'No users match your search' : 'No users yet'}
      />
      <UserDrawer user={selected} onClose={() => setSelected(null)} />
    </div>
  )
}
