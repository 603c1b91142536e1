import { describe, expect, it } from 'vitest'
import { checkoutSource, rememberTrafficSource } from './traffic-source'

describe('traffic source (product.md §3, §7)', () => {
  it('is stored in session and local storage by the ads variants', () => {
    rememberTrafficSource('google-ads')
    expect(sessionStorage.getItem('traffic_source')).toBe('google-ads')
    expect(localStorage.getItem('conversion_source')).toBe('google-ads')
  })

  it('checkout reads session traffic source, else local conversion source, else the query, else unknown', () => {
    expect(checkoutSource('')).toBe('unknown')
    expect(checkoutSource('?source=newsletter')).toBe('newsletter')
    localStorage.setItem('conversion_source', 'fb-offer')
    expect(checkoutSource('?source=newsletter')).toBe('fb-offer')
    sessionStorage.setItem('traffic_source', 'google-ads')
    expect(checkoutSource('?source=newsletter')).toBe('google-ads')
  })
})
