// Events and their delivery to the one configured endpoint, as Stripe does it: the payload is the
// event JSON, signed with `Stripe-Signature: t=<unix seconds>,v1=<HMAC-SHA256(secret, "t.payload")>`
// (what `stripe.webhooks.constructEvent` checks). A non-2xx answer or a network error is retried
// with exponential backoff. Holds let a test keep a customer's events back and release them in any
// order; the signature time is the wall clock, never the sandbox clock, since receivers check it.
import { createHmac } from 'node:crypto'
import { newId } from './ids.ts'
import type { DeliveryAttempt, EventRecord, StripeEvent } from './objects.ts'
import type { Hold, Store } from './store.ts'

export interface WebhookOptions {
  url: string
  secret: string
  apiVersion: string
  /** First retry delay; each further retry waits 4× longer (Stripe spreads retries over days). */
  retryBaseMs: number
  maxAttempts: number
  log?: (line: string) => void
}

export function signPayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')
  return `t=${timestamp},v1=${signature}`
}

const clone = <T>(value: T): T => structuredClone(value)

function matchesHold(record: EventRecord, email: string | null, hold: Hold): boolean {
  if (hold.customer && hold.customer !== record.customer) return false
  if (hold.email && hold.email.toLowerCase() !== email?.toLowerCase()) return false
  return Boolean(hold.customer || hold.email)
}

export class WebhookDispatcher {
  private queue: string[] = []
  private running = false
  private timers = new Set<NodeJS.Timeout>()
  private idleWaiters: Array<() => void> = []
  private stopped = false

  constructor(
    private readonly store: Store,
    private readonly options: WebhookOptions,
  ) {}

  /** Re-queues what a previous run left undelivered. */
  resume(): void {
    for (const record of this.store.state.events) {
      if (record.status === 'pending') this.enqueue(record.event.id)
    }
  }

  /** Records an event about `object` (a snapshot, as Stripe sends) and queues its delivery. */
  emit(
    type: string,
    object: { id: string; customer?: string | null },
    created: number,
    previousAttributes?: Record<string, unknown>,
  ): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: this.options.apiVersion,
      created,
      data: {
        object: clone(object),
        ...(previousAttributes ? { previous_attributes: previousAttributes } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }
    const customer =
      type.startsWith('customer.') && !type.startsWith('customer.subscription')
        ? object.id
        : (object.customer ?? null)
    const record: EventRecord = { event, customer, status: 'pending', attempts: [], next_attempt_at: null }
    this.store.state.events.push(record)
    const email = customer ? (this.store.state.customers[customer]?.email ?? null) : null
    if (this.store.state.holds.some((hold) => matchesHold(record, email, hold))) {
      record.status = 'held'
    } else {
      this.enqueue(event.id)
    }
    this.store.changed()
    return event
  }

  hold(hold: Hold): void {
    this.store.state.holds.push(hold)
    this.store.changed()
  }

  /** Ends matching holds and queues their events, oldest first or newest first. */
  release(hold: Hold, order: 'created' | 'reverse'): string[] {
    const state = this.store.state
    state.holds = state.holds.filter((h) => h.customer !== hold.customer || h.email !== hold.email)
    const held = state.events.filter((record) => {
      if (record.status !== 'held') return false
      const email = record.customer ? (state.customers[record.customer]?.email ?? null) : null
      return matchesHold(record, email, hold)
    })
    if (order === 'reverse') held.reverse()
    for (const record of held) {
      record.status = 'pending'
      this.enqueue(record.event.id)
    }
    this.store.changed()
    return held.map((record) => record.event.id)
  }

  /** Sends an event again, unchanged (same id), as the Dashboard's "Resend" does. */
  resend(eventId: string): boolean {
    const record = this.find(eventId)
    if (!record) return false
    record.status = 'pending'
    this.enqueue(eventId)
    this.store.changed()
    return true
  }

  find(eventId: string): EventRecord | undefined {
    return this.store.state.events.find((record) => record.event.id === eventId)
  }

  /** Resolves once no delivery is queued or in flight (retries waiting on a timer do not count). */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }

  private enqueue(eventId: string): void {
    if (this.stopped) return
    if (!this.queue.includes(eventId)) this.queue.push(eventId)
    void this.drain()
  }

  /** One delivery at a time, in queue order, so a first delivery reaches the endpoint in event order. */
  private async drain(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      for (let id = this.queue.shift(); id; id = this.queue.shift()) {
        const record = this.find(id)
        if (record && record.status === 'pending') await this.deliver(record)
      }
    } finally {
      this.running = false
      for (const resolve of this.idleWaiters.splice(0)) resolve()
    }
  }

  private async deliver(record: EventRecord): Promise<void> {
    const payload = JSON.stringify(record.event, null, 2)
    const timestamp = Math.floor(Date.now() / 1000)
    const started = Date.now()
    const attempt: DeliveryAttempt = {
      attempt: record.attempts.length + 1,
      at: new Date().toISOString(),
      status: null,
      error: null,
      duration_ms: 0,
    }
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signPayload(payload, this.options.secret, timestamp),
        },
        body: payload,
        signal: AbortSignal.timeout(20_000),
      })
      attempt.status = response.status
      const text = await response.text().catch(() => '')
      if (!response.ok) attempt.error = text.slice(0, 500) || `HTTP ${response.status}`
    } catch (error) {
      attempt.error =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error)
    }
    attempt.duration_ms = Date.now() - started
    record.attempts.push(attempt)
    if (attempt.error === null) {
      record.status = 'delivered'
      record.next_attempt_at = null
    } else if (record.attempts.length >= this.options.maxAttempts) {
      record.status = 'failed'
      record.next_attempt_at = null
      this.options.log?.(
        `webhook ${record.event.type} ${record.event.id} failed after ${record.attempts.length} attempts: ${attempt.error}`,
      )
    } else {
      const delay = this.options.retryBaseMs * 4 ** (record.attempts.length - 1)
      record.next_attempt_at = new Date(Date.now() + delay).toISOString()
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        this.enqueue(record.event.id)
      }, delay)
      this.timers.add(timer)
    }
    this.store.changed()
  }
}
