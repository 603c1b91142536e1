// Customers' proxies: the shared runner's browser connects wherever an account's proxy
// points, so a proxy must be a public host on a proxy port. Checked where it is given (the api
// function, with DNS) and again where it is used (the runner resolves the name at connect time, so a
// name re-pointed at a private address later is still refused). Pure code, shared by Deno and Node.
// The host is read once, the way browsers read it (./host.ts), and only that canonical form travels
// on: the api stores it, the database re-checks it, the runner hands it to Chromium.
import { isPublicHost, parseIpAddress, parseUrlHost } from './host.ts'

export interface ProxyParts {
  scheme: 'http' | 'https' | 'socks4' | 'socks5'
  /** Canonical: dotted-decimal IPv4, IPv6 as browsers print it (no brackets), or a lowercase name. */
  host: string
  /** The host as the customer wrote it, when that differs from `host` (for messages). */
  hostAsWritten?: string
  port: number
  username: string | null
  password: string | null
}

export const PROXY_MESSAGES = {
  format: 'Proxy URL must look like user:pass@host:port',
  port: (port: number) =>
    `Proxy port ${port} is not a proxy port. Use 80, 443, 1080, 3128, 8000-9999 or 10000-65535.`,
  privateHost: (host: string, address?: string) =>
    `Proxy ${host} points at a private or local address${address && address !== host ? ` (${address})` : ''}. Use your proxy provider's public host.`,
  unresolvable: (host: string) =>
    `Proxy host ${host} could not be found. Check the address your proxy provider gave you.`,
} as const

const SCHEMES = new Set(['http', 'https', 'socks4', 'socks5'])

/** Ports proxies listen on: the usual ones and the high range providers hand out; no service ports. */
export function isProxyPort(port: number): boolean {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return false
  return [80, 443, 1080, 1081, 3128, 3129].includes(port) || port >= 8000
}

/** `user:pass@host:port`, `scheme://user:pass@host:port` or `host:port:user:pass`; null when none of them. */
export function parseProxy(input: string): ProxyParts | null {
  const text = input.trim()
  if (!text || /\s/.test(text)) return null
  const colonForm = /^([A-Za-z0-9.-]+):(\d{1,5}):([^:@\s]+):(.+)$/.exec(text)
  if (colonForm) {
    const [, host = '', port = '', username = '', password = ''] = colonForm
    return withHost({ scheme: 'http', port: Number(port), username, password }, host)
  }
  const match =
    /^(?:([a-z][a-z0-9+.-]*):\/\/)?(?:([^:@/\s]+)(?::([^@/\s]*))?@)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})\/?$/.exec(
      text,
    )
  if (!match) return null
  const [, scheme = 'http', user, pass, host = '', port = ''] = match
  if (!SCHEMES.has(scheme.toLowerCase())) return null
  const decode = (value: string | undefined) => {
    if (value === undefined) return null
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  }
  return withHost(
    {
      scheme: scheme.toLowerCase() as ProxyParts['scheme'],
      port: Number(port),
      username: decode(user),
      password: user === undefined ? null : (decode(pass) ?? ''),
    },
    host,
  )
}

/** The parts with the host read as a browser reads it; null when a browser would refuse the host. */
function withHost(parts: Omit<ProxyParts, 'host'>, written: string): ProxyParts | null {
  const host = parseUrlHost(written)
  if (!host) return null
  const plain = written.replace(/^\[|\]$/g, '')
  return plain.toLowerCase() === host.address
    ? { ...parts, host: host.address }
    : { ...parts, host: host.address, hostAsWritten: plain }
}

/** What the database keeps (no credentials): `host:port`, with the scheme when it is not http. */
export function proxyAddress(parts: Pick<ProxyParts, 'scheme' | 'host' | 'port'>): string {
  const host = parts.host.includes(':') ? `[${parts.host}]` : parts.host
  return `${parts.scheme === 'http' ? '' : `${parts.scheme}://`}${host}:${parts.port}`
}

/** True when an IP literal (IPv6 with or without brackets) is a public unicast address; anything else false. */
export function isPublicAddress(address: string): boolean {
  const host = address.startsWith('[') ? parseUrlHost(address) : parseIpAddress(address)
  return host !== null && isPublicHost(host)
}

export function isIpLiteral(host: string): boolean {
  const kind = hostOf(host)?.kind
  return kind === 'ipv4' || kind === 'ipv6'
}

/** A host as ProxyParts keeps it (IPv6 without brackets), read as the browser will read it. */
const hostOf = (host: string) => parseUrlHost(host.includes(':') ? `[${host}]` : host)

/** Names that only mean something inside a network. */
function isLocalName(name: string): boolean {
  return (
    !name.includes('.') ||
    ['localhost', 'local', 'internal', 'lan', 'localdomain', 'home.arpa'].some(
      (suffix) => name === suffix || name.endsWith(`.${suffix}`),
    )
  )
}

/** What is wrong with a proxy's host and port before any lookup (a name: only local names). */
export function proxyProblem(parts: Pick<ProxyParts, 'host' | 'port' | 'hostAsWritten'>): string | null {
  if (!isProxyPort(parts.port)) return PROXY_MESSAGES.port(parts.port)
  const host = hostOf(parts.host)
  const written = parts.hostAsWritten ?? parts.host
  if (!host) return PROXY_MESSAGES.format
  if (host.kind === 'domain')
    return isLocalName(host.address) ? PROXY_MESSAGES.privateHost(written, host.address) : null
  return isPublicHost(host) ? null : PROXY_MESSAGES.privateHost(written, host.address)
}

/** After resolving a name: refused when any of its addresses is not public (no DNS rebinding pick). */
export function resolvedProblem(host: string, addresses: string[]): string | null {
  if (addresses.length === 0) return PROXY_MESSAGES.unresolvable(host)
  const bad = addresses.find((a) => !isPublicAddress(a))
  return bad ? PROXY_MESSAGES.privateHost(host, bad) : null
}
