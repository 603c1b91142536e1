// Ways to write a host that a reviewer (or an attacker) would try on a proxy field: IPv4 in one to
// five parts, each decimal, octal, hex or broken; IPv6 with every compression, leading zeros, case,
// a dotted tail and the prefixes that embed IPv4 (mapped, SIIT, compatible, NAT64, 6to4, Teredo);
// names with trailing dots, local suffixes and case; and junk with percent-encoding, IDNA-mapped
// characters, zone ids and separators. Used by the property tests of the shared host parser.
import fc from 'fast-check'

/** Addresses the tests care most about: loopback, private, metadata, the review's 10.63.0.1, public. */
const INTERESTING_V4 = [
  0x7f000001, 0x0a3f0001, 0x0c3f0001, 0xa9fea9fe, 0, 0xffffffff, 0xc0a80001, 0xac100001, 0x64400001,
  0x08080808, 0xcb007107, 0xc00000aa, 0xe0000001,
]

const v4Value = fc.oneof(fc.constantFrom(...INTERESTING_V4), fc.integer({ min: 0, max: 0xffffffff }))

type Style = 'dec' | 'oct' | 'hex' | 'HEX' | 'padded-hex' | 'bad-oct'
const style = fc.constantFrom<Style>('dec', 'dec', 'oct', 'hex', 'HEX', 'padded-hex', 'bad-oct')

function renderPart(n: number, how: Style, extraZeros: number): string {
  switch (how) {
    case 'dec':
      return String(n)
    case 'oct':
      return `${'0'.repeat(1 + extraZeros)}${n.toString(8)}`
    case 'hex':
      return n === 0 && extraZeros > 1 ? '0x' : `0x${n.toString(16)}`
    case 'HEX':
      return `0X${n.toString(16).toUpperCase()}`
    case 'padded-hex':
      return `0x${'0'.repeat(extraZeros)}${n.toString(16)}`
    case 'bad-oct':
      return `0${n}9`
  }
}

/** IPv4 written with 1-4 parts from a real address (mostly valid, some broken by style). */
const v4FromValue = fc
  .record({
    value: v4Value,
    parts: fc.integer({ min: 1, max: 4 }),
    styles: fc.array(style, { minLength: 4, maxLength: 4 }),
    zeros: fc.integer({ min: 0, max: 3 }),
    trailingDot: fc.boolean(),
  })
  .map(({ value, parts, styles, zeros, trailingDot }) => {
    const numbers: number[] = []
    for (let i = 0; i < parts - 1; i++) numbers.push(Math.floor(value / 2 ** (24 - 8 * i)) % 256)
    numbers.push(value % 2 ** (32 - 8 * (parts - 1)))
    const text = numbers.map((n, i) => renderPart(n, styles[i] ?? 'dec', zeros)).join('.')
    return trailingDot ? `${text}.` : text
  })

/** IPv4-looking text from arbitrary numbers: too many parts, parts out of range, empty parts. */
const v4Arbitrary = fc
  .record({
    numbers: fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 33 })), {
      minLength: 1,
      maxLength: 5,
    }),
    styles: fc.array(style, { minLength: 5, maxLength: 5 }),
    empty: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    trailingDots: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ numbers, styles, empty, trailingDots }) => {
    const parts = numbers.map((n, i) => renderPart(n, styles[i] ?? 'dec', 0))
    if (empty !== undefined && empty < parts.length) parts[empty] = ''
    return parts.join('.') + '.'.repeat(trailingDots)
  })

/** Prefixes that put an IPv4 address (the last two pieces) or nothing special inside IPv6. */
const V6_TEMPLATES: ((hi: number, lo: number, r: number[]) => number[])[] = [
  (hi, lo) => [0, 0, 0, 0, 0, 0xffff, hi, lo], // mapped
  (hi, lo) => [0, 0, 0, 0, 0xffff, 0, hi, lo], // SIIT
  (hi, lo) => [0, 0, 0, 0, 0, 0, hi, lo], // compatible
  (hi, lo) => [0x64, 0xff9b, 0, 0, 0, 0, hi, lo], // NAT64
  (hi, lo) => [0x64, 0xff9b, 1, 0, 0, 0, hi, lo], // local-use NAT64
  (hi, lo, r) => [0x2002, hi, lo, ...r.slice(0, 5)], // 6to4
  (hi, lo, r) => [0x2001, 0, r[0] ?? 0, r[1] ?? 0, 0, 0, hi ^ 0xffff, lo ^ 0xffff], // Teredo
  (_hi, _lo, r) => [0xfe80, 0, 0, 0, ...r.slice(0, 4)], // link-local
  (_hi, _lo, r) => [0xfd00 | ((r[0] ?? 0) & 0xff), ...r.slice(1, 8)], // unique local
  (_hi, _lo, r) => [0x2001, 0x4860, 0x4860, 0, 0, 0, 0, r[0] ?? 0x8888], // public
  (_hi, _lo, r) => [0x2a00 | ((r[0] ?? 0) & 0xff), 0x1450, 0, 0, 0, 0, 0, r[1] ?? 1], // public
  (_hi, _lo, r) => [0x2001, 0xdb8, ...r.slice(0, 6)], // documentation
  () => [0, 0, 0, 0, 0, 0, 0, 1], // loopback
  () => [0, 0, 0, 0, 0, 0, 0, 0],
  (_hi, _lo, r) => r.slice(0, 8), // anything
]

const piece = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff }))

const v6Pieces = fc
  .record({
    template: fc.integer({ min: 0, max: V6_TEMPLATES.length - 1 }),
    v4: v4Value,
    random: fc.array(piece, { minLength: 8, maxLength: 8 }),
  })
  .map(
    ({ template, v4, random }) =>
      (V6_TEMPLATES[template] ?? V6_TEMPLATES[0])?.(Math.floor(v4 / 0x10000), v4 % 0x10000, random) ?? [],
  )

/** IPv6 in brackets: any zero run compressed (or none), padded or upper-case pieces, a dotted tail. */
const v6Written = fc
  .record({
    pieces: v6Pieces,
    compressAt: fc.integer({ min: -1, max: 7 }),
    pad: fc.boolean(),
    upper: fc.boolean(),
    dotted: fc.boolean(),
    dottedZeros: fc.boolean(),
    mutation: fc.constantFrom('', '', '', '', '%25eth0', ':', '::1', 'g', ':1'),
  })
  .map(({ pieces, compressAt, pad, upper, dotted, dottedZeros, mutation }) => {
    const hex = (n: number) => {
      const text = pad ? n.toString(16).padStart(4, '0') : n.toString(16)
      return upper ? text.toUpperCase() : text
    }
    let end = compressAt
    while (end >= 0 && end < 8 && pieces[end] === 0) end++
    const compress = compressAt >= 0 && end > compressAt ? [compressAt, end] : null
    const dottedTail = dotted && (!compress || (compress[1] ?? 0) <= 6)
    const items = pieces.slice(0, dottedTail ? 6 : 8).map(hex)
    let tail = ''
    if (dottedTail) {
      const bytes = [pieces[6] ?? 0, pieces[7] ?? 0].flatMap((p) => [p >> 8, p & 255])
      tail = bytes.map((b) => (dottedZeros && b < 100 ? `0${b}` : String(b))).join('.')
    }
    let text: string
    if (compress) {
      const [from = 0, to = 0] = compress
      const head = items.slice(0, from).join(':')
      const rest = [...items.slice(to), ...(tail ? [tail] : [])].join(':')
      text = `${head}::${rest}`
    } else text = [...items, ...(tail ? [tail] : [])].join(':')
    return `[${text}${mutation}]`
  })

const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'lan',
  'localdomain',
  'home.arpa',
  'example.com',
  'com',
]

/** Names: lowercase or mixed case labels, a local or ordinary suffix, maybe a trailing dot. */
const nameWritten = fc
  .record({
    labels: fc.array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 0, maxLength: 3 }),
    suffix: fc.constantFrom(...LOCAL_SUFFIXES),
    upper: fc.boolean(),
    trailingDot: fc.boolean(),
  })
  .map(({ labels, suffix, upper, trailingDot }) => {
    const text = [...labels, suffix].join('.') + (trailingDot ? '.' : '')
    return upper ? text.toUpperCase() : text
  })

/** Characters that URL parsers map, decode or refuse: percent, IDNA-mapped look-alikes, separators. */
const JUNK_CHARS = [
  ...'0178ax.-_%2eE',
  '%2e',
  '%31',
  '%7f',
  '\uff11', // fullwidth 1
  '\uff0e', // fullwidth full stop: IDNA maps it to "."
  '\u3002', // ideographic full stop, also "."
  '\u24db', // ⓛ
  '\u00ad', // soft hyphen: IDNA deletes it
  '\u200b', // zero width space
  '\u0661', // Arabic-Indic one
  'ß',
  '[',
  ']',
  ':',
  '@',
  ' ',
]

const junk = fc.array(fc.constantFrom(...JUNK_CHARS), { minLength: 1, maxLength: 14 }).map((c) => c.join(''))

export const addressForms = {
  ipv4: fc.oneof(v4FromValue, v4FromValue, v4Arbitrary),
  ipv6: v6Written,
  name: nameWritten,
  junk,
}

/** Every family, weighted towards the literal forms where the bypasses were. */
export const anyAddressForm = fc.oneof(
  { arbitrary: addressForms.ipv4, weight: 4 },
  { arbitrary: addressForms.ipv6, weight: 4 },
  { arbitrary: addressForms.name, weight: 1 },
  { arbitrary: addressForms.junk, weight: 2 },
)

/** The forms found in review and the ones a reviewer would try next (regression cases). */
export const REVIEW_BYPASSES = [
  '012.63.0.1',
  '[::ffff:0:127.0.0.1]',
  '[::ffff:0:a9fe:a9fe]',
  '[2002:7f00:1::]',
  '[64:ff9b::127.0.0.1]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  '[::127.0.0.1]',
  '[::ffff:127.0.0.1]',
  '2130706433',
  '0x7f000001',
  '0x7f.1',
  '127.1',
  '127.0.0.1.',
  '0177.0.0.1',
  '0',
  '%31%32%37.0.0.1',
  '\uff11\uff12\uff17.0.0.1',
  'lo\u00adcalhost',
  '127\u30020\u30020\u30021',
  '[fe80::1%25eth0]',
  'localhost.',
  '169.254.169.254.',
  '0xa9.0xfe.0xa9.0xfe',
]
