import { describe, expect, it } from 'vitest'
import { fixFor } from './account-check'
import { proxyDisplay } from './proxy-display'

describe('the fix named for a failed account test', () => {
  it('points at what to change inside Reachflow', () => {
    expect(fixFor('X chat locked (passcode): X Chat passcode required', 'twitter')).toBe(
      'Enter your X Chat passcode in Edit account, then test again.',
    )
    expect(fixFor('X unauthenticated (32): the session is signed out', 'twitter')).toBe(
      'Paste fresh cookies from x.com in Edit account, then test again.',
    )
    expect(fixFor('Proxy 10.0.0.5 points at a private or local address.', 'twitter')).toMatch(
      /proxy in Edit account/,
    )
    expect(fixFor('The password you entered is incorrect.', 'instagram')).toBe(
      'Check the password and 2FA key in Edit account, then test again.',
    )
  })

  it('names "Change details and retry" where the connect dialogs offer it instead of Edit account', () => {
    expect(fixFor('X chat locked (passcode): X Chat passcode required', 'twitter', 'change details')).toBe(
      'Choose “Change details and retry”, enter your X Chat passcode, then connect again.',
    )
    expect(fixFor('The password you entered is incorrect.', 'instagram', 'change details')).toBe(
      'Choose “Change details and retry”, check the password and 2FA key, then connect again.',
    )
  })
})

describe('a proxy shown back to the customer', () => {
  it('never includes its login', () => {
    expect(proxyDisplay('alice:s3cret@proxy.example.com:3128')).toBe('proxy.example.com:3128')
    expect(proxyDisplay('socks5://alice:s3cret@proxy.example.com:1080')).toBe('proxy.example.com:1080')
    expect(proxyDisplay('proxy.example.com:8080:alice:s3cret')).toBe('proxy.example.com:8080')
    expect(proxyDisplay('')).toBeNull()
  })
})
