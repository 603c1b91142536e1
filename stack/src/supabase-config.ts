// The supabase/config.toml settings the local stack honours as hosted Supabase Auth does, so what the
// tests prove about recovery codes holds for the values `supabase config push` sends to production.
// A line reader for plain `key = value` scalars in a `[section]`, which is all these settings are.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from './config.ts'

export const configTomlPath = join(repoRoot, 'supabase', 'config.toml')

/** The raw value of `key` in `[section]` (quotes removed), or undefined when absent. */
export function tomlValue(text: string, section: string, key: string): string | undefined {
  let current = ''
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line)
    if (header) {
      current = (header[1] ?? '').trim()
      continue
    }
    if (current !== section) continue
    const setting = /^\s*([A-Za-z0-9_]+)\s*=\s*(.*?)\s*(#.*)?$/.exec(line)
    if (setting?.[1] === key) return (setting[2] ?? '').replace(/^"(.*)"$/, '$1')
  }
  return undefined
}

/** A Go duration such as "60s", "1m0s" or "1h30m" (how the CLI writes max_frequency) in seconds. */
export function goDurationSeconds(value: string): number | undefined {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) return undefined
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 }
  return parts.reduce((sum, [, amount, u]) => sum + Number(amount) * (unit[u ?? 's'] ?? 1), 0)
}

export interface AuthEmailConfig {
  /** Digits in an e-mailed code ([auth.email] otp_length). */
  otpLength: number
  /** How long a mailed code and its link stay valid ([auth.email] otp_expiry). */
  otpExpirySeconds: number
  /** Least time between two recovery mails to one address ([auth.email] max_frequency). */
  resendSeconds: number
}

/**
 * [auth.email] as GoTrue applies it (internal/conf/configuration.go): an otp_length outside 6–10
 * becomes 6, an otp_expiry of 0 becomes a day; max_frequency is a Go duration (60s by default).
 */
export function authEmailConfig(text = readFileSync(configTomlPath, 'utf8')): AuthEmailConfig {
  const number = (key: string) => {
    const raw = tomlValue(text, 'auth.email', key)
    return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined
  }
  const length = number('otp_length')
  const expiry = number('otp_expiry')
  const frequency = tomlValue(text, 'auth.email', 'max_frequency')
  return {
    otpLength: length !== undefined && length >= 6 && length <= 10 ? length : 6,
    otpExpirySeconds: expiry ? expiry : 86_400,
    resendSeconds: (frequency !== undefined ? goDurationSeconds(frequency) : undefined) ?? 60,
  }
}
