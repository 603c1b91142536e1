import { describe, expect, it } from 'vitest'
import { COUNTDOWN_START_SECONDS, formatCountdown, nextCountdown } from './hooks/use-countdown'
import { nextSpots } from './hooks/use-spots-left'
import { spotsReadings, startTrialTarget } from './variants'

describe('Start Free Trial targets (product.md §2)', () => {
  it('general page: dashboard when signed in, sign-up in checkout mode when not', () => {
    expect(startTrialTarget('general', true)).toBe('/dashboard')
    expect(startTrialTarget('general', false)).toBe('/login?checkout=true')
  })

  it('ads variants carry their source', () => {
    expect(startTrialTarget('fb-offer', true)).toBe('/dashboard?source=fb-offer')
    expect(startTrialTarget('fb-offer', false)).toBe('/login?checkout=true&source=fb-offer')
    expect(startTrialTarget('google-ads', true)).toBe('/dashboard?source=google-ads')
    expect(startTrialTarget('google-ads', false)).toBe('/login?checkout=true&source=google-ads')
  })
})

describe('countdown (product.md §9)', () => {
  it('starts at 23:59:59, ticks down and wraps back to 23:59:59', () => {
    expect(formatCountdown(COUNTDOWN_START_SECONDS)).toBe('23:59:59')
    expect(formatCountdown(nextCountdown(COUNTDOWN_START_SECONDS))).toBe('23:59:58')
    expect(formatCountdown(nextCountdown(1))).toBe('00:00:00')
    expect(formatCountdown(nextCountdown(0))).toBe('23:59:59')
    expect(formatCountdown(3661)).toBe('01:01:01')
  })
})

describe('spots-left counter (product.md §9)', () => {
  it('goes down by one while above its minimum, then stays', () => {
    expect(nextSpots(12, 5)).toBe(11)
    expect(nextSpots(6, 5)).toBe(5)
    expect(nextSpots(5, 5)).toBe(5)
  })

  it('uses the two readings: 12 every 60 s down to 5, and 7 every 45 s down to 3', () => {
    expect(spotsReadings.bundle).toEqual({ start: 12, everyMs: 60_000, minimum: 5 })
    expect(spotsReadings.adsOffer).toEqual({ start: 7, everyMs: 45_000, minimum: 3 })
  })
})
