// A platform pack: every fact the runner's adapters read about one site (paths, selectors,
// markers, texts, regexes as {source, flags}, page sizes), as one JSON object with a `version`.
// The runner's code holds the default; operators may publish an override without a deploy. An
// override is only safe when the adapters can read it exactly like the default, so a pack is valid
// when it has the default's shape: the same keys, the same kind of value at every path, non-empty
// strings, regexes that compile; and when it cannot point the runner elsewhere or stall it: paths
// stay on the platform's own site, the site's address is the default's, no regex can backtrack
// catastrophically (./pack-safety.ts). Pure TypeScript: the admin function and the runner share it.
import { catastrophicGroupAt, isPlatformPath } from './pack-safety.ts'

/** The platforms packs exist for, by their names in `public.platforms`. */
export const PACK_PLATFORMS = ['twitter', 'instagram'] as const
export type PackPlatform = (typeof PACK_PLATFORMS)[number]

/** The largest pack accepted (JSON text): far above any real pack, low enough for the database. */
export const MAX_PACK_BYTES = 256 * 1024

export interface PackIssue {
  /** Where, as a person reads it: `selectors.composer`, `signalTexts[2].pattern`. */
  path: string
  message: string
}

/** At most this many issues are listed: after that the pack is plainly not for this platform. */
const MAX_ISSUES = 50

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A regex fact: exactly `{source, flags}`, both strings. */
export function isRegexFact(value: unknown): value is { source: string; flags: string } {
  return (
    isObject(value) &&
    Object.keys(value).length === 2 &&
    typeof value.source === 'string' &&
    typeof value.flags === 'string'
  )
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return path ? `${path}.${key}` : key
}

/** What kind of value sits at a path of the default, for messages and for comparing list items. */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `list of ${value.length === 0 ? 'nothing' : kindOf(value[0])}`
  if (isRegexFact(value)) return 'regex'
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${k}:${kindOf(value[k])}`)
      .join(',')}}`
  return typeof value
}

function expectation(reference: unknown): string {
  if (reference === null) return 'null'
  if (Array.isArray(reference)) return 'a list'
  if (isRegexFact(reference)) return 'a regex {source, flags}'
  if (isObject(reference)) return 'an object'
  if (typeof reference === 'string') return 'a non-empty string'
  if (typeof reference === 'number') return numberRule(reference)
  return `a ${typeof reference}`
}

function numberRule(reference: number): string {
  const whole = Number.isInteger(reference)
  if (reference > 0) return whole ? 'a whole number greater than 0' : 'a number greater than 0'
  if (reference === 0) return whole ? 'a whole number of 0 or more' : 'a number of 0 or more'
  return whole ? 'a whole number' : 'a number'
}

function numberFits(value: number, reference: number): boolean {
  if (!Number.isFinite(value)) return false
  if (Number.isInteger(reference) && !Number.isInteger(value)) return false
  if (reference > 0) return value > 0
  if (reference === 0) return value >= 0
  return true
}

const REGEX_FLAGS = /^(?!.*(.).*\1)[dgimsuvy]*$/

function checkRegex(candidate: unknown, path: string, issues: PackIssue[]): void {
  if (!isRegexFact(candidate)) {
    issues.push({ path, message: `${path} must be a regex {source, flags}` })
    return
  }
  if (!candidate.source) {
    issues.push({ path: join(path, 'source'), message: `${join(path, 'source')} must not be empty` })
    return
  }
  if (!REGEX_FLAGS.test(candidate.flags)) {
    issues.push({
      path: join(path, 'flags'),
      message: `${join(path, 'flags')} must be regex flags (d, g, i, m, s, u, v, y, each once)`,
    })
    return
  }
  try {
    new RegExp(candidate.source, candidate.flags)
  } catch (error) {
    issues.push({
      path,
      message: `${path} is not a valid regex: ${error instanceof Error ? error.message : String(error)}`,
    })
    return
  }
  if (catastrophicGroupAt(candidate.source) >= 0)
    issues.push({
      path,
      message: `${path} can take exponential time (a repeated group that itself repeats or has alternatives); rewrite it without nesting`,
    })
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** A string fact: non-empty; a path where the default is one; the default's site where it is an address. */
function checkString(
  candidate: unknown,
  reference: string,
  where: string,
  path: string,
  issues: PackIssue[],
) {
  if (typeof candidate !== 'string' || candidate.trim() === '')
    issues.push({ path, message: `${where} must be a non-empty string` })
  else if (reference.startsWith('/') && !isPlatformPath(candidate))
    issues.push({
      path,
      message: `${where} must be a path on the platform's own site, starting with a single /`,
    })
  else if (/^https?:\/\//.test(reference) && originOf(candidate) !== originOf(reference))
    issues.push({ path, message: `${where} must be ${reference}` })
}

function check(candidate: unknown, reference: unknown, path: string, issues: PackIssue[]): void {
  if (issues.length >= MAX_ISSUES) return
  const where = path || 'The pack'
  if (isRegexFact(reference)) {
    checkRegex(candidate, where, issues)
    return
  }
  if (Array.isArray(reference)) {
    checkList(candidate, reference, where, path, issues)
    return
  }
  if (isObject(reference)) {
    if (!isObject(candidate) || isRegexFact(candidate)) {
      issues.push({ path, message: `${where} must be an object` })
      return
    }
    for (const key of Object.keys(reference)) {
      if (!(key in candidate))
        issues.push({ path: join(path, key), message: `${join(path, key)} is missing` })
      else check(candidate[key], reference[key], join(path, key), issues)
    }
    for (const key of Object.keys(candidate)) {
      if (!(key in reference))
        issues.push({
          path: join(path, key),
          message: `${join(path, key)} is not a fact the runner knows (remove it)`,
        })
    }
    return
  }
  if (typeof reference === 'string') {
    checkString(candidate, reference, where, path, issues)
    return
  }
  if (typeof reference === 'number') {
    if (typeof candidate !== 'number' || !numberFits(candidate, reference))
      issues.push({ path, message: `${where} must be ${numberRule(reference)}` })
    return
  }
  if (typeof candidate !== typeof reference || (reference === null) !== (candidate === null))
    issues.push({ path, message: `${where} must be ${expectation(reference)}` })
}

/**
 * A list of the default's is either uniform (every item the same kind: any number of items of
 * that kind, at least one when the default has some) or a fixed tuple (same length, item by item).
 */
function checkList(
  candidate: unknown,
  reference: unknown[],
  where: string,
  path: string,
  issues: PackIssue[],
): void {
  if (!Array.isArray(candidate)) {
    issues.push({ path, message: `${where} must be a list` })
    return
  }
  if (reference.length === 0) {
    if (candidate.length > 0) issues.push({ path, message: `${where} must be an empty list` })
    return
  }
  const kinds = new Set(reference.map(kindOf))
  if (kinds.size === 1) {
    if (candidate.length === 0) issues.push({ path, message: `${where} must not be empty` })
    candidate.forEach((item, i) => {
      check(item, reference[0], join(path, i), issues)
    })
    return
  }
  if (candidate.length !== reference.length) {
    issues.push({ path, message: `${where} must have exactly ${reference.length} items` })
    return
  }
  candidate.forEach((item, i) => {
    check(item, reference[i], join(path, i), issues)
  })
}

/**
 * Why `candidate` cannot stand in for `reference` (the code default's facts), or [] when it can.
 * Issues name their path; at most 50 are listed.
 */
export function packIssues(candidate: unknown, reference: unknown): PackIssue[] {
  const issues: PackIssue[] = []
  check(candidate, reference, '', issues)
  if (issues.length === 0 && isObject(candidate) && typeof candidate.version !== 'string')
    issues.push({ path: 'version', message: 'version must be a non-empty string' })
  return issues.slice(0, MAX_ISSUES)
}

/** The pack's version (its facts' `version`), or null when it has none. */
export function packVersion(facts: unknown): string | null {
  return isObject(facts) && typeof facts.version === 'string' && facts.version.trim()
    ? facts.version.trim()
    : null
}

/** The size of the pack as stored (JSON text), to refuse absurd ones before comparing anything. */
export function packBytes(facts: unknown): number {
  return new TextEncoder().encode(JSON.stringify(facts) ?? '').length
}

/** Shape check for JSON that came in as text: parse errors say where, as JSON.parse reports it. */
export function parsePackText(text: string): { ok: true; facts: Json } | { ok: false; message: string } {
  try {
    return { ok: true, facts: JSON.parse(text) as Json }
  } catch (error) {
    return {
      ok: false,
      message: `The pack is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}
