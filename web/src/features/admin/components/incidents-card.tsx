// Site changes the fleet met: where (platform, action, step, path), how often, since when, what
// paused them (the accounts or canary that met the same step) or that they are only suspected, and
// whether they are resolved (by the canary or an operator). View opens the evidence and the outline.

import type { Incident } from '@reachflow/domain'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { relativeTime } from '@/lib/relative-time'
import { formatDateTime } from '../format'
import { type Column, DataTable } from './data-table'
import { IncidentDrawer } from './incident-drawer'
import { Pill } from './pill'
import { ACTION_LABELS } from './platform-labels'
import { evidenceSummary } from './site-change-evidence'

export function IncidentsCard({ incidents, loading }: { incidents: Incident[] | null; loading: boolean }) {
  const [open, setOpen] = useState<string | null>(null)
  const columns: Column<Incident>[] = [
    {
      key: 'where',
      header: 'Site change',
      primary: true,
      cell: (i) => (
        <span className="font-medium text-slate-900">
          {i.label} · {ACTION_LABELS[i.action]} · <span className="font-mono text-sm">{i.step}</span>
        </span>
      ),
    },
    {
      key: 'path',
      header: 'Path',
      cell: (i) => <span className="font-mono text-xs break-all">{i.path || '—'}</span>,
    },
    {
      key: 'evidence',
      header: 'Evidence',
      cell: (i) => <span className="text-sm text-slate-700">{evidenceSummary(i)}</span>,
    },
    { key: 'sightings', header: 'Sightings', numeric: true, cell: (i) => i.sightings },
    {
      key: 'first',
      header: 'First seen',
      cell: (i) => <time dateTime={i.firstSeenAt}>{formatDateTime(i.firstSeenAt)}</time>,
    },
    {
      key: 'last',
      header: 'Last seen',
      cell: (i) => (
        <time dateTime={i.lastSeenAt} title={formatDateTime(i.lastSeenAt)}>
          {relativeTime(i.lastSeenAt)}
        </time>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (i) =>
        i.status === 'open' && !i.pausedAt ? (
          <Pill status="warning" label="Suspected" />
        ) : i.status === 'open' ? (
          <Pill status="error" label={i.autoResume ? 'Paused' : 'Paused: came back'} />
        ) : (
          <Pill
            status="completed"
            label={i.resolution === 'canary' ? 'Resolved by canary' : 'Resolved by operator'}
          />
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (i) => (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setOpen(i.id)}
          aria-label={`View the ${i.label} site change at ${i.step}`}
        >
          View
        </Button>
      ),
    },
  ]
  return (
    <section aria-labelledby="incidents-heading" className="space-y-3">
      <div>
        <h3 id="incidents-heading" className="text-base font-semibold text-slate-900">
          Site changes
        </h3>
        <p className="text-sm text-slate-500">
          Pages that were not what the adapters expect. An action pauses on every account once a second
          account or the canary meets the same step within 30 minutes; until then only the account that met it
          waits.
        </p>
      </div>
      <DataTable
        testId="incidents-table"
        label="Site changes"
        columns={columns}
        rows={incidents}
        rowKey={(i) => i.id}
        loading={loading}
        empty="No site changes: X and Instagram look as the packs describe them."
      />
      <IncidentDrawer id={open} onClose={() => setOpen(null)} />
    </section>
  )
}
