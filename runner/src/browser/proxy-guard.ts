// The account's proxy as the browser will use it, checked at connect time (issue 17): the address
// must be a public host on a proxy port, and a name is resolved here and the browser pointed at the
// resolved public address, so a name re-pointed at the runner's own network (DNS rebinding) between
// the customer's save and this connect never reaches it. The login comes from the sealed credentials.
import { lookup } from 'node:dns/promises'
import {
  isIpLiteral,
  PROXY_MESSAGES,
  parseProxy,
  proxyProblem,
  resolvedProblem,
} from '../../../supabase/functions/_shared/proxy.ts'
import type { ProxyLogin } from '../sessions/credentials.ts'

export type AccountProxy = { url: string | null } | { problem: string }

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
export async function accountProxy(
  stored: string | null,
  login: ProxyLogin | null | undefined,
  allowed: readonly string[] = [],
  resolveHost: (host: string) => Promise<string[]> = resolve,
): Promise<AccountProxy> {
  if (!stored) return { url: null }
  const parts = parseProxy(stored)
  if (!parts) return { problem: `${PROXY_MESSAGES.format} (the account's proxy is "${stored}").` }
  let host = parts.host
  if (!allowed.includes(`${parts.host}:${parts.port}`)) {
    const problem = proxyProblem(parts)
    if (problem) return { problem }
    if (!isIpLiteral(parts.host)) {
      const addresses = await resolveHost(parts.host)
      const resolved = resolvedProblem(parts.host, addresses)
      if (resolved) return { problem: resolved }
      host = addresses.find((a) => !a.includes(':')) ?? addresses[0] ?? parts.host
    }
  }
  const hostForUrl = host.includes(':') ? `[${host}]` : host
  const user = login?.username
    ? `${encodeURIComponent(login.username)}:${encodeURIComponent(login.password)}@`
    : ''
  return { url: `${parts.scheme}://${user}${hostForUrl}:${parts.port}` }
}
