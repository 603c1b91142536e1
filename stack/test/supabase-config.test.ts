// supabase/config.toml's [auth.email] as the local gateway reads it: GoTrue's normalisation
// (internal/conf/configuration.go: otp_length outside 6–10 → 6, otp_expiry 0 → one day, max_frequency
// a Go duration defaulting to a minute), and the values this project deploys.
import { describe, expect, it } from 'vitest'
import { authEmailConfig, goDurationSeconds, tomlValue } from '../src/supabase-config.ts'

describe('supabase/config.toml [auth.email]', () => {
  it('reads scalars of one section only, without quotes or comments', () => {
    const text =
      '[auth]\notp_length = 4\n[auth.email]\n# a comment\notp_length = 8 # digits\nmax_frequency = "1m0s"\n[auth.sms]\notp_length = 6\n'
    expect(tomlValue(text, 'auth.email', 'otp_length')).toBe('8')
    expect(tomlValue(text, 'auth.email', 'max_frequency')).toBe('1m0s')
    expect(tomlValue(text, 'auth.email', 'otp_expiry')).toBeUndefined()
  })

  it('reads Go durations as the CLI writes them', () => {
    expect(goDurationSeconds('60s')).toBe(60)
    expect(goDurationSeconds('1m0s')).toBe(60)
    expect(goDurationSeconds('1h30m')).toBe(5400)
    expect(goDurationSeconds('1500ms')).toBe(1.5)
    expect(goDurationSeconds('soon')).toBeUndefined()
  })

  it("applies GoTrue's defaults and bounds", () => {
    expect(authEmailConfig('[auth.email]\notp_length = 12\notp_expiry = 0\n')).toEqual({
      otpLength: 6,
      otpExpirySeconds: 86_400,
      resendSeconds: 60,
    })
    expect(authEmailConfig('[auth.email]\notp_length = 9\notp_expiry = 600\nmax_frequency = "2m"\n')).toEqual(
      {
        otpLength: 9,
        otpExpirySeconds: 600,
        resendSeconds: 120,
      },
    )
  })

  it('deploys ten-digit codes that live fifteen minutes, one mail a minute per address', () => {
    expect(authEmailConfig()).toEqual({ otpLength: 10, otpExpirySeconds: 900, resendSeconds: 60 })
  })
})
