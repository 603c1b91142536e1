// One site change in full: the evidence that paused it (each account or canary run that met the
// step, where and when) and the redacted outline of the page as the runner saw it (tags, test ids,
// roles and input types; never text, names or cookies), read from the private bucket.
import { useCallback } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { getIncident } from '../api/get-incident'
import { formatDateTime } from '../format'
import { usePolling } from '../hooks/use-polling'
import { Drawer } from './drawer'
import { ACTION_LABELS } from './platform-labels'
import { evidenceSummary, sightingWho } from './site-change-evidence'

export function IncidentDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const load = useCallback(() => (id ? getIncident(id) : Promise.resolve(null)), [id])
  const { data, error, loading } = usePolling(load, { intervalMs: null, enabled: false })
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={
        data
          ? `${data.label}: ${ACTION_LABELS[data.action].toLowerCase()} ${data.pausedAt ? 'paused' : 'suspected'}`
          : 'Site change'
      }
      description={data ? `At "${data.step}"` : undefined}
    >
      {loading && !data ? (
        <div className="flex justify-center py-12 text-brand-600">
          <Spinner size={32} label="Loading the site change" />
        </div>
      ) : error && !data ? (
        <p className="text-sm text-red-700">{error.message}</p>
      ) : data ? (
        <div className="space-y-5 text-sm">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
            {(
              [
                [
                  'Path',
                  <span key="p" className="font-mono break-all">
                    {data.path || '—'}
                  </span>,
                ],
                ['Sightings', data.sightings],
                ['First seen', formatDateTime(data.firstSeenAt)],
                ['Last seen', formatDateTime(data.lastSeenAt)],
                ['Seen by', data.source === 'canary' ? 'The canary' : 'A job'],
                [
                  'Pack',
                  <span key="v" className="font-mono">
                    {data.packVersion ?? '—'}
                  </span>,
                ],
                [
                  'Status',
                  data.status === 'open' && !data.pausedAt
                    ? 'Suspected: only the account that met it waits; the canary checks'
                    : data.status === 'open'
                      ? data.autoResume
                        ? 'Paused: resumes when the canary passes'
                        : 'Paused: it came back within an hour of the canary resolving it; publish a fix or resume by hand'
                      : `Resolved ${formatDateTime(data.resolvedAt)} by ${data.resolution === 'canary' ? 'the canary' : 'an operator'}`,
                ],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-xs font-medium text-slate-500">{label}</dt>
                <dd className="mt-0.5 text-slate-800">{value}</dd>
              </div>
            ))}
          </dl>
          <section aria-labelledby="evidence-heading" data-testid="incident-evidence">
            <h3 id="evidence-heading" className="font-semibold text-slate-900">
              Evidence
            </h3>
            <p className="mt-1 text-slate-700">
              {evidenceSummary(data)}
              {data.pausedAt && `; paused ${formatDateTime(data.pausedAt)}`}
            </p>
            {data.evidence && data.evidence.sightings.length > 0 && (
              <ul className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
                {data.evidence.sightings.map((s) => (
                  <li
                    key={`${s.source}:${s.accountId}:${s.seenAt}`}
                    className="flex flex-wrap gap-x-3 gap-y-0.5 px-3 py-2"
                  >
                    <span className="font-medium text-slate-900">
                      {s.source === 'canary' ? 'Canary run' : 'Job'}
                    </span>
                    <span className="text-slate-700">{sightingWho(s)}</span>
                    <span className="font-mono text-xs break-all text-slate-600">{s.path || '—'}</span>
                    <time className="text-slate-500" dateTime={s.seenAt}>
                      {formatDateTime(s.seenAt)}
                    </time>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="outline-heading">
            <h3 id="outline-heading" className="font-semibold text-slate-900">
              Page outline
            </h3>
            {data.outline ? (
              <>
                <p className="mt-1 text-xs text-slate-500">
                  {data.outline.lines.length} elements at {formatDateTime(data.outline.capturedAt)}
                  {data.outline.truncated && ' (the page had more)'}. Shadow roots are marked #shadow-root.
                </p>
                <pre
                  className="mt-2 max-h-[50vh] overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-5 text-slate-100"
                  data-testid="incident-outline"
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
                  tabIndex={0}
                >
                  {data.outline.lines.join('\n')}
                </pre>
              </>
            ) : (
              <p className="mt-1 text-slate-500">No outline was captured (the page had closed).</p>
            )}
          </section>
        </div>
      ) : null}
    </Drawer>
  )
}
