// Checks on AI-written text before it may go out in a customer's name. The text can carry words a
// stranger chose (a lead's bio or post is part of the prompt), so the checks read it the way a
// person reading the DM would, not byte for byte:
// - banned phrases are matched after normalising: NFKC (fullwidth, mathematical and enclosed
//   letters), accents dropped, format characters (zero-width spaces and joiners, soft hyphens,
//   bidi marks) removed, Latin look-alikes from Cyrillic, Greek and small capitals folded to Latin,
//   case folded, and any run of spaces or punctuation treated as one word break, so
//   `Click\u00a0here`, `Сlick here` (Cyrillic С), `cl\u200bick here` and `c l i c k here` all match
//   "click here" while `exact nowadays` does not match "act now";
// - links, @handles and e-mail addresses are refused unless the text the customer wrote (the
//   template, their offer) contains them: the AI must never be a way to put a stranger's link into
//   a customer's message.

/** Phrases no DM of ours may contain: AI refusals and spam triggers. */
export const BANNED_PHRASES = [
  'as an ai',
  'language model',
  "i can't help",
  'i cannot help',
  "i can't assist",
  'i cannot assist',
  'guaranteed results',
  'risk-free',
  'risk free',
  'click here',
  'act now',
  'limited time offer',
  '100% free',
] as const

/**
 * Letters from other scripts that read as Latin ones (the common part of Unicode's confusables),
 * as pairs: Cyrillic, Greek, then Latin letters and small capitals that NFKC leaves alone.
 */
const LOOK_ALIKES = new Map(
  `аa вb сc ԁd еe ёe һh нh іi їi јj кk ӏl мm пn оo рp ԛq гr ѕs тt ѵv ԝw хx уy үy
  αa βb ϲc δd εe ηn ιi ϳj κk μu νv οo ρp τt υu χx γy ζz ωw
  ıi ȷj ɑa ɡg ɩi ʟl ᴀa ʙb ᴄc ᴅd ᴇe ғf ɢg ʜh ɪi ᴊj ᴋk ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz ĸk øo đd ħh łl ŧt`
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.charAt(0), pair.charAt(1)] as const),
)

/** Text as a reader sees it: NFKC, no format characters, no accents, look-alikes folded, lower case. */
export function foldForReading(text: string): string {
  const compatible = text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
  return [...compatible].map((ch) => LOOK_ALIKES.get(ch) ?? ch).join('')
}

/** The words of a text (letters and digits), folded; everything else is a word break. */
const wordsOf = (text: string) =>
  foldForReading(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

/**
 * Whether `phrase` occurs in `words` starting and ending on word boundaries, with the breaks inside
 * it ignored: "click here" is found in [click, here], [clickhere] and [c, l, i, c, k, h, e, r, e].
 */
function containsPhrase(words: string[], phrase: string): boolean {
  const wanted = wordsOf(phrase).join('')
  if (!wanted) return false
  for (let start = 0; start < words.length; start++) {
    let joined = ''
    for (let end = start; end < words.length && joined.length < wanted.length; end++) {
      joined += words[end]
      if (joined === wanted) return true
    }
  }
  return false
}

/** The first banned phrase the text contains as a reader would read it, if any. */
export function bannedPhraseIn(text: string, extra: readonly string[] = []): string | null {
  const words = wordsOf(text)
  return [...BANNED_PHRASES, ...extra].find((phrase) => phrase && containsPhrase(words, phrase)) ?? null
}

/** Top-level domains a bare `name.tld` is taken as a link for (also "Node.js" stays a word). */
const LINK_TLDS = new Set(
  `com net org info biz io co me ly app dev xyz site online top club shop store link click live tv gg
  to cc ru cn uk de fr es it nl pl br in au ca us eu ai sh so la ws pw tk ml ga cf gq su ua kz vn id
  ph tr ir pro page website space tech email ink lol wtf win bid loan work today news one fun icu cyou`
    .split(/\s+/)
    .filter(Boolean),
)

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu
const URL_WITH_SCHEME = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+/gu
const BARE_HOST = /(?<![\p{L}\p{N}@.-])(?:[\p{L}\p{N}-]+\.)+([\p{L}]{2,})((?:\/|:\d|[?#])[^\s<>"']*)?/gu
const HANDLE = /(?<![\p{L}\p{N}_@.])@([\p{L}\p{N}_]{2,30})/gu

export interface ContactRef {
  kind: 'link' | 'email' | 'handle'
  /** As compared: lower case, no scheme, no `www.`, no trailing punctuation or slash. */
  value: string
}

/** Defanged dots (`evil[.]com`, `evil (dot) com`) read as dots, as a reader would. */
const undefang = (text: string) => text.replace(/\s*(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))\s*/giu, '.')

const linkValue = (raw: string) =>
  raw
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[.,;:!?)\]}'"]+$/u, '')
    .replace(/\/$/, '')

/** Every link, e-mail address and @handle in a text, read after folding (fullwidth dots are dots). */
export function contactsIn(text: string): ContactRef[] {
  let rest = undefang(
    text
      .normalize('NFKC')
      .replace(/\p{Cf}/gu, '')
      .replace(/[\u3002\uff61]/gu, '.')
      .toLowerCase(),
  )
  const found: ContactRef[] = []
  rest = rest.replace(EMAIL, (email) => {
    found.push({ kind: 'email', value: email.replace(/[.]+$/, '') })
    return ' '
  })
  rest = rest.replace(URL_WITH_SCHEME, (url) => {
    found.push({ kind: 'link', value: linkValue(url) })
    return ' '
  })
  rest = rest.replace(BARE_HOST, (host, tld: string, path: string | undefined) => {
    // a name with a path is a link whatever its ending; without one, only on a linkable TLD
    if (host.startsWith('www.') || path || LINK_TLDS.has(tld))
      found.push({ kind: 'link', value: linkValue(host) })
    return ' '
  })
  for (const match of rest.matchAll(HANDLE)) found.push({ kind: 'handle', value: `@${match[1]}` })
  return found
}

/**
 * The first link, e-mail address or @handle in `text` that none of `allowedFrom` (what the customer
 * wrote) contains, or null. A link is allowed when a link of the customer's has the same host and
 * path, or is on that host (the AI may shorten acme.com/demo to acme.com).
 */
export function foreignContactIn(text: string, allowedFrom: readonly string[]): ContactRef | null {
  const allowed = allowedFrom.flatMap(contactsIn)
  const hostOf = (link: string) => link.split(/[/:?#]/)[0] ?? link
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
