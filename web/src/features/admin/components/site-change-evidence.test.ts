import type { SiteChangeSighting } from '@reachflow/domain'
import { describe, expect, it } from 'vitest'
import { evidenceSummary } from './site-change-evidence'

const seen = (source: 'job' | 'canary', username: string | null): SiteChangeSighting => ({
  source,
  accountId: username ? `id-${username}` : null,
  username,
  canaryRunId: source === 'canary' ? 'run-1' : null,
  path: '/i/chat/#-#',
  seenAt: '2026-11-28T09:00:00Z',
})

describe('evidenceSummary', () => {
  it('names the accounts that met the step and the window', () => {
    const evidence = {
      reason: 'accounts' as const,
      windowMinutes: 30,
      sightings: [seen('job', 'anna'), seen('job', 'ben')],
    }
    expect(evidenceSummary({ status: 'open', pausedAt: '2026-11-28T09:10:00Z', evidence })).toBe(
      'Met by @anna and @ben within 30 minutes',
    )
  })
  it('names the canary and an account deleted since', () => {
    const evidence = {
      reason: 'canary' as const,
      windowMinutes: 30,
      sightings: [seen('job', null), seen('canary', 'ops')],
    }
    expect(evidenceSummary({ status: 'open', pausedAt: '2026-11-28T09:10:00Z', evidence })).toBe(
      'Met by a deleted account and the canary (@ops) within 30 minutes',
    )
  })
  it('says a suspicion is one account waiting, and a cleared one never paused', () => {
    expect(evidenceSummary({ status: 'open', pausedAt: null, evidence: null })).toBe(
      'Suspected: one account so far, only it waits while the canary checks',
    )
    expect(evidenceSummary({ status: 'resolved', pausedAt: null, evidence: null })).toBe(
      'Cleared: no second account or canary run met it',
    )
  })
})
