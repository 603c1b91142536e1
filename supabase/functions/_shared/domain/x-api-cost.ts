// What the X API costs the customer's developer app (pay-per-use since February 2026,
// docs.x.com/x-api/getting-started/pricing): the one table of prices, which calls are billable and
// for what, and the daily cost to expect. The runner and the api function record billable units
// with xApiUsageOf; the dashboard prices them with these prices.

/** The billable kinds Reachflow's calls incur, priced in thousandths of a dollar (mills). */
export const X_API_PRICE_MILLS = {
  /** DM Interaction: Create, per request. */
  dm_create: 15,
  /** DM Event: Read, per resource returned. */
  dm_event_read: 10,
  /** User: Read (another person's profile), per resource returned. */
  user_read: 10,
  /** Owned reads (the signed-in account's own data), per resource returned. */
  own_read: 1,
} as const

export type XApiUsageKind = keyof typeof X_API_PRICE_MILLS
export const X_API_USAGE_KINDS = Object.keys(X_API_PRICE_MILLS) as XApiUsageKind[]

/** DM events one inbox read asks for: the newest pages of 100, and no more (the runner's reads). */
export const X_DM_EVENTS_PAGE_SIZE = 100
export const X_INBOX_EVENTS_PER_READ = 3 * X_DM_EVENTS_PAGE_SIZE

/**
 * The billable units of one answered call, each with the key X counts it by: a read resource is
 * charged once per UTC day however often it is read (X deduplicates), a create once per request.
 * Error answers return no resource and create nothing, so they count nothing.
 */
export function xApiUsageOf(call: {
  method: 'GET' | 'POST'
  path: string
  ok: boolean
  data: unknown
  /** The connected account's X user id: reading it is an owned read. */
  selfId: string
}): { kind: XApiUsageKind; keys: string[] } | null {
  if (!call.ok) return null
  const path = call.path.split('?')[0] ?? ''
  const data = (call.data as { data?: unknown } | null)?.data
  if (call.method === 'POST' && /^\/2\/dm_conversations\/.+\/messages$/.test(path)) {
    const eventId = (data as { dm_event_id?: string } | undefined)?.dm_event_id
    return eventId ? { kind: 'dm_create', keys: [eventId] } : null
  }
  if (call.method === 'GET' && /^\/2\/(dm_events|dm_conversations\/[^/]+\/dm_events)$/.test(path)) {
    const events = Array.isArray(data) ? (data as { id?: string }[]) : []
    return { kind: 'dm_event_read', keys: events.flatMap((e) => (e.id ? [e.id] : [])) }
  }
  if (call.method === 'GET' && path.startsWith('/2/users/')) {
    const id = (data as { id?: string } | undefined)?.id
    if (!id) return null
    return { kind: path === '/2/users/me' || id === call.selfId ? 'own_read' : 'user_read', keys: [id] }
  }
  return null
}

/** The price of counted units, in mills. */
export function xApiCostMills(units: Partial<Record<XApiUsageKind, number>>): number {
  return X_API_USAGE_KINDS.reduce((sum, kind) => sum + (units[kind] ?? 0) * X_API_PRICE_MILLS[kind], 0)
}

/** Dollars with cents, rounded up so a cost is never shown lower than it is ("$1.50"). */
export function formatUsd(mills: number): string {
  return `$${(Math.ceil(mills / 10) / 100).toFixed(2)}`
}

/** A unit price as X writes it, to a tenth of a cent ("$0.015"). */
export function formatUnitPrice(mills: number): string {
  return `$${(mills / 1000).toFixed(3)}`
}

/** X's prices for what Reachflow's calls do, in one sentence for the connect screen. */
export function xApiPricesText(): string {
  const p = X_API_PRICE_MILLS
  return `X’s prices: ${formatUnitPrice(p.dm_create)} a DM sent, ${formatUnitPrice(p.dm_event_read)} a DM event read and ${formatUnitPrice(p.user_read)} a person looked up (each once a day), ${formatUnitPrice(p.own_read)} a read of your own profile.`
}

/**
 * A day's X API cost for an account sending `dmsPerDay` DMs: the sends themselves, and at most the
 * inbox reads, which see the newest X_INBOX_EVENTS_PER_READ DM events each time; X charges each
 * event once a day however often the inbox is polled, so at most those plus the day's new ones.
 */
export function expectedXApiDailyCost(dmsPerDay: number): { sendingMills: number; inboxUpToMills: number } {
  const dms = Math.max(0, Math.floor(dmsPerDay))
  return {
    sendingMills: dms * X_API_PRICE_MILLS.dm_create,
    inboxUpToMills: (X_INBOX_EVENTS_PER_READ + dms) * X_API_PRICE_MILLS.dm_event_read,
  }
}

/** The sentence the connect and review screens show ("about $1.50 a day at 100 DMs, …"). */
export function expectedXApiCostText(dmsPerDay: number): string {
  const { sendingMills, inboxUpToMills } = expectedXApiDailyCost(dmsPerDay)
  return `About ${formatUsd(sendingMills)} a day at ${dmsPerDay} DMs, plus up to ${formatUsd(inboxUpToMills)} a day for reading the inbox.`
}
