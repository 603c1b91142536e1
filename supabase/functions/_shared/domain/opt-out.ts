// Opt-out words: which replies put a person on the customer's do-not-contact list. Two lists, as a
// reader would judge a reply: words that opt out wherever they appear ("unsubscribe", "remove me")
// and words that opt out only at the start of a short reply ("stop", "stop please", "STOP!", but not
// "stop by our booth next week" or "don't stop"). Pure TypeScript: the runner judges replies with
// it, the web app validates the customer's edits and lets them try a reply; the database checks the
// same rules on write (internal.check_opt_out_words).

export interface OptOutWords {
  /** Opt out wherever they appear in a reply, as whole words. */
  anywhere: string[]
  /** Opt out when a reply starts with them and has at most SHORT_REPLY_EXTRA_WORDS more words. */
  atStart: string[]
}

export const DEFAULT_OPT_OUT_WORDS: OptOutWords = { anywhere: ['unsubscribe'], atStart: ['stop'] }

/** "stop", "stop please", "stop messaging me": a short reply is the word and at most two more. */
export const SHORT_REPLY_EXTRA_WORDS = 2
export const MAX_OPT_OUT_WORDS = 20
export const MAX_OPT_OUT_WORD_LENGTH = 40

/** Letters and digits of any script, single spaces between words, ' and - inside words. */
const WORD_PATTERN = /^[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*(?: [\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*)*$/u

/** A reply or a word as words: lower case, punctuation dropped (apostrophes and hyphens kept inside words). */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/[^\p{L}\p{N}'\-\s]/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter(Boolean)
}

/** An edited word as it is stored: trimmed, lower case, single spaces. */
export function normaliseOptOutWord(word: string): string {
  return word.trim().toLowerCase().replace(/\s+/g, ' ').replace(/’/g, "'")
}

/** What is wrong with one word or phrase, or null. */
export function optOutWordProblem(word: string): string | null {
  const normalised = normaliseOptOutWord(word)
  if (normalised === '') return 'An opt-out word cannot be empty.'
  if (normalised.length > MAX_OPT_OUT_WORD_LENGTH)
    return `"${normalised.slice(0, 20)}…" is too long: at most ${MAX_OPT_OUT_WORD_LENGTH} characters.`
  if (!WORD_PATTERN.test(normalised)) return `"${normalised}" can only hold letters, digits, spaces, ' and -.`
  return null
}

/** What is wrong with the two lists together, or null. */
export function optOutWordsProblem(words: OptOutWords): string | null {
  for (const list of [words.anywhere, words.atStart]) {
    if (list.length > MAX_OPT_OUT_WORDS) return `Each list holds at most ${MAX_OPT_OUT_WORDS} words.`
    for (const word of list) {
      const problem = optOutWordProblem(word)
      if (problem) return problem
    }
  }
  if (words.anywhere.length + words.atStart.length === 0)
    return 'Keep at least one opt-out word: people must always be able to say stop.'
  return null
}

function startsWith(text: string[], phrase: string[]): boolean {
  return phrase.length > 0 && phrase.every((word, i) => text[i] === word)
}

function contains(text: string[], phrase: string[]): boolean {
  if (phrase.length === 0) return false
  for (let i = 0; i + phrase.length <= text.length; i++) if (startsWith(text.slice(i), phrase)) return true
  return false
}

/** The word or phrase that makes this reply an opt-out, or null when it is an ordinary reply. */
export function optOutMatch(text: string, words: OptOutWords = DEFAULT_OPT_OUT_WORDS): string | null {
  const reply = wordsOf(text)
  for (const word of words.anywhere) if (contains(reply, wordsOf(word))) return word
  for (const word of words.atStart) {
    const phrase = wordsOf(word)
    if (startsWith(reply, phrase) && reply.length <= phrase.length + SHORT_REPLY_EXTRA_WORDS) return word
  }
  return null
}

export function isOptOut(text: string, words: OptOutWords = DEFAULT_OPT_OUT_WORDS): boolean {
  return optOutMatch(text, words) !== null
}
