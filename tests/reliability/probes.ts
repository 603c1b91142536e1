// The tally every isolation probe goes through: what was tried, and each leak with what showed it.
// A leak is a response to the attacker that carries the victim's canary text or one of the victim's
// ids (other than ids the attacker put in the request itself), or a write that landed.
import { anonKey, api } from '../../stack/gateway/test/helpers.ts'
import { uuidsIn } from './catalog.ts'

export interface Reply {
  status: number
  text: string
  json: unknown
  headers: Headers
}

export async function call(
  path: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const response = await fetch(`${api}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: anonKey,
      Authorization: `Bearer ${init.token ?? anonKey}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await response.text()
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = null
  }
  return { status: response.status, text, json, headers: response.headers }
}

export class Tally {
  probes = 0
  readonly leaks: string[] = []
  readonly serverErrors: string[] = []

  constructor(
    private readonly canary: string,
    private readonly victimIds: Set<string>,
  ) {}

  /** Counts one probe and records a leak when the reply shows the victim's data. */
  reply(label: string, request: unknown, reply: Reply): Reply {
    this.probes++
    if (reply.status >= 500) this.serverErrors.push(`${label}: ${reply.status} ${reply.text.slice(0, 200)}`)
    if (reply.text.includes(this.canary)) this.leaks.push(`${label}: the reply carries the victim's canary`)
    const asked = uuidsIn(request)
    const shown = [...uuidsIn(reply.json)].filter((id) => this.victimIds.has(id) && !asked.has(id))
    if (shown.length > 0)
      this.leaks.push(`${label}: the reply carries the victim's ids ${shown.slice(0, 3).join(', ')}`)
    return reply
  }

  /** Counts one probe whose verdict the caller worked out (a write that landed, a row that changed). */
  verdict(label: string, leaked: boolean, why = ''): void {
    this.probes++
    if (leaked) this.leaks.push(`${label}${why ? `: ${why}` : ''}`)
  }

  summary(name: string): string {
    return `[reliability] ${name}: ${this.probes} probes, ${this.leaks.length} leaks, ${this.serverErrors.length} server errors`
  }
}

/** Runs `work` over `items` with at most `limit` at a time (the machine is shared). */
export async function inBatches<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  })
  await Promise.all(workers)
}
