// The text one lead gets: the campaign's message for the lead's step, spintax spun ({Hi|Hello}),
// {name} and {username} filled in. A lead without a usable first name gets the campaign's
// no-first-name message when there is one. Which opening variant a lead gets is variants.ts's call.
// Pure functions: the randomness is passed in.

import { firstNameOf, type LeadIdentity, renderTemplate } from '@reachflow/domain'

// the lead's text is rendered by the domain package, so the wizard's preview renders it the same way
export { fillPlaceholders, firstNameOf, type LeadIdentity, renderTemplate, spin } from '@reachflow/domain'

export interface Sequences {
  messages: string[]
  noFirstnameMessage?: string
  followUpEnabled?: boolean
  followUpMessages?: string[]
  followUpDays?: number
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
