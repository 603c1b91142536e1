import { describe, expect, it } from 'vitest'
import { relativeTime } from './relative-time'

const now = new Date('2025-06-01T12:00:00Z')
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000)

describe('relativeTime (product.md §9)', () => {
  it("says 'Just now' under 60 seconds", () => {
    expect(relativeTime(ago(0), now)).toBe('Just now')
    expect(relativeTime(ago(59), now)).toBe('Just now')
  })

  it('counts minutes, then hours, then days', () => {
    expect(relativeTime(ago(60), now)).toBe('1 minute ago')
    expect(relativeTime(ago(59 * 60 + 59), now)).toBe('59 minutes ago')
    expect(relativeTime(ago(3600), now)).toBe('1 hour ago')
    expect(relativeTime(ago(23 * 3600 + 3599), now)).toBe('23 hours ago')
    expect(relativeTime(ago(86400), now)).toBe('1 day ago')
    expect(relativeTime(ago(45 * 86400), now)).toBe('45 days ago')
  })

  it('accepts ISO strings and treats a future time as now', () => {
    expect(relativeTime('2025-06-01T11:30:00Z', now)).toBe('30 minutes ago')
    expect(relativeTime(new Date(now.getTime() + 5000), now)).toBe('Just now')
  })

  it('returns an empty string for an invalid date', () => {
    expect(relativeTime('not a date', now)).toBe('')
  })
})
