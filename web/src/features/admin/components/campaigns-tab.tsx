// Campaigns: name, user, status, people contacted / target, responses, started date, Monitor.

import type { AdminCampaign } from '@reachflow/domain'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { getCampaigns } from '../api/get-campaigns'
import { formatDate, formatNumber } from '../format'
import { usePolling } from '../hooks/use-polling'
import { CampaignDrawer } from './campaign-drawer'
import { type Column, DataTable } from './data-table'
import { Pill } from './pill'
import { Progress } from './progress'
import { matches, SearchBox } from './search-box'
import type { TabProps } from './tab-props'

export function CampaignsTab({ autoRefresh, refreshKey }: TabProps) {
  const load = useCallback(() => getCampaigns(), [])
  const { data, loading } = usePolling(load, { intervalMs: null, enabled: false, refreshKey })
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<AdminCampaign | null>(null)
  const columns: Column<AdminCampaign>[] = [
    {
      key: 'name',
      header: 'Name',
      primary: true,
      cell: (c) => <span className="font-medium text-slate-900">{c.name}</span>,
    },
    { key: 'user', header: 'User', cell: (c) => <span className="text-slate-600">{c.user_email}</span> },
    { key: 'status', header: 'Status', cell: (c) => <Pill status={c.status} /> },
    {
      key: 'sent',
      // people, not messages: follow-ups would take messages past the target
      header: 'Contacted / Target',
      cell: (c) => <Progress done={c.contacted} total={c.target_count} />,
    },
    { key: 'responses', header: 'Responses', numeric: true, cell: (c) => formatNumber(c.response_count) },
    { key: 'started', header: 'Started', cell: (c) => formatDate(c.started_at, 'Not started') },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (c) => (
        <Button size="sm" variant="secondary" onClick={() => setSelected(c)} aria-label={`Monitor ${c.name}`}>
          Monitor
        </Button>
      ),
    },
  ]
  return (
    <div className="space-y-4">
      <SearchBox value={query} onChange={setQuery} placeholder="Search campaigns..." />
      <DataTable
        testId="campaigns-table"
        label="Campaigns"
        columns={columns}
        rows={matches(data, query, (c) => [c.name, c.user_email, c.status])}
        rowKey={(c) => c.id}
        loading={loading}
        empty={query ? 'No campaigns match your search' : 'No campaigns yet'}
      />
      <CampaignDrawer campaign={selected} onClose={() => setSelected(null)} autoRefresh={autoRefresh} />
    </div>
  )
}
