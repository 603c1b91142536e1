// The account's proxy as the browser will use it, checked at connect time: the address
// must be a public host on a proxy port, and a name is resolved here and the browser pointed at the
// resolved public address, so a name re-pointed at the runner's own network (DNS rebinding) between
// the customer's save and this connect never reaches it. The login comes from the sealed credentials.
// The host is read with the shared parser, the way Chromium reads it (`012.63.0.1` is 10.63.0.1), and
// only its canonical IP literal is handed on: what was judged is exactly what Chromium connects to.
// The decisions are pure functions (planProxy, pinProxy, pinnedProxyProblem) so the browser pool can
// call them wherever it applies a proxy; only the lookup is I/O.
import { lookup } from 'node:dns/promises'
import {
  isIpLiteral,
  PROXY_MESSAGES,
  type ProxyParts,
  parseIpAddress,
  parseProxy,
  parseUrlHost,
  proxyProblem,
  resolvedProblem,
  urlHost,
} from '@reachflow/domain'
import type { ProxyLogin } from '../sessions/credentials.ts'

export type AccountProxy = { url: string | null } | { problem: string }

/** What a stored proxy needs before use: refused, none, or its parts (a name still to resolve). */
export type ProxyPlan = { problem: string } | { url: null } | { parts: ProxyParts; resolve: boolean }

async function resolve(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)
  } catch {
    return []
  }
}

/**
 * `stored` is social_accounts.proxy_url ([scheme://]host:port). `allowed` lists host:port pairs a
 * test may use on loopback (RUNNER_ALLOW_PROXY_HOSTS); production leaves it empty.
 */
export function planProxy(stored: string | null, allowed: readonly string[] = []): ProxyPlan {
  if (!stored) return { url: null }
  const parts = parseProxy(stored)
  if (!parts) return { problem: `${PROXY_MESSAGES.format} (the account's proxy is "${stored}").` }
  const literal = isIpLiteral(parts.host)
  if (allowed.includes(`${parts.host}:${parts.port}`))
    return literal ? { parts, resolve: false } : { problem: PROXY_MESSAGES.format }
  const problem = proxyProblem(parts)
  return problem ? { problem } : { parts, resolve: !literal }
}

/**
 * The URL Chromium gets: the canonical IP literal (for a name, the resolved addresses, every one of
 * which must be public; IPv4 preferred) and the sealed login.
 */
export function pinProxy(
  parts: ProxyParts,
  login: ProxyLogin | null | undefined,
  addresses: readonly string[] | null,
): AccountProxy {
  let host = parseIpAddress(parts.host)
  if (addresses) {
    const problem = resolvedProblem(parts.host, [...addresses])
    if (problem) return { problem }
    const hosts = addresses.map(parseIpAddress)
    host = hosts.find((h) => h?.kind === 'ipv4') ?? hosts[0] ?? null
  }
  if (!host) return { problem: PROXY_MESSAGES.unresolvable(parts.host) }
  const user = login?.username
    ? `${encodeURIComponent(login.username)}:${encodeURIComponent(login.password)}@`
    : ''
  return { url: `${parts.scheme}://${user}${urlHost(host)}:${parts.port}` }
}

export async function accountProxy(
  stored: string | null,
  login: ProxyLogin | null | undefined,
  allowed: readonly string[] = [],
  resolveHost: (host: string) => Promise<string[]> = resolve,
): Promise<AccountProxy> {
  const plan = planProxy(stored, allowed)
  if (!('parts' in plan)) return plan
  return pinProxy(plan.parts, login, plan.resolve ? await resolveHost(plan.parts.host) : null)
}

/**
 * The pool's last check before Chromium gets `--proxy-server`: the host must be an IP literal in
 * the canonical spelling pinProxy writes. A name would be resolved again by Chromium (a second,
 * unchecked lookup) and any other spelling could be read as another address.
 */
export function pinnedProxyProblem(server: string): string | null {
  const host = /^[a-z0-9]+:\/\/(\[[^\]]*\]|[^:/]*):\d+$/.exec(server)?.[1] ?? ''
  const parsed = parseUrlHost(host)
  if (parsed && parsed.kind !== 'domain' && urlHost(parsed) === host) return null
  return `The browser is only given a proxy as a checked IP address, not "${host}".`
}
