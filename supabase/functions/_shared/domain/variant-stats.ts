// Comparing message variants by reply rate, shared by the runner (which picks a campaign's winner)
// and the web app (which explains the figures): Wilson intervals for one variant's rate, and a
// one-sided two-proportion z-test of the leading variant against the runner-up. Pure functions.

export interface VariantTally {
  sent: number
  replies: number
}

/** Fewer sends than this per variant and the normal approximation says little: "too early". */
export const MIN_SENDS_PER_VARIANT = 30
/** How sure the test must be before a variant is called better, and before it is made the winner. */
export const WINNER_CONFIDENCE = 0.95
/** One-sided critical value for WINNER_CONFIDENCE. */
const Z_WINNER = 1.6448536269514722

/** The standard normal distribution function Φ(z) (Abramowitz-Stegun 7.1.26, error < 1.5e-7). */
export function normalCdf(z: number): number {
  // exact where it matters most: equal rates are "no evidence either way", not 50.00000005%
  if (z === 0) return 0.5
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
  const erf = 1 - poly * Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}

export function replyRate({ sent, replies }: VariantTally): number {
  return sent === 0 ? 0 : replies / sent
}

/** The Wilson score interval of a reply rate (95% by default); [0, 1] without sends. */
export function wilsonInterval({ sent, replies }: VariantTally, z = 1.959963984540054): [number, number] {
  if (sent === 0) return [0, 1]
  const p = replies / sent
  const z2 = z * z
  const centre = (p + z2 / (2 * sent)) / (1 + z2 / sent)
  const half = (z / (1 + z2 / sent)) * Math.sqrt((p * (1 - p)) / sent + z2 / (4 * sent * sent))
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

/**
 * How sure we can be that `a` replies more often than `b`: Φ(z) of the pooled two-proportion z
 * statistic (0.5 = no evidence either way, also when either has no sends or nobody/everybody replied).
 */
export function confidenceBetter(a: VariantTally, b: VariantTally): number {
  if (a.sent === 0 || b.sent === 0) return 0.5
  const pooled = (a.replies + b.replies) / (a.sent + b.sent)
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.sent + 1 / b.sent))
  if (se === 0) return 0.5
  return normalCdf((replyRate(a) - replyRate(b)) / se)
}

/**
 * Roughly how many more sends each of the two variants needs for the difference seen so far to
 * reach WINNER_CONFIDENCE (equal sends assumed); null when they reply at the same rate, so no
 * number of sends would separate them.
 */
export function moreSendsNeeded(a: VariantTally, b: VariantTally): number | null {
  const difference = Math.abs(replyRate(a) - replyRate(b))
  if (difference === 0) return null
  const mean = (replyRate(a) + replyRate(b)) / 2
  const perVariant = 2 * mean * (1 - mean) * (Z_WINNER / difference) ** 2
  return Math.max(0, Math.ceil(perVariant - Math.min(a.sent, b.sent)))
}

export interface Comparison {
  /** Index of the variant with the highest reply rate (the earlier one on a tie). */
  leader: number
  /** Index of the best of the others. */
  runnerUp: number
  /** How sure we are that the leader beats the runner-up. */
  confidence: number
  /** Fewest sends of any variant. */
  fewestSends: number
  /** More sends per variant the test would want (at least up to MIN_SENDS_PER_VARIANT); null: no difference to find. */
  moreSendsPerVariant: number | null
}

/** The leader against the runner-up; null with fewer than two variants. */
export function compareVariants(tallies: readonly VariantTally[]): Comparison | null {
  if (tallies.length < 2) return null
  const order = tallies
    .map((tally, index) => ({ index, rate: replyRate(tally) }))
    .sort((x, y) => y.rate - x.rate || x.index - y.index)
  const leader = order[0]?.index ?? 0
  const runnerUp = order[1]?.index ?? 1
  const a = tallies[leader] as VariantTally
  const b = tallies[runnerUp] as VariantTally
  const fewestSends = Math.min(...tallies.map((t) => t.sent))
  const needed = moreSendsNeeded(a, b)
  const toMinimum = Math.max(0, MIN_SENDS_PER_VARIANT - fewestSends)
  return {
    leader,
    runnerUp,
    confidence: confidenceBetter(a, b),
    fewestSends,
    moreSendsPerVariant: needed === null ? (toMinimum > 0 ? toMinimum : null) : Math.max(needed, toMinimum),
  }
}

/**
 * The variant to send from now on, or null: every variant has at least `minSends` sends (and the
 * test's own minimum), and the leader replies more often than the runner-up with WINNER_CONFIDENCE.
 */
export function pickWinner(tallies: readonly VariantTally[], minSends: number): number | null {
  const comparison = compareVariants(tallies)
  if (!comparison) return null
  if (comparison.fewestSends < Math.max(minSends, MIN_SENDS_PER_VARIANT)) return null
  return comparison.confidence >= WINNER_CONFIDENCE ? comparison.leader : null
}
