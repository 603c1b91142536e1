// Per-variant results of a DM campaign: the rows of rpc/campaign_variant_stats, their
// labels (Variant A, B, ...), and a plain-language hint of how sure the numbers are, from the same
// statistics the runner uses to choose a winner.

import type { RpcResult } from '@reachflow/db'
import { compareVariants, MIN_SENDS_PER_VARIANT, WINNER_CONFIDENCE, wilsonInterval } from '@reachflow/domain'
import { formatCount } from '@/lib/format'

/** One row of rpc/campaign_variant_stats (docs/database.md). */
export type VariantRow = RpcResult<'campaign_variant_stats'>[number]

/** How sure the leader must be before the hint says "likely better". */
const LIKELY_CONFIDENCE = 0.8

export const variantLetter = (slot: number): string =>
  slot < 26 ? String.fromCharCode(65 + slot) : String(slot + 1)

export function variantLabel(row: VariantRow): string {
  switch (row.kind) {
    case 'opening':
      return row.current_slot !== null
        ? `Variant ${variantLetter(row.current_slot)}`
        : `Earlier text (was ${variantLetter(row.first_slot ?? 0)})`
    case 'no_name':
      return 'No-name message'
    case 'follow_up':
      return row.current_slot !== null ? `Follow-up ${row.step}` : `Follow-up ${row.step} (earlier text)`
    default:
      return row.step === 0 ? 'Unknown variant' : `Follow-up ${row.step} (unknown text)`
  }
}

/** Reply rate in percent with one decimal; 0 without sends. */
export const replyRatePercent = (row: Pick<VariantRow, 'sent' | 'replies'>): number =>
  row.sent === 0 ? 0 : Math.round((row.replies / row.sent) * 1000) / 10

/** The 95% range the true reply rate is likely in, as "12–31%"; null without sends. */
export function likelyRange(row: Pick<VariantRow, 'sent' | 'replies'>): string | null {
  if (row.sent === 0) return null
  const [low, high] = wilsonInterval(row)
  return `${Math.round(low * 100)}–${Math.round(high * 100)}%`
}

/** The opening variants being sent now, by slot (the ones a winner is chosen from). */
export const currentOpenings = (rows: readonly VariantRow[]): VariantRow[] =>
  rows
    .filter((r) => r.kind === 'opening' && r.current_slot !== null)
    .sort((a, b) => (a.current_slot ?? 0) - (b.current_slot ?? 0))

const percent = (confidence: number) => Math.min(99, Math.floor(confidence * 100))

/**
 * How sure the figures are, in words: which variant is (likely) better and how sure, or how many
 * more sends it would take to tell; null with fewer than two opening variants.
 */
export function confidenceHint(rows: readonly VariantRow[]): string | null {
  const openings = currentOpenings(rows)
  const comparison = compareVariants(openings)
  if (!comparison) return null
  const leader = openings[comparison.leader]
  const name = `Variant ${variantLetter(leader?.current_slot ?? 0)}`
  const more = comparison.moreSendsPerVariant
  const enough = comparison.fewestSends >= MIN_SENDS_PER_VARIANT
  if (enough && comparison.confidence >= WINNER_CONFIDENCE)
    return `${name} is better (≈${percent(comparison.confidence)}% confidence)`
  if (enough && comparison.confidence >= LIKELY_CONFIDENCE)
    return `${name} is likely better (≈${percent(comparison.confidence)}% confidence)${
      more ? ` — ~${formatCount(more)} more sends per variant would make it clear` : ''
    }`
  if (more !== null)
    return `Too early to tell — need ~${formatCount(Math.max(1, more))} more sends per variant`
  return 'No clear difference so far — the variants get replies at about the same rate'
}

/** Which opening text one DM used, as it was labelled when sent ("Variant B"); null for follow-ups and old logs. */
export function sentVariantLabel(log: {
  variant_index: number | null
  variant: { kind: string } | null
}): string | null {
  if (log.variant?.kind === 'no_name') return 'No-name message'
  if (log.variant?.kind === 'opening' && log.variant_index !== null)
    return `Variant ${variantLetter(log.variant_index)}`
  return null
}
