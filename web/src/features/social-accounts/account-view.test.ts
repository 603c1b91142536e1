import { describe, expect, it } from 'vitest'
import { lastSyncLabel } from './account-view'

const now = Date.parse('2026-11-27T10:00:00Z')
const relative = (iso: string) => `at ${iso}`

describe('Last Sync on the account card', () => {
  it('is the last inbox read when there is one', () => {
    expect(
      lastSyncLabel(
        { status: 'active', last_synced_at: '2026-11-27T09:58:00Z', last_tested_at: null },
        relative,
        now,
      ),
    ).toBe('at 2026-11-27T09:58:00Z')
  })

  it('says the first sync is on its way right after a passing test, not "Never"', () => {
    expect(
      lastSyncLabel(
        { status: 'active', last_synced_at: null, last_tested_at: '2026-11-27T09:59:30Z' },
        relative,
        now,
      ),
    ).toBe('Syncing…')
  })

  it('says Never when nothing was read and nothing is on its way', () => {
    for (const account of [
      { status: 'error', last_synced_at: null, last_tested_at: '2026-11-27T09:59:30Z' },
      { status: 'active', last_synced_at: null, last_tested_at: '2026-11-27T09:00:00Z' },
      { status: 'active', last_synced_at: null, last_tested_at: null },
    ])
      expect(lastSyncLabel(account, relative, now)).toBe('Never')
  })
})
