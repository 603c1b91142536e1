// Webhook deliveries as Meta makes them: a POST of {"object":"instagram","entry":[…]} to the app's
// verified callback, signed `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body with the app
// secret>` (and the older `X-Hub-Signature: sha1=…`), only for fields the account subscribed to.
// A delivery not answered 200 in time is tried again at once and then less and less often for 36
// hours, on the sandbox clock (so a test moves time instead of waiting). The callback is verified
// first with the hub.challenge GET, as the App Dashboard does when the URL is saved.
import { createHmac, randomInt } from 'node:crypto'
import { DAY, type Delivery, HOUR, type MetaWorld } from './world.ts'

/** Delays after the first failure before each further try (Meta: "decreasing frequency over 36 hours"). */
const RETRY_DELAYS_MS = [0, 60_000, 5 * 60_000, 15 * 60_000, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR]
const GIVE_UP_AFTER_MS = 36 * HOUR

export function signatures(secret: string, body: string): { sha256: string; sha1: string } {
  return {
    sha256: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    sha1: `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
  }
}

export class Webhooks {
  #pumping = false
  #timer: NodeJS.Timeout

  /** `timeoutMs`: how long the callback may take to answer 200 before the try counts as failed. */
  constructor(
    readonly world: MetaWorld,
    readonly timeoutMs = 20_000,
  ) {
    // retries fall due on the sandbox clock; a real-time tick notices them (and a clock move pumps at once)
    this.#timer = setInterval(() => void this.pump(), 1000)
    this.#timer.unref()
  }

  stop(): void {
    clearInterval(this.#timer)
  }

  /** The App Dashboard's check of a callback URL: GET with hub.mode, hub.verify_token and hub.challenge. */
  async verifyCallback(
    url: string,
    verifyToken: string,
  ): Promise<{ ok: boolean; status: number | null; detail: string }> {
    const { app } = this.world.state
    const challenge = String(randomInt(1, 2_000_000_000))
    const target = new URL(url)
    target.searchParams.set('hub.mode', 'subscribe')
    target.searchParams.set('hub.verify_token', verifyToken)
    target.searchParams.set('hub.challenge', challenge)
    try {
      const response = await fetch(target, { signal: AbortSignal.timeout(this.timeoutMs) })
      const text = (await response.text()).trim()
      const ok = response.status === 200 && text === challenge
      if (ok) Object.assign(app, { webhookUrl: url, verifyToken, verifiedAt: this.world.now() })
      this.world.changed()
      return {
        ok,
        status: response.status,
        detail: ok
          ? 'Verified'
          : `The URL couldn't be validated. Callback answered ${response.status}: ${text.slice(0, 200)}`,
      }
    } catch (error) {
      return { ok: false, status: null, detail: `The URL couldn't be validated: ${(error as Error).message}` }
    }
  }

  /**
   * Delivers one entry for an account when it subscribed to the field and the app's callback is
   * verified. `entry` holds the entry's payload (messaging or changes); id and time are added.
   * Messaging entries carry time in milliseconds, change entries in seconds, as Meta sends them.
   */
  emit(accountId: string, field: string, entry: Record<string, unknown>): Delivery | null {
    const { app } = this.world.state
    const account = this.world.accountById(accountId)
    if (!account || !app.webhookUrl || !app.verifiedAt || !account.subscribedFields.includes(field))
      return null
    const now = this.world.now()
    const time = 'messaging' in entry ? now : Math.floor(now / 1000)
    const body = JSON.stringify({ object: 'instagram', entry: [{ id: account.id, time, ...entry }] })
    const delivery: Delivery = {
      id: this.world.numericId('dlv', 12),
      accountId: account.id,
      field,
      body,
      signature: signatures(app.appSecret, body).sha256,
      attempts: [],
      delivered: false,
      nextAttemptAt: now,
      createdAt: now,
    }
    this.world.state.deliveries.push(delivery)
    this.world.changed()
    void this.pump()
    return delivery
  }

  /** The echo Meta sends for every message the account sends (field `messages`, is_echo). */
  echo(accountId: string, peerId: string, mid: string, text: string): void {
    const account = this.world.accountById(accountId)
    if (!account) return
    this.emit(accountId, 'messages', {
      messaging: [
        {
          sender: { id: account.id },
          recipient: { id: peerId },
          timestamp: this.world.now(),
          message: { mid, text, is_echo: true },
        },
      ],
    })
  }

  /** Sends a delivery again exactly as before (Meta may deliver one event more than once). */
  async redeliver(delivery: Delivery): Promise<number | null> {
    return this.#post(delivery)
  }

  /** Tries every delivery that is due on the sandbox clock. */
  async pump(): Promise<void> {
    if (this.#pumping) return
    this.#pumping = true
    try {
      for (;;) {
        const now = this.world.now()
        const due = this.world.state.deliveries.filter(
          (d) => d.nextAttemptAt !== null && d.nextAttemptAt <= now,
        )
        if (!due.length) return
        await Promise.all(due.map((d) => this.#attempt(d)))
      }
    } finally {
      this.#pumping = false
    }
  }

  async #attempt(delivery: Delivery): Promise<void> {
    delivery.nextAttemptAt = null
    const status = await this.#post(delivery)
    if (status !== null && status >= 200 && status < 300) return
    const failures = delivery.attempts.filter(
      (a) => a.status === null || a.status < 200 || a.status >= 300,
    ).length
    const delay = RETRY_DELAYS_MS[Math.min(failures - 1, RETRY_DELAYS_MS.length - 1)] ?? DAY
    const next = this.world.now() + (failures > RETRY_DELAYS_MS.length ? 12 * HOUR : delay)
    delivery.nextAttemptAt = next - delivery.createdAt > GIVE_UP_AFTER_MS ? null : next
    this.world.changed()
  }

  async #post(delivery: Delivery): Promise<number | null> {
    const { app } = this.world.state
    const started = Date.now()
    let status: number | null = null
    let error: string | null = null
    try {
      if (!app.webhookUrl) throw new Error('No callback URL')
      const response = await fetch(app.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': delivery.signature,
          'x-hub-signature': signatures(app.appSecret, delivery.body).sha1,
          'user-agent': 'facebookexternalua',
        },
        body: delivery.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      await response.arrayBuffer()
      status = response.status
    } catch (caught) {
      error =
        (caught as Error).name === 'TimeoutError'
          ? `No answer within ${this.timeoutMs} ms`
          : (caught as Error).message
    }
    delivery.attempts.push({ at: this.world.now(), status, ms: Date.now() - started, error })
    if (status !== null && status >= 200 && status < 300) delivery.delivered = true
    this.world.changed()
    return status
  }
}
