// The overview's alarm when a platform changed under the fleet: what is paused on every account,
// since when and at which step, and the way to Platform health where it is fixed. Nothing shows
// while the platforms look as their packs describe them, nor for a suspicion (one account met an
// odd page, only it waits): Platform health lists those.

import type { PlatformAlerts } from '@reachflow/domain'
import { AlertOctagon, ArrowRight } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { formatDateTime } from '../format'

export function PlatformAlert({ alerts }: { alerts: PlatformAlerts }) {
  const incidents = alerts.incidents.filter((i) => i.pausedAt !== null)
  if (alerts.pauses.length === 0 && incidents.length === 0) return null
  const stepOf = (incidentId: string | null) => incidents.find((i) => i.id === incidentId)
  return (
    <section
      role="alert"
      aria-labelledby="platform-alert-title"
      data-testid="platform-alert"
      className="rounded-2xl bg-red-50 p-5 ring-1 ring-red-200 ring-inset"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-100 text-red-700">
            <AlertOctagon className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 id="platform-alert-title" className="font-semibold text-red-900">
              {alerts.pauses.length > 0
                ? 'A platform changed: work is paused on every account'
                : 'Site changes need a look'}
            </h2>
            <ul className="mt-2 space-y-1 text-sm text-red-900">
              {alerts.pauses.map((pause) => {
                const incident = stepOf(pause.incidentId)
                return (
                  <li key={`${pause.platform}:${pause.action}`}>
                    <span className="font-semibold">{pause.label}</span>: {pause.actionLabel.toLowerCase()}{' '}
                    paused since {formatDateTime(pause.pausedAt)}
                    {incident && (
                      <>
                        {' '}
                        at <span className="font-mono">{incident.step}</span> ({incident.sightings}{' '}
                        {incident.sightings === 1 ? 'sighting' : 'sightings'})
                      </>
                    )}
                  </li>
                )
              })}
              {alerts.pauses.length === 0 && (
                <li>
                  {incidents.length} open {incidents.length === 1 ? 'site change' : 'site changes'}
                </li>
              )}
            </ul>
            <p className="mt-2 text-xs text-red-800">
              Affected customers see a notice. It resumes when the canary passes again.
            </p>
          </div>
        </div>
        <Link to="/admin?tab=platform-health" className={buttonClasses('danger', 'md', 'shrink-0')}>
          Platform health
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
    </section>
  )
}
