// One lead's text from a template: spintax spun, {name} and {username} filled in from the lead's
// profile. The runner sends it and the wizard's preview for a real lead shows it (one implementation).
import { spin } from './spintax.ts'

export interface LeadIdentity {
  username: string
  profile: Record<string, unknown>
}

const NAME_KEYS = ['first_name', 'display_name', 'full_name', 'name'] as const

/** The lead's first name as people would write it, or null when the profile has none usable. */
export function firstNameOf(profile: Record<string, unknown>): string | null {
  for (const key of NAME_KEYS) {
    const value = profile[key]
    if (typeof value !== 'string') continue
    const first = value
      .trim()
      .split(/\s+/)[0]
      ?.replace(/^[^\p{L}]+|[^\p{L}'’-]+$/gu, '')
    if (first && /\p{L}/u.test(first) && first.length <= 30) return first
  }
  return null
}

/** {name} and {username} (any case) filled in; the username is the fallback for a missing name. */
export function fillPlaceholders(text: string, lead: LeadIdentity): string {
  const name = firstNameOf(lead.profile) ?? lead.username
  return text.replace(/\{(name|username)\}/gi, (_, key: string) =>
    key.toLowerCase() === 'name' ? name : lead.username,
  )
}

/** A template spun and personalised for one lead, or null when nothing is left to send. */
export function renderTemplate(template: string, lead: LeadIdentity, random: () => number): string | null {
  const text = fillPlaceholders(spin(template, random), lead).trim()
  return text === '' ? null : text
}
