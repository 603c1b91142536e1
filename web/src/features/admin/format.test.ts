import { describe, expect, it } from 'vitest'
import { formatLogStamp, formatPercent, formatUptime, humanize, shortId } from './format'

describe('admin formatting', () => {
  it('writes uptimes with their two largest units', () => {
    expect(formatUptime(0)).toBe('0s')
    expect(formatUptime(45)).toBe('45s')
    expect(formatUptime(250)).toBe('4m 10s')
    expect(formatUptime(7_500)).toBe('2h 5m')
    expect(formatUptime(7_200)).toBe('2h')
    expect(formatUptime(3 * 86_400 + 4 * 3_600 + 59)).toBe('3d 4h')
  })

  it('writes statuses as words and ids as their last 8 characters', () => {
    expect(humanize('past_due')).toBe('Past due')
    expect(humanize('campaign.tick')).toBe('Campaign tick')
    expect(shortId('f0a3c5d2-0000-4000-8000-00000000abcd')).toBe('0000abcd')
    expect(formatPercent(12.345)).toBe('12.3%')
  })

  it("stamps today's log lines with the time and older ones with the day", () => {
    const now = new Date(2026, 10, 22, 15, 0, 0)
    expect(formatLogStamp(new Date(2026, 10, 22, 4, 48, 20).toISOString(), now)).toBe('04:48:20')
    expect(formatLogStamp(new Date(2026, 10, 17, 4, 48, 20).toISOString(), now)).toBe('Nov 17 04:48')
    expect(formatLogStamp(new Date(2026, 10, 2, 23, 5, 0).toISOString(), now)).toBe('Nov 02 23:05')
    expect(formatLogStamp('not a date', now)).toBe('')
  })
})
