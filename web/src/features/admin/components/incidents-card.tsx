// Site changes the fleet met: where (platform, action, step, path), how often, since when, and
// whether they are resolved (by the canary or an operator). View opens the page's outline.
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { relativeTime } from '@/lib/relative-time'
import type { Incident } from '../api/platform-types'
import { formatDateTime } from '../format'
import { type Column, DataTable } from './data-table'
import { IncidentDrawer } from './incident-drawer'
import { Pill } from './pill'
import { ACTION_LABELS } from './platform-labels'

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
        i.status === 'open' ? (
          <Pill status="error" label={i.autoResume ? 'Open' : 'Open: came back'} />
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
          Pages that were not what the adapters expect. Each paused its action on every account.
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
