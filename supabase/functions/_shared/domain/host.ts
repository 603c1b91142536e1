// A URL host read the way browsers read it (the WHATWG URL standard's host parser, which Chromium,
// Node and Deno implement), so a check of the host judges the address a connection will actually
// reach. The standard reads IPv4 like inet_aton: one to four parts, each decimal, octal (leading 0)
// or hex (0x), so `012.63.0.1` is 10.63.0.1, `2130706433` and `0x7f.1` are 127.0.0.1, and a trailing
// dot is ignored. Everything that is not plain ASCII letters, digits, dots and hyphens (percent-
// encoding, non-ASCII text that IDNA would map, zone ids, underscores) is refused instead of
// interpreted: a customer's proxy host never needs it. Pure code, shared by Deno, Node and the web.

export type Host =
  /** `address`: dotted decimal; `value`: the 32-bit number. */
  | { kind: 'ipv4'; address: string; value: number }
  /** `address`: the standard's serialization (lowercase, longest zero run as `::`), no brackets. */
  | { kind: 'ipv6'; address: string; pieces: number[] }
  /** `address`: the lowercase name without a trailing dot. */
  | { kind: 'domain'; address: string }

/** The standard's IPv4 number parser: decimal, 0x hex, or 0-prefixed octal; an empty 0x is 0. */
function ipv4Number(part: string): number | null {
  if (part === '') return null
  let radix = 10
  let digits = part
  if (/^0x/i.test(part)) {
    radix = 16
    digits = part.slice(2)
  } else if (part.length > 1 && part.startsWith('0')) {
    radix = 8
    digits = part.slice(1)
  }
  if (digits === '') return 0
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/
  if (!valid.test(digits)) return null
  // long inputs lose precision here, but only far above every limit the callers compare with
  return Number.parseInt(digits, radix)
}

/** Whether the standard treats a host as IPv4 (its last part, ignoring a trailing dot, is a number). */
function endsInNumber(host: string): boolean {
  const parts = host.split('.')
  if (parts.at(-1) === '') {
    if (parts.length === 1) return false
    parts.pop()
  }
  const last = parts.at(-1) ?? ''
  return /^[0-9]+$/.test(last) || /^0x[0-9a-f]*$/i.test(last)
}

function ipv4(host: string): Host | null {
  const parts = host.split('.')
  if (parts.at(-1) === '' && parts.length > 1) parts.pop()
  if (parts.length > 4) return null
  const numbers: number[] = []
  for (const part of parts) {
    const n = ipv4Number(part)
    if (n === null) return null
    numbers.push(n)
  }
  const last = numbers.pop() ?? 0
  if (numbers.some((n) => n > 255)) return null
  if (last >= 256 ** (4 - numbers.length)) return null
  const value = numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), last)
  const address = [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.')
  return { kind: 'ipv4', address, value }
}

const HEX = /^[0-9a-f]$/i
const DIGIT = /^[0-9]$/

/** The standard's IPv6 parser (inside the brackets): hex pieces, one `::`, a dotted IPv4 tail. */
function ipv6Pieces(input: string): number[] | null {
  const address = [0, 0, 0, 0, 0, 0, 0, 0]
  let piece = 0
  let compress: number | null = null
  let i = 0
  const c = () => input[i] ?? ''
  if (c() === ':') {
    if (input[i + 1] !== ':') return null
    i += 2
    piece++
    compress = piece
  }
  while (c() !== '') {
    if (piece === 8) return null
    if (c() === ':') {
      if (compress !== null) return null
      i++
      piece++
      compress = piece
      continue
    }
    let value = 0
    let length = 0
    while (length < 4 && HEX.test(c())) {
      value = value * 16 + Number.parseInt(c(), 16)
      i++
      length++
    }
    if (c() === '.') {
      if (length === 0) return null
      i -= length
      if (piece > 6) return null
      let seen = 0
      while (c() !== '') {
        let part: number | null = null
        if (seen > 0) {
          if (c() === '.' && seen < 4) i++
          else return null
        }
        if (!DIGIT.test(c())) return null
        while (DIGIT.test(c())) {
          const digit = Number(c())
          // unlike IPv4 on its own, the dotted tail of IPv6 has no octal: a leading zero is refused
          if (part === 0) return null
          part = part === null ? digit : part * 10 + digit
          if (part > 255) return null
          i++
        }
        address[piece] = (address[piece] ?? 0) * 0x100 + (part ?? 0)
        seen++
        if (seen === 2 || seen === 4) piece++
      }
      if (seen !== 4) return null
      break
    }
    if (c() === ':') {
      i++
      if (c() === '') return null
    } else if (c() !== '') return null
    address[piece] = value
    piece++
  }
  if (compress !== null) {
    let swaps = piece - compress
    piece = 7
    while (piece !== 0 && swaps > 0) {
      const other = compress + swaps - 1
      ;[address[piece], address[other]] = [address[other] ?? 0, address[piece] ?? 0]
      piece--
      swaps--
    }
  } else if (piece !== 8) return null
  return address
}

/** The standard's IPv6 serializer: the first longest run of two or more zero pieces becomes `::`. */
function serializeIpv6(pieces: number[]): string {
  let best = -1
  let bestLength = 1
  for (let start = 0; start < 8; ) {
    let end = start
    while (end < 8 && pieces[end] === 0) end++
    if (end - start > bestLength) {
      best = start
      bestLength = end - start
    }
    start = end === start ? start + 1 : end
  }
  let out = ''
  for (let i = 0; i < 8; i++) {
    if (i === best) {
      out += i === 0 ? '::' : ':'
      i += bestLength - 1
      continue
    }
    out += (pieces[i] ?? 0).toString(16)
    if (i !== 7) out += ':'
  }
  return out
}

function ipv6(inner: string): Host | null {
  const pieces = ipv6Pieces(inner)
  return pieces ? { kind: 'ipv6', address: serializeIpv6(pieces), pieces } : null
}

const LABEL = /^[a-z0-9-]{1,63}$/

/**
 * A URL's host (IPv6 in brackets) read as a browser reads it, or null when a browser would refuse it
 * or it is not plain ASCII. `[::1]`, `0x7f.1`, `127.1.` all come back as the address they reach.
 */
export function parseUrlHost(input: string): Host | null {
  if (input.startsWith('[')) return input.endsWith(']') ? ipv6(input.slice(1, -1)) : null
  // ASCII only: percent-decoding and IDNA mapping (fullwidth digits, ⓛⓞⓒⓐⓛ…) are refused, not applied
  if (!/^[A-Za-z0-9.-]+$/.test(input)) return null
  const host = input.toLowerCase()
  if (endsInNumber(host)) return ipv4(host)
  const name = host.endsWith('.') ? host.slice(0, -1) : host
  if (name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) return null
  return { kind: 'domain', address: name }
}

/** An IP address as resolvers and people write it, IPv6 without brackets; null when it is not one. */
export function parseIpAddress(text: string): Host | null {
  const host = text.includes(':') ? ipv6(text) : /^[0-9a-fA-Fx.]+$/.test(text) ? parseUrlHost(text) : null
  return host && host.kind !== 'domain' ? host : null
}

/** How a host is written in a URL: IPv6 in brackets. */
export const urlHost = (host: Pick<Host, 'kind' | 'address'>) =>
  host.kind === 'ipv6' ? `[${host.address}]` : host.address

const inV4 = (value: number, base: string, bits: number) => {
  const start = base.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0)
  const size = 2 ** (32 - bits)
  return value >= start && value < start + size
}

/** IPv4 ranges no proxy may be in: this network, private, CGNAT, loopback, link-local, protocol, benchmarking, multicast and reserved. */
export const IPV4_REFUSED = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const

/**
 * IPv6: only global unicast (2000::/3) is public, less the blocks inside it that are not an
 * ordinary host: IETF protocol assignments (2001::/23, with Teredo), documentation (2001:db8::/32,
 * 3fff::/20) and 6to4 (2002::/16, which embeds any IPv4, loopback included). Everything outside
 * 2000::/3 is refused, so IPv4-mapped, -compatible and SIIT forms (::ffff:a.b.c.d, ::a.b.c.d,
 * ::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), unique-local, link-local and multicast
 * never pass: a proxy given as IPv4 is written as IPv4.
 */
export const IPV6_REFUSED_IN_GLOBAL = [
  [0x2001, 0x0000, 23],
  [0x2001, 0x0db8, 32],
  [0x2002, 0x0000, 16],
  [0x3fff, 0x0000, 20],
] as const

function inV6(pieces: number[], first: number, second: number, bits: number): boolean {
  const prefix = ((pieces[0] ?? 0) * 0x10000 + (pieces[1] ?? 0)) >>> 0
  const base = (first * 0x10000 + second) >>> 0
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return (prefix & mask) >>> 0 === (base & mask) >>> 0
}

/** True when an IP host is a public unicast address a proxy may have; a domain is false. */
export function isPublicHost(host: Host): boolean {
  if (host.kind === 'ipv4') return !IPV4_REFUSED.some(([base, bits]) => inV4(host.value, base, bits))
  if (host.kind === 'ipv6') {
    if (!inV6(host.pieces, 0x2000, 0, 3)) return false
    return !IPV6_REFUSED_IN_GLOBAL.some(([a, b, bits]) => inV6(host.pieces, a, b, bits))
  }
  return false
}
