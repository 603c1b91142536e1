// Sign-in rate limits, per client IP (every sign-in and sign-up attempt) and per e-mail (failed
// password attempts, so a brute force on one account stops while its owner can still sign in).
// Limits come from the environment so the test instance can use numbers a test can reach quickly.
import type { IncomingMessage } from 'node:http'

export interface RateLimitSettings {
  perIp: number
  perEmail: number
  windowSeconds: number
}

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name])
    return Number.isInteger(value) && value > 0 ? value : fallback
  }
  return {
    perIp: number('AUTH_SIGN_IN_LIMIT_PER_IP', 30),
    perEmail: number('AUTH_SIGN_IN_LIMIT_PER_EMAIL', 10),
    windowSeconds: number('AUTH_SIGN_IN_LIMIT_WINDOW_SECONDS', 300),
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

  isOver(key: string, now = Date.now()): boolean {
    return (this.hits.get(key) ?? []).filter((time) => now - time < this.windowMs).length >= this.limit
  }

  private prune(now: number): void {
    for (const [key, times] of this.hits) {
      if (times.every((time) => now - time >= this.windowMs)) this.hits.delete(key)
    }
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * The client's IP. The gateway only listens on loopback, where a proxy in front of it (or a test
 * standing in for many clients) may name the real client in X-Forwarded-For; browsers cannot set
 * that header, so a page cannot dodge its own limit.
 */
export function clientIp(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? ''
  const forwarded = req.headers['x-forwarded-for']
  if (LOOPBACK.has(peer) && typeof forwarded === 'string') {
    const first = forwarded.split(',')[0]?.trim()
    if (first) return first.slice(0, 64)
  }
  return peer
}
