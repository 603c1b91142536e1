// What in a text reads as a way to reach someone: a link, a domain, an IP address, an e-mail
// address or a social handle. AI-written text may carry only the ones the customer wrote (an
// allowlist): a lead's bio is part of the prompt, so anything else may be a stranger's. Reading is
// generous on purpose, as a person reading the DM would: fullwidth and look-alike dots, "dot" spelled
// out or bracketed, spaces before a dot, domains on any IANA ending, bare IPs, `name@host` without an
// ending and `IG: handle` without the @ all count. A false alarm costs one personalised sentence
// (the template goes out instead); a miss puts a stranger's link in a customer's name.
import { TOP_LEVEL_DOMAINS } from './tlds.ts'

export interface ContactRef {
  kind: 'link' | 'email' | 'handle'
  /** As compared: lower case, no scheme, no `www.`, no trailing punctuation or slash. */
  value: string
}

/** Characters that read as a full stop between two names (NFKC already made ．﹒․ into "."). */
const LOOK_ALIKE_DOTS =
  /\s*[\u00b7\u0387\u2022\u2027\u2219\u22c5\u2e31\u2e33\u30fb\uff65\u3002\uff61\u318d\ua78f]\s*/gu
const BRACKETED_DOT = /\s*[[({<]\s*(?:dot|\.)\s*[\])}>]\s*/gu
const SPELLED_DOT = /(?<=[\p{L}\p{N}])\s*-?\s*\bdot\b\s*-?\s*(?=[\p{L}\p{N}])/gu
const SPACED_DOT = /(?<=[\p{L}\p{N}])\s+\.\s*(?=[\p{L}\p{N}])/gu
const BRACKETED_AT = /\s*[[({<]\s*(?:at|@)\s*[\])}>]\s*/gu

/** The text with every spelling of "." and "@" a reader would take as one written as one. */
function asReaderTakesIt(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .toLowerCase()
    .replace(LOOK_ALIKE_DOTS, '.')
    .replace(BRACKETED_DOT, '.')
    .replace(SPELLED_DOT, '.')
    .replace(SPACED_DOT, '.')
    .replace(BRACKETED_AT, '@')
}

const URL_WITH_SCHEME = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+/gu
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*/gu
const IPV4 =
  /(?<![\p{L}\p{N}.])\d{1,3}(?:\.\d{1,3}){3}(?![\p{L}\p{N}]|\.\d)(?:(?::\d{1,5})?[/?#][^\s<>"']*|:\d{1,5})?/gu
const IPV6 = /\[[0-9a-f:.]{2,45}\](?::\d{1,5})?(?:[/?#][^\s<>"']*)?/gu
const BARE_HOST =
  /(?<![\p{L}\p{N}@.-])(?:[\p{L}\p{N}-]+\.)+(xn--[a-z0-9-]+|\p{L}{2,})(?![\p{L}\p{N}-])((?::\d{1,5})?[/?#][^\s<>"']*|:\d{1,5})?/gu
const HANDLE = /(?<![\p{L}\p{N}_@.])@([\p{L}\p{N}_.]{2,30})/gu
/** `IG: name`, `tg - name`, `snapchat=name`: a platform's name, a separator, a handle without @. */
const PLATFORM_HANDLE =
  /\b(?:ig|insta|instagram|x|twitter|tw|tiktok|tt|telegram|tg|snap|snapchat|sc|threads|whatsapp|wa|fb|facebook|discord|kik|wechat|youtube|yt)\s*[:=>\u2013\u2014-]+\s*@?([\p{L}\p{N}_.]{2,30})/gu

const linkValue = (raw: string) =>
  raw
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[.,;:!?)\]}'"]+$/u, '')
    .replace(/\/$/, '')

const handleValue = (name: string) => `@${name.replace(/\.+$/, '')}`

/** Every link, domain, IP, e-mail address and handle in a text, as a reader would take it. */
export function contactsIn(text: string): ContactRef[] {
  const found: ContactRef[] = []
  const take = (pattern: RegExp, source: string, record: (...match: string[]) => ContactRef | null) =>
    source.replace(pattern, (...match: string[]) => {
      const ref = record(...match)
      if (!ref) return match[0] ?? ''
      found.push(ref)
      return ' '
    })
  let rest = asReaderTakesIt(text)
  rest = take(URL_WITH_SCHEME, rest, (url) => ({ kind: 'link', value: linkValue(url) }))
  rest = take(EMAIL, rest, (email) => ({ kind: 'email', value: email.replace(/[.]+$/, '') }))
  rest = take(IPV4, rest, (ip) => ({ kind: 'link', value: linkValue(ip) }))
  rest = take(IPV6, rest, (ip) => ({ kind: 'link', value: linkValue(ip) }))
  rest = take(BARE_HOST, rest, (host, ending = '', path) =>
    // an ending IANA does not delegate (`Node.js`) is a word, unless a path, port or www. says link
    host.startsWith('www.') || path || ending.startsWith('xn--') || TOP_LEVEL_DOMAINS.has(ending)
      ? { kind: 'link', value: linkValue(host) }
      : null,
  )
  rest = take(HANDLE, rest, (_, name = '') => ({ kind: 'handle', value: handleValue(name) }))
  take(PLATFORM_HANDLE, rest, (_, name = '') => ({ kind: 'handle', value: handleValue(name) }))
  return found
}

const hostOf = (link: string) => link.split(/[/:?#]/)[0] ?? link

/**
 * The first link, domain, IP, e-mail address or handle in `text` that none of `allowedFrom` (what
 * the customer wrote: the template, their offer) contains, or null. A link is allowed when the
 * customer wrote the same host and path, or the bare host of one of theirs (the AI may shorten
 * acme.com/demo to acme.com); look-alike letters are not folded here, so `аcme.com` with a Cyrillic
 * а is a different domain, as it is.
 */
export function foreignContactIn(text: string, allowedFrom: readonly string[]): ContactRef | null {
  const allowed = allowedFrom.flatMap(contactsIn)
  return (
    contactsIn(text).find(
      (ref) =>
        !allowed.some(
          (ok) =>
            ok.kind === ref.kind &&
            (ok.value === ref.value || (ref.kind === 'link' && hostOf(ok.value) === ref.value)),
        ),
    ) ?? null
  )
}
