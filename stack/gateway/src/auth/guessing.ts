// Guessing e-mailed codes. Every verification form is one guess at the same secret: the e-mail and
// code, the token hash supabase-js sends (sha224 of e-mail and code: anyone can compute it for any
// code), and the link's token (the same hash). A wrong hash names no account, so misses are counted
// globally, and wrong codes also per e-mail. While either count is over its budget (a flood), every
// source that misses is turned away for a while, doubling with each further miss, before its next
// answer is even looked at. A correct answer from anywhere else is checked first and always works:
// a flood slows the guessers down but never locks the owner of the right code or link out.
import { type GuessSettings, SlidingWindow } from './rate-limit.ts'

interface Backoff {
  until: number
  strikes: number
  lastMiss: number
}

export class GuessGuard {
  private readonly misses: SlidingWindow
  private readonly perEmail: SlidingWindow
  private readonly backoffs = new Map<string, Backoff>()

  constructor(private readonly settings: GuessSettings) {
    this.misses = new SlidingWindow(settings.globalMisses, settings.windowSeconds * 1000)
    this.perEmail = new SlidingWindow(settings.missesPerEmail, settings.codeLifetimeSeconds * 1000)
  }

  /** Seconds the source must still wait before a guess of it is looked at; 0 when it may try now. */
  waitSeconds(source: string, now = Date.now()): number {
    const backoff = this.backoffs.get(source)
    return backoff && backoff.until > now ? Math.ceil((backoff.until - now) / 1000) : 0
  }

  /** Records a wrong answer from `source` (about `email` when the form names one). */
  miss(source: string, email: string | undefined, now = Date.now()): void {
    this.misses.take('all', now)
    if (email) this.perEmail.take(email, now)
    const flooded =
      this.misses.isOver('all', now) || (email !== undefined && this.perEmail.isOver(email, now))
    if (!flooded) return
    const previous = this.backoffs.get(source)
    // Strikes are forgotten once a source has been quiet for the longest backoff.
    const strikes =
      previous && now - previous.lastMiss < this.settings.maxBackoffSeconds * 1000 ? previous.strikes + 1 : 1
    const seconds = Math.min(
      this.settings.backoffSeconds * 2 ** (strikes - 1),
      this.settings.maxBackoffSeconds,
    )
    this.backoffs.set(source, { until: now + seconds * 1000, strikes, lastMiss: now })
    if (this.backoffs.size > 50_000) this.prune(now)
  }

  private prune(now: number): void {
    for (const [source, backoff] of this.backoffs) {
      if (now - backoff.lastMiss >= this.settings.maxBackoffSeconds * 1000) this.backoffs.delete(source)
    }
  }
}
