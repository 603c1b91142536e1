// Accounts: username, platform, user, status, warm-up phase, trust score, last login ('Never'), Manage.

import type { AdminAccount } from '@reachflow/domain'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { relativeTime } from '@/lib/relative-time'
import { getAccounts } from '../api/get-accounts'
import { humanize } from '../format'
import { usePolling } from '../hooks/use-polling'
import { TrustScore, warmupLabel } from './account-bits'
import { AccountDrawer } from './account-drawer'
import { type Column, DataTable } from './data-table'
import { Pill } from './pill'
import { matches, SearchBox } from './search-box'
import type { TabProps } from './tab-props'

export function AccountsTab({ refreshKey }: TabProps) {
  const [reloads, setReloads] = useState(0)
  const load = useCallback(() => getAccounts(), [])
  const { data, loading } = usePolling(load, {
    intervalMs: null,
    enabled: false,
    refreshKey: refreshKey + reloads,
  })
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<AdminAccount | null>(null)
  const columns: Column<AdminAccount>[] = [
    {
      key: 'username',
      header: 'Username',
      primary: true,
      cell: (a) => <span className="font-medium text-slate-900">@{a.username}</span>,
    },
    { key: 'platform', header: 'Platform', cell: (a) => humanize(a.platform_name) },
    { key: 'user', header: 'User', cell: (a) => <span className="text-slate-600">{a.user_email}</span> },
    { key: 'status', header: 'Status', cell: (a) => <Pill status={a.status} /> },
    { key: 'warmup', header: 'Warm-up', cell: (a) => warmupLabel(a.warmup_phase) },
    { key: 'trust', header: 'Trust Score', cell: (a) => <TrustScore score={a.trust_score} /> },
    {
      key: 'login',
      header: 'Last Login',
      cell: (a) => (a.last_login ? relativeTime(a.last_login) : 'Never'),
    },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (a) => (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setSelected(a)}
          aria-label={`Manage @${a.username}`}
        >
          Manage
        </Button>
      ),
    },
  ]
  return (
    <div className="space-y-4">
      <SearchBox value={query} onChange={setQuery} placeholder="Search accounts..." />
      <DataTable
        testId="accounts-table"
        label="Social accounts"
        columns={columns}
        rows={matches(data, query, (a) => [a.username, a.user_email, a.platform_name, a.status])}
        rowKey={(a) => a.id}
        loading={loading}
        empty={query ? 'No accounts match your search' : 'No social accounts connected'}
      />
      <AccountDrawer
        account={selected}
        onClose={() => setSelected(null)}
        onChanged={() => setReloads((n) => n + 1)}
      />
    </div>
  )
}
