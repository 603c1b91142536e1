// Auth abuse limits, as hosted Supabase Auth applies them: sign-in/sign-up attempts per client IP
// ([auth.rate_limit] sign_in_sign_ups), failed passwords per IP+account (a guesser stops, the owner
// signing in from elsewhere does not) and code verifications per IP (token_verifications); beyond
// GoTrue, guesses at e-mailed codes back their sources off during a flood (guessing.ts). Limits come
// from the environment so the test instance can use numbers a test can reach quickly; code length,
// lifetime and resend interval from supabase/config.toml [auth.email], as hosted reads them.
// Forwarding headers name the client only when the peer is a configured proxy
// (AUTH_TRUSTED_PROXIES, default none), as GoTrue reads its RateLimitHeader only when one is set.
import type { IncomingMessage } from 'node:http'
import { authEmailConfig } from '../../../src/supabase-config.ts'

export interface GuessSettings {
  /** Misses of every form, from everyone, per window, before a flood is declared. */
  globalMisses: number
  windowSeconds: number
  /** Wrong codes for one e-mail within a code's lifetime before its guessers are turned away. */
  missesPerEmail: number
  codeLifetimeSeconds: number
  /** First backoff of a source that misses during a flood; doubles per further miss. */
  backoffSeconds: number
  maxBackoffSeconds: number
}

export interface CodeSettings {
  /** Digits of an e-mailed code. */
  length: number
  /** Lifetime of a code and its link. */
  lifetimeSeconds: number
  /** Least time between two recovery mails to one address. */
  resendSeconds: number
}

export interface RateLimitSettings {
  perIp: number
  perEmail: number
  windowSeconds: number
  /** POST/GET /verify attempts per IP in the window (config.toml token_verifications). */
  verifyPerIp: number
  guesses: GuessSettings
  codes: CodeSettings
  /** Peers whose X-Forwarded-For is believed (exact addresses); empty: none. */
  trustedProxies: ReadonlySet<string>
}

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name])
    return Number.isInteger(value) && value > 0 ? value : fallback
  }
  const email = authEmailConfig()
  const codes: CodeSettings = {
    length: number('AUTH_EMAIL_OTP_LENGTH', email.otpLength),
    lifetimeSeconds: number('AUTH_EMAIL_OTP_EXPIRY_SECONDS', email.otpExpirySeconds),
    resendSeconds: number('AUTH_EMAIL_RESEND_SECONDS', email.resendSeconds),
  }
  const windowSeconds = number('AUTH_SIGN_IN_LIMIT_WINDOW_SECONDS', 300)
  return {
    perIp: number('AUTH_SIGN_IN_LIMIT_PER_IP', 30),
    perEmail: number('AUTH_SIGN_IN_LIMIT_PER_EMAIL', 10),
    windowSeconds,
    verifyPerIp: number('AUTH_VERIFY_LIMIT_PER_IP', 30),
    guesses: {
      globalMisses: number('AUTH_VERIFY_MISSES_GLOBAL', 60),
      windowSeconds: number('AUTH_VERIFY_MISS_WINDOW_SECONDS', 60),
      missesPerEmail: number('AUTH_WRONG_CODES_PER_USER', 5),
      codeLifetimeSeconds: codes.lifetimeSeconds,
      backoffSeconds: number('AUTH_VERIFY_BACKOFF_SECONDS', 2),
      maxBackoffSeconds: number('AUTH_VERIFY_MAX_BACKOFF_SECONDS', 900),
    },
    codes,
    trustedProxies: new Set(
      (env.AUTH_TRUSTED_PROXIES ?? '')
        .split(',')
        .map((address) => address.trim())
        .filter(Boolean),
    ),
  }
}

/** A sliding-window counter per key, kept in memory (one gateway process per instance). */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records a hit; false when the key is already at its limit inside the window. */
  take(key: string, now = Date.now()): boolean {
    const recent = (this.hits.get(key) ?? []).filter((time) => now - time < this.windowMs)
    if (recent.length >= this.limit) {
      this.hits.set(key, recent)
      return false
    }
    recent.push(now)
    this.hits.set(key, recent)
    if (this.hits.size > 10_000) this.prune(now)
    return true
  }

  forget(key: string): void {
    this.hits.delete(key)
  }

  /** Seconds until the key may take another hit (0 when it may now). */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const recent = (this.hits.get(key) ?? []).filter((time) => now - time < this.windowMs)
    if (recent.length < this.limit) return 0
    const oldest = recent[recent.length - this.limit] ?? now
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000))
  }

  isOver(key: string, now = Date.now()): boolean {
    return (this.hits.get(key) ?? []).filter((time) => now - time < this.windowMs).length >= this.limit
  }

  private prune(now: number): void {
    for (const [key, times] of this.hits) {
      if (times.every((time) => now - time >= this.windowMs)) this.hits.delete(key)
    }
  }
}

/**
 * The client's IP: the peer address, unless the peer is a trusted proxy; then the nearest address
 * in X-Forwarded-For that is not itself a trusted proxy (the right-most entries are the ones the
 * trusted proxies appended, the left-most could be anything the client sent).
 */
export function clientIp(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = req.socket.remoteAddress ?? ''
  const forwarded = req.headers['x-forwarded-for']
  if (!trustedProxies.has(peer) || typeof forwarded !== 'string') return peer
  const hops = forwarded
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index] ?? ''
    if (!trustedProxies.has(hop)) return hop.slice(0, 64)
  }
  return peer
}
