// The sandbox's whole state: Stripe objects as the API returns them, plus what Stripe keeps to
// itself (cards on file, line items, the test clock, idempotency replays, the event log).
// Kept in memory and written to one JSON file (atomically, coalesced) so a restart keeps it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type {
  Customer,
  EventRecord,
  Invoice,
  LineItem,
  PortalSession,
  Price,
  Product,
  Session,
  Subscription,
} from './objects.ts'

/** How a test card behaves: succeeds, is declined at once, or attaches and then fails to be charged. */
export type CardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'charge_fails'

export interface Card {
  paymentMethod: string
  brand: string
  last4: string
  behaviour: CardBehaviour
}

export interface IdempotentReplay {
  fingerprint: string
  status: number
  body: string
  at: number
}

export interface Hold {
  customer?: string
  email?: string
}

export interface SandboxState {
  version: 1
  /** Seconds added to the wall clock for every object. */
  clockOffset: number
  /** Extra seconds for one customer's objects, so a test can move its own customer's time alone. */
  customerClockOffsets: Record<string, number>
  customers: Record<string, Customer>
  products: Record<string, Product>
  prices: Record<string, Price>
  checkoutSessions: Record<string, Session>
  lineItems: Record<string, LineItem[]>
  subscriptions: Record<string, Subscription>
  invoices: Record<string, Invoice>
  portalSessions: Record<string, PortalSession>
  cards: Record<string, Card>
  events: EventRecord[]
  idempotency: Record<string, IdempotentReplay>
  holds: Hold[]
  invoiceSequence: number
}

const MAX_EVENTS = 5000
const IDEMPOTENCY_TTL_SECONDS = 24 * 3600

export function emptyState(): SandboxState {
  return {
    version: 1,
    clockOffset: 0,
    customerClockOffsets: {},
    customers: {},
    products: {},
    prices: {},
    checkoutSessions: {},
    lineItems: {},
    subscriptions: {},
    invoices: {},
    portalSessions: {},
    cards: {},
    events: [],
    idempotency: {},
    holds: [],
    invoiceSequence: 0,
  }
}

export class Store {
  state: SandboxState
  private writeScheduled = false

  constructor(private readonly file?: string) {
    this.state = file && existsSync(file) ? Store.load(file) : emptyState()
  }

  private static load(file: string): SandboxState {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as SandboxState
    if (parsed.version !== 1) throw new Error(`Unknown Stripe sandbox state version in ${file}`)
    return { ...emptyState(), ...parsed }
  }

  /** Seconds since the epoch for a customer's objects (or the shared sandbox time). */
  now(customer?: string | null): number {
    const extra = customer ? (this.state.customerClockOffsets[customer] ?? 0) : 0
    return Math.floor(Date.now() / 1000) + this.state.clockOffset + extra
  }

  /** Marks the state changed; the file is rewritten once per tick however many changes happen. */
  changed(): void {
    if (!this.file || this.writeScheduled) return
    this.writeScheduled = true
    setImmediate(() => {
      this.writeScheduled = false
      this.flush()
    })
  }

  /** Writes the state now (also on shutdown). A temp file and rename keep the file whole on a crash. */
  flush(): void {
    if (!this.file) return
    this.trim()
    mkdirSync(dirname(this.file), { recursive: true })
    const temp = `${this.file}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(this.state))
    renameSync(temp, this.file)
  }

  private trim(): void {
    if (this.state.events.length > MAX_EVENTS) {
      this.state.events = this.state.events.slice(-MAX_EVENTS)
    }
    const oldest = Math.floor(Date.now() / 1000) - IDEMPOTENCY_TTL_SECONDS
    for (const [key, replay] of Object.entries(this.state.idempotency)) {
      if (replay.at < oldest) delete this.state.idempotency[key]
    }
  }

  nextInvoiceNumber(customer: string): string {
    this.state.invoiceSequence += 1
    const prefix = customer.slice(4, 12).toUpperCase()
    return `${prefix}-${String(this.state.invoiceSequence).padStart(4, '0')}`
  }
}
