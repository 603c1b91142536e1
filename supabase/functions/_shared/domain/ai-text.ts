// Checks on AI-written text before it may go out in a customer's name. The text can carry words a
// stranger chose (a lead's bio or post is part of the prompt), so the checks read it the way a
// person reading the DM would, not byte for byte:
// - banned phrases are matched on a confusables skeleton (in the manner of Unicode UTS #39): NFKC
//   (fullwidth, mathematical and enclosed letters), accents dropped, format characters (zero-width
//   spaces and joiners, soft hyphens, bidi marks) removed, look-alikes from Cyrillic, Greek,
//   Armenian, Cherokee and Latin extensions folded to Latin, case folded, digits and symbols that
//   stand in for letters folded too (`cl1ck`, `ACT N0W`, `1OO% free`, `$`, `@`), and any run of
//   spaces or punctuation treated as one word break, so `Click\u00a0here`, `Сlick here` (Cyrillic
//   С), `cl\u200bick here` and `c l i c k here` all match "click here" while `exact nowadays` does
//   not match "act now";
// - links, domains, IPs, e-mail addresses and handles are allowed only when the text the customer
//   wrote contains them (contacts.ts): the AI must never be a way to put a stranger's link into a
//   customer's message.
export { type ContactRef, contactsIn, foreignContactIn } from './contacts.ts'

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
 * as pairs: Cyrillic, Greek (capitals that lower-case to another shape too), Armenian, Cherokee (capitals; their small forms are added below),
 * then Latin letters, small capitals and hooked or barred letters that NFKD leaves alone.
 */
const LOOK_ALIKE_PAIRS = `аa вb сc ԁd еe ёe һh нh іi їi јj кk ӏl мm пn оo рp ԛq гr ѕs тt ѵv ԝw хx уy үy ԍg
  αa βb ϲc δd εe ηn ιi ϳj κk μu νv οo ρp ϱp τt υu χx γy ζz ωw Ηh Μm Νn Υy
  աw գq զq հh յj լl ոn ռn սu ցg օo Լl Սu Տs Օo
  Ꭺa Ᏼb Ꮯc Ꭰd Ꭼe Ꮐg Ꮋh Ꭵi Ꭻj Ꮶk Ꮮl Ꮇm Ꮎo Ꮲp Ꭱr Ꮪs Ꭲt Ꮩv Ꮃw Ꭹy Ꮓz
  ıi ȷj ɑa ɡg ɩi ʟl ᴀa ʙb ᴄc ᴅd ᴇe ғf ɢg ʜh ɪi ᴊj ᴋk ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz ĸk øo đd ħh łl ŧt
  ƀb ɓb ƈc ȼc ɗd ɇe ɛe ƒf ɠg ǥg ɦh ɨi ɉj ƙk ƚl ǀl ɱm ɲn ɵo ƥp ʠq ɍr ɽr ʂs ƭt ʉu ʋv ⱳw ƴy ɏy ȥz ƶz`
  .split(/\s+/)
  .filter(Boolean)
  .map((pair) => [pair.charAt(0), pair.charAt(1)] as const)

const LOOK_ALIKES = new Map(
  LOOK_ALIKE_PAIRS.flatMap(([from, to]) => {
    // Cherokee capitals lower-case to Cherokee small letters (U+AB70…), which look the same
    const small = from.toLowerCase()
    return small === from ? [[from, to] as const] : [[from, to] as const, [small, to] as const]
  }),
)

const foldLookAlikes = (text: string) => [...text].map((ch) => LOOK_ALIKES.get(ch) ?? ch).join('')

/** Text as a reader sees it: NFKC, no format characters, no accents, look-alikes folded, lower case. */
export function foldForReading(text: string): string {
  const compatible = text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
  return foldLookAlikes(foldLookAlikes(compatible).toLowerCase())
}

/** Digits read as the letters they stand in for; i, l and 1 are one shape, as are rn and m. */
const DIGIT_LETTERS: Record<string, string> = {
  '0': 'o',
  '1': 'l',
  i: 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
}

/** One word's skeleton: what two words that read alike have in common. */
const skeletonOfWord = (word: string) =>
  [...word]
    .map((ch) => DIGIT_LETTERS[ch] ?? ch)
    .join('')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')

/** The words of a text (letters and digits), folded; everything else is a word break. */
const wordsOf = (text: string) =>
  foldForReading(text)
    // symbols that stand in for a letter inside a word (`cl!ck`, `@ct`, `fr$e`) are that letter
    .replace(/(?<=[\p{L}\p{N}])[!|](?=[\p{L}\p{N}])/gu, 'l')
    .replace(/@(?=[\p{L}\p{N}])/gu, 'a')
    .replace(/\$(?=[\p{L}\p{N}])/gu, 's')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(skeletonOfWord)

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
