import { describe, expect, it } from 'vitest'
import { guardView, showsSetup, withoutPaymentSuccess } from './guard-logic'

const signedIn = { authLoading: false, signedIn: true, profileLoading: false }

describe('route guard (product.md §4)', () => {
  it('waits while the auth lookup runs', () => {
    expect(guardView({ authLoading: true, signedIn: false, profileLoading: true, profile: null })).toBe(
      'loading',
    )
  })

  it('sends a visitor without a user to /login', () => {
    expect(guardView({ authLoading: false, signedIn: false, profileLoading: true, profile: null })).toBe(
      'login',
    )
  })

  it('waits for the profile once signed in', () => {
    expect(guardView({ ...signedIn, profileLoading: true, profile: null })).toBe('loading')
  })

  it('shows the onboarding wizard while onboarding_completed is false', () => {
    expect(guardView({ ...signedIn, profile: { onboarding_completed: false, post_onboarding: false } })).toBe(
      'onboarding',
    )
  })

  it('shows the page with the setup modal when onboarding is done and post_onboarding is false', () => {
    expect(guardView({ ...signedIn, profile: { onboarding_completed: true, post_onboarding: false } })).toBe(
      'page-with-setup',
    )
  })

  it('shows the page when both flags are set, and when the profile is missing', () => {
    expect(guardView({ ...signedIn, profile: { onboarding_completed: true, post_onboarding: true } })).toBe(
      'page',
    )
    expect(guardView({ ...signedIn, profile: null })).toBe('page')
  })
})

describe('the setup modal by role', () => {
  it('asks only a role that may connect an account, once the role is known', () => {
    const editor = { loading: false, editWorkspace: true }
    expect(showsSetup('page-with-setup', editor)).toBe(true)
    expect(showsSetup('page-with-setup', { loading: false, editWorkspace: false })).toBe(false)
    expect(showsSetup('page-with-setup', { loading: true, editWorkspace: false })).toBe(false)
    expect(showsSetup('page', editor)).toBe(false)
  })
})

describe('payment=success in the address', () => {
  it('is removed, keeping the other parameters and the hash', () => {
    expect(withoutPaymentSuccess('http://x.test/dashboard?payment=success&source=fb-offer#tab')).toBe(
      '/dashboard?source=fb-offer#tab',
    )
    expect(withoutPaymentSuccess('http://x.test/billing?payment=success')).toBe('/billing')
  })

  it('leaves other addresses alone', () => {
    expect(withoutPaymentSuccess('http://x.test/dashboard?source=fb-offer')).toBeNull()
    expect(withoutPaymentSuccess('http://x.test/dashboard?payment=cancelled')).toBeNull()
  })
})
