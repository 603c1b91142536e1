import { afterEach, describe, expect, it } from 'vitest'
import { createAnalytics } from './analytics'

afterEach(() => {
  delete window.gtag
  delete window.fbq
  delete window.dataLayer
  for (const script of document.head.querySelectorAll('script')) script.remove()
})

describe('analytics module', () => {
  it('does nothing at all when no ids are configured', () => {
    const analytics = createAnalytics({})
    analytics.track('start_free_trial_click', { placement: 'hero' })
    analytics.initPixel()
    analytics.pixel('StartTrial')
    expect(analytics.enabled).toBe(false)
    expect(window.gtag).toBeUndefined()
    expect(window.fbq).toBeUndefined()
    expect(document.head.querySelectorAll('script')).toHaveLength(0)
  })

  it('with a measurement id, loads the tag once and queues events', () => {
    const analytics = createAnalytics({ gaMeasurementId: 'G-TEST' })
    analytics.track('login_attempt', { method: 'email' })
    analytics.track('purchase', { value: 98, currency: 'USD' })
    expect(document.head.querySelectorAll('script[src*="googletagmanager"]')).toHaveLength(1)
    expect(window.dataLayer).toContainEqual(['event', 'login_attempt', { method: 'email' }])
    expect(window.dataLayer).toContainEqual(['event', 'purchase', { value: 98, currency: 'USD' }])
  })

  it('with a pixel id, initialises once with a PageView and tracks events', () => {
    const analytics = createAnalytics({ metaPixelId: '123' })
    analytics.initPixel()
    analytics.initPixel()
    analytics.pixel('StartTrial', { value: 0 })
    expect(window.fbq?.queue).toEqual([
      ['init', '123'],
      ['track', 'PageView'],
      ['track', 'StartTrial', { value: 0 }],
    ])
  })
})
