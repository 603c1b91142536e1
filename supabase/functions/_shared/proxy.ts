// Customers' proxies (issue 17): the shared runner's browser connects wherever an account's proxy
// points, so a proxy must be a public host on a proxy port. Checked where it is given (the api
// function, with DNS) and again where it is used (the runner resolves the name at connect time, so a
// name re-pointed at a private address later is still refused). Pure code, shared by Deno and Node.

export interface ProxyParts {
  scheme: 'http' | 'https' | 'socks4' | 'socks5'
  host: string
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
    return { scheme: 'http', host: host.toLowerCase(), port: Number(port), username, password }
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
  return {
    scheme: scheme.toLowerCase() as ProxyParts['scheme'],
    host: host.replace(/^\[|\]$/g, '').toLowerCase(),
    port: Number(port),
    username: decode(user),
    password: user === undefined ? null : (decode(pass) ?? ''),
  }
}

/** What the database keeps (no credentials): `host:port`, with the scheme when it is not http. */
export function proxyAddress(parts: Pick<ProxyParts, 'scheme' | 'host' | 'port'>): string {
  const host = parts.host.includes(':') ? `[${parts.host}]` : parts.host
  return `${parts.scheme === 'http' ? '' : `${parts.scheme}://`}${host}:${parts.port}`
}

function ipv4(address: string): number[] | null {
  const parts = address.split('.')
  if (parts.length !== 4) return null
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN))
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null
}

/** Expands an IPv6 address to its eight 16-bit groups; null when it is not one. */
function ipv6(address: string): number[] | null {
  let text = address.toLowerCase()
  if (!text.includes(':')) return null
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const v4 = ipv4(dotted[1] ?? '')
    if (!v4) return null
    text = text.replace(
      dotted[1] ?? '',
      `${((v4[0] ?? 0) * 256 + (v4[1] ?? 0)).toString(16)}:${((v4[2] ?? 0) * 256 + (v4[3] ?? 0)).toString(16)}`,
    )
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const head = halves[0] ? halves[0].split(':') : []
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  const values = groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN))
  return values.length === 8 && values.every((v) => !Number.isNaN(v)) ? values : null
}

/**
 * True when an IP literal is a public unicast address. Refused: unspecified, loopback, private
 * (10/8, 172.16/12, 192.168/16), CGNAT 100.64/10, link-local 169.254/16 (cloud metadata), 0/8,
 * multicast and reserved 224/3, benchmarking 198.18/15, and the IPv6 equivalents (::, ::1, fc00::/7,
 * fe80::/10, ff00::/8, and IPv4-mapped forms of the above). Not an IP literal: false.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = ipv4(address)
  if (v4) {
    const [a = 0, b = 0] = v4
    if (a === 0 || a === 10 || a === 127) return false
    if (a === 100 && b >= 64 && b <= 127) return false
    if (a === 169 && b === 254) return false
    if (a === 172 && b >= 16 && b <= 31) return false
    if (a === 192 && b === 168) return false
    if (a === 192 && b === 0 && v4[2] === 0) return false
    if (a === 198 && (b === 18 || b === 19)) return false
    if (a >= 224) return false
    return true
  }
  const v6 = ipv6(address)
  if (!v6) return false
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = v6
  if (v6.every((g) => g === 0)) return false // ::
  if (v6.slice(0, 7).every((g) => g === 0) && g7 === 1) return false // ::1
  if (v6.slice(0, 5).every((g) => g === 0) && (g5 === 0xffff || g5 === 0)) {
    // IPv4-mapped / compatible: judge the IPv4 inside
    return isPublicAddress(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`)
  }
  if ((g0 & 0xfe00) === 0xfc00) return false // unique local
  if ((g0 & 0xffc0) === 0xfe80) return false // link-local
  if ((g0 & 0xff00) === 0xff00) return false // multicast
  if (g0 === 0x64 && v6[1] === 0xff9b) return false // NAT64 (could reach anything)
  if (g0 === 0x2001 && v6[1] === 0x0db8) return false // documentation
  return true
}

export const isIpLiteral = (host: string) => ipv4(host) !== null || ipv6(host) !== null

/** What is wrong with a proxy's host and port before any lookup (a name: only local names). */
export function proxyProblem(parts: Pick<ProxyParts, 'host' | 'port'>): string | null {
  if (!isProxyPort(parts.port)) return PROXY_MESSAGES.port(parts.port)
  const host = parts.host.replace(/\.$/, '')
  if (isIpLiteral(host)) return isPublicAddress(host) ? null : PROXY_MESSAGES.privateHost(host)
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    !host.includes('.')
  )
    return PROXY_MESSAGES.privateHost(host)
  return null
}

/** After resolving a name: refused when any of its addresses is not public (no DNS rebinding pick). */
export function resolvedProblem(host: string, addresses: string[]): string | null {
  if (addresses.length === 0) return PROXY_MESSAGES.unresolvable(host)
  const bad = addresses.find((a) => !isPublicAddress(a))
  return bad ? PROXY_MESSAGES.privateHost(host, bad) : null
}
