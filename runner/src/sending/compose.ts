// The text one lead gets: the campaign's message for the lead's step, spintax spun ({Hi|Hello}),
// {name} and {username} filled in. A lead without a usable first name gets the campaign's
// no-first-name message when there is one. Which opening variant a lead gets is variants.ts's call.
// Pure functions: the randomness is passed in. Spinning is shared with the web app's preview.

import { spin } from '@reachflow/domain'

export { spin }

export interface Sequences {
  messages: string[]
  noFirstnameMessage?: string
  followUpEnabled?: boolean
  followUpMessages?: string[]
  followUpDays?: number
}

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

const nonBlank = (texts: unknown): string[] =>
  Array.isArray(texts) ? texts.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : []

/** The non-blank opening messages, in order: the variants A, B, ... a lead's first DM is chosen from. */
export const openingTexts = (sequences: Sequences): string[] => nonBlank(sequences.messages)

/** Which text a step uses: an opening variant (its slot among the non-blank messages), the no-first-name message, or a follow-up. */
export interface TemplateChoice {
  template: string
  kind: 'opening' | 'no_name' | 'follow_up'
  slot: number
}

/**
 * The template for a step (0 = first message) with the opening variant at `openingSlot`, or null
 * when the sequence has no such step.
 */
export function chooseTemplate(
  sequences: Sequences,
  step: number,
  hasName: boolean,
  openingSlot: number,
): TemplateChoice | null {
  if (step === 0) {
    const chosen = openingTexts(sequences)[openingSlot] ?? null
    const fallback = sequences.noFirstnameMessage?.trim() ? sequences.noFirstnameMessage : null
    if (!hasName && fallback && (chosen === null || /\{name\}/i.test(chosen)))
      return { template: fallback, kind: 'no_name', slot: 0 }
    return chosen === null ? null : { template: chosen, kind: 'opening', slot: openingSlot }
  }
  if (!sequences.followUpEnabled) return null
  const template = nonBlank(sequences.followUpMessages)[step - 1]
  return template === undefined ? null : { template, kind: 'follow_up', slot: step - 1 }
}

/** The template for a step, the opening variant picked at random. */
export function templateFor(
  sequences: Sequences,
  step: number,
  hasName: boolean,
  random: () => number,
): string | null {
  const slot = step === 0 ? Math.floor(random() * openingTexts(sequences).length) : 0
  return chooseTemplate(sequences, step, hasName, slot)?.template ?? null
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

/** The message for a lead's step, or null when the step has no message. */
export function composeMessage(
  sequences: Sequences,
  step: number,
  lead: LeadIdentity,
  random: () => number = Math.random,
): string | null {
  const template = templateFor(sequences, step, firstNameOf(lead.profile) !== null, random)
  return template === null ? null : renderTemplate(template, lead, random)
}
