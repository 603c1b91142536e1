// Platform health: what X and Instagram are doing to the fleet. Per platform its state, what a
// site change paused (Resume by hand), the canary's last run and thirty days of runs; the site
// changes with their page outlines; and, for the platform chosen below, the canary's accounts and
// settings and the facts pack editor. Refreshes every 10 s.

import type { PackPlatform, PlatformPause } from '@reachflow/domain'
import { useCallback, useState } from 'react'
import { SegmentedControl } from '@/components/ui/segmented-control'
import { getPlatformHealth } from '../api/get-platform-health'
import { resumePlatformAction } from '../api/resume-platform-action'
import { runCanary } from '../api/run-canary'
import { useAdminAction } from '../hooks/use-admin-action'
import { usePolling } from '../hooks/use-polling'
import { CanaryAccountsCard } from './canary-accounts-card'
import { IncidentsCard } from './incidents-card'
import { PackEditor } from './pack-editor'
import { PlatformCard } from './platform-card'
import { POLL_MS, type TabProps } from './tab-props'

const PLATFORMS = [
  { value: 'twitter', label: 'X' },
  { value: 'instagram', label: 'Instagram' },
] as const

export function PlatformHealthTab({ autoRefresh, refreshKey }: TabProps) {
  const load = useCallback(() => getPlatformHealth(), [])
  const { data, loading, refresh } = usePolling(load, {
    intervalMs: POLL_MS.platformHealth,
    enabled: autoRefresh,
    refreshKey,
  })
  const { run, isBusy } = useAdminAction()
  const [platform, setPlatform] = useState<PackPlatform>('twitter')

  const resume = async (pause: PlatformPause) => {
    await run(
      `resume:${pause.platform}:${pause.action}`,
      () => resumePlatformAction(pause.platform, pause.action),
      `${pause.actionLabel} on ${pause.label} resumed`,
    )
    void refresh()
  }
  const canary = async (which: PackPlatform, label: string) => {
    await run(`canary:${which}`, () => runCanary(which), `The ${label} canary is queued`)
    void refresh()
  }

  return (
    <div className="space-y-8">
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        {(data?.platforms ?? []).map((health) => (
          <PlatformCard
            key={health.platform}
            health={health}
            busy={isBusy}
            onResume={(pause) => void resume(pause)}
            onRunCanary={() => void canary(health.platform, health.label)}
          />
        ))}
      </div>

      <IncidentsCard incidents={data?.incidents ?? null} loading={loading} />

      <section aria-labelledby="configure-heading" className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h3 id="configure-heading" className="text-base font-semibold text-slate-900">
              Canary and platform pack
            </h3>
            <p className="text-sm text-slate-500">
              When a platform changes: fix its pack, try it on the canary, publish it. No deploy needed.
            </p>
          </div>
          <SegmentedControl label="Platform" options={PLATFORMS} value={platform} onChange={setPlatform} />
        </div>
        <div className="grid gap-6 xl:grid-cols-2 [&>*]:min-w-0">
          <CanaryAccountsCard
            key={`canary:${platform}`}
            platform={platform}
            onChanged={() => void refresh()}
          />
          <PackEditor key={`pack:${platform}`} platform={platform} onChanged={() => void refresh()} />
        </div>
      </section>
    </div>
  )
}
