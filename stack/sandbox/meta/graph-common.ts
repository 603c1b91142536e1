// What every Graph route of the Meta sandbox shares: the caller from its token (Authorization
// header or access_token), counted against the account's hourly budget with the usage headers
// Meta sends; the fields a request asks for; JSON-or-form parameters; armed faults.
import type { ApiRequest } from '../official/server.ts'
import { GRAPH, graphError } from './errors.ts'
import { validToken } from './oauth.ts'
import { HOUR, type IgAccount, type MetaWorld, type Token } from './world.ts'

export interface Caller {
  token: Token
  account: IgAccount
}

function bearer(req: ApiRequest): string | null {
  const header = req.headers.authorization ?? ''
  const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header)
  return (
    match?.[1] ??
    req.url.searchParams.get('access_token') ??
    (req.body.access_token as string | undefined) ??
    null
  )
}

/** Usage as a percentage of the hourly budget, the shape of X-Business-Use-Case-Usage / X-App-Usage. */
function usageHeaders(world: MetaWorld, account: IgAccount): Record<string, string> {
  const now = world.now()
  account.calls = account.calls.filter((at) => at > now - HOUR)
  const percent = Math.min(100, Math.floor((account.calls.length * 100) / world.state.callsPerHour))
  const regain = percent >= 100 ? Math.ceil(((account.calls[0] ?? now) + HOUR - now) / 60_000) : 0
  return {
    'x-business-use-case-usage': JSON.stringify({
      [account.id]: [
        {
          type: 'instagram',
          call_count: percent,
          total_cputime: Math.min(100, Math.floor(percent / 4)),
          total_time: Math.min(100, Math.floor(percent / 3)),
          estimated_time_to_regain_access: regain,
        },
      ],
    }),
    'x-app-usage': JSON.stringify({
      call_count: percent,
      total_cputime: Math.floor(percent / 4),
      total_time: Math.floor(percent / 3),
    }),
  }
}

/** The caller of a Graph request, counted against its account's hourly budget. */
export function authenticate(world: MetaWorld, req: ApiRequest, needs?: string): Caller {
  const token = validToken(world, bearer(req))
  const account = world.accountById(token.accountId)
  if (!account) throw GRAPH.badToken()
  const headers = usageHeaders(world, account)
  if (account.calls.length >= world.state.callsPerHour) throw GRAPH.accountRateLimit(headers)
  account.calls.push(world.now())
  world.changed()
  if (needs && !token.scopes.includes(needs)) throw GRAPH.permission()
  req.res.setHeader(
    'x-business-use-case-usage',
    usageHeaders(world, account)['x-business-use-case-usage'] ?? '',
  )
  req.res.setHeader('x-app-usage', usageHeaders(world, account)['x-app-usage'] ?? '')
  return { token, account }
}

/** The requested `fields` of an object (Graph returns only `id` when none are asked for). */
export function pick(
  object: Record<string, unknown>,
  req: ApiRequest,
  defaults: string[],
): Record<string, unknown> {
  const asked = (req.url.searchParams.get('fields') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  const fields = asked.length ? asked : defaults
  const out: Record<string, unknown> = {}
  for (const field of fields) {
    if (!(field in object)) throw GRAPH.param(`Tried accessing nonexisting field (${field})`)
    if (object[field] !== undefined) out[field] = object[field]
  }
  if ('id' in object) out.id = object.id
  return out
}

export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000')

export function parseJsonParam(value: unknown, name: string): Record<string, unknown> {
  if (value && typeof value === 'object') return value as Record<string, unknown>
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value)
      if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>
    } catch {
      // answered below
    }
  }
  throw GRAPH.param(`param ${name} must be a JSON object`)
}

/** One fault the control API armed for this account and kind of call, used up by this call. */
export function takeFault(world: MetaWorld, account: IgAccount, target: 'messages' | 'comments') {
  const fault = world.state.faults.find(
    (f) =>
      f.count > 0 && (f.target === target || f.target === 'any') && (!f.account || f.account === account.id),
  )
  if (!fault) return null
  fault.count -= 1
  world.changed()
  if (fault.mode === 'http_500') throw GRAPH.server()
  if (fault.mode === 'error')
    throw graphError(
      fault.code ?? 1,
      '(#1) An unknown error occurred',
      fault.subcode ? { subcode: fault.subcode } : {},
    )
  return fault
}
