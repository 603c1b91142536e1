import {
  compareVariants,
  confidenceBetter,
  moreSendsNeeded,
  normalCdf,
  pickWinner,
  wilsonInterval,
} from '@reachflow/domain'
import { describe, expect, it } from 'vitest'
import {
  confidenceHint,
  likelyRange,
  replyRatePercent,
  sentVariantLabel,
  type VariantRow,
  variantLabel,
} from './variant-results'

const row = (over: Partial<VariantRow>): VariantRow => ({
  variant_id: null,
  step: 0,
  kind: 'opening',
  template: 'Hi',
  first_slot: 0,
  current_slot: 0,
  sent: 0,
  replies: 0,
  first_sent_at: null,
  last_sent_at: null,
  is_winner: false,
  personalized: 0,
  personalized_sample: null,
  ...over,
})
const openings = (...tallies: [number, number][]) =>
  tallies.map(([sent, replies], slot) => row({ first_slot: slot, current_slot: slot, sent, replies }))

describe('variant statistics (shared with the runner)', () => {
  it('normal distribution function at known points', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7)
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6)
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6)
    expect(normalCdf(3)).toBeCloseTo(0.99865, 5)
  })

  it('Wilson interval of a reply rate (textbook values)', () => {
    // 10 replies of 50 sends: 10.9%–33.0% (Wilson, 95%)
    const [low, high] = wilsonInterval({ sent: 50, replies: 10 })
    expect(low).toBeCloseTo(0.1124, 3)
    expect(high).toBeCloseTo(0.3304, 3)
    // no replies still leaves room above 0, never below
    const [zeroLow, zeroHigh] = wilsonInterval({ sent: 20, replies: 0 })
    expect(zeroLow).toBe(0)
    expect(zeroHigh).toBeCloseTo(0.1611, 3)
    expect(wilsonInterval({ sent: 0, replies: 0 })).toEqual([0, 1])
  })

  it('two-proportion test: how sure a variant replies more often', () => {
    // 30/100 against 15/100: pooled z = 2.540, one-sided 99.45%
    expect(confidenceBetter({ sent: 100, replies: 30 }, { sent: 100, replies: 15 })).toBeCloseTo(0.99446, 4)
    expect(confidenceBetter({ sent: 100, replies: 15 }, { sent: 100, replies: 30 })).toBeCloseTo(0.00554, 4)
    expect(confidenceBetter({ sent: 40, replies: 8 }, { sent: 40, replies: 8 })).toBe(0.5)
    expect(confidenceBetter({ sent: 40, replies: 0 }, { sent: 40, replies: 0 })).toBe(0.5)
    expect(confidenceBetter({ sent: 0, replies: 0 }, { sent: 10, replies: 5 })).toBe(0.5)
  })

  it('estimates the sends still needed, and none for identical rates', () => {
    // 20% vs 10%: n = 2·0.15·0.85·(1.645/0.1)² ≈ 69 per variant; 40 already sent
    expect(moreSendsNeeded({ sent: 40, replies: 8 }, { sent: 40, replies: 4 })).toBe(29)
    expect(moreSendsNeeded({ sent: 40, replies: 8 }, { sent: 40, replies: 8 })).toBeNull()
    expect(moreSendsNeeded({ sent: 500, replies: 200 }, { sent: 500, replies: 50 })).toBe(0)
  })

  it('compares the leader with the runner-up, earlier variant first on a tie', () => {
    const comparison = compareVariants([
      { sent: 50, replies: 5 },
      { sent: 60, replies: 18 },
      { sent: 55, replies: 11 },
    ])
    expect(comparison).toMatchObject({ leader: 1, runnerUp: 2, fewestSends: 50 })
    const tie = compareVariants([
      { sent: 10, replies: 2 },
      { sent: 10, replies: 2 },
    ])
    expect(tie).toMatchObject({ leader: 0, runnerUp: 1 })
    expect(tie?.confidence).toBeCloseTo(0.5, 6)
    expect(compareVariants([{ sent: 10, replies: 2 }])).toBeNull()
  })

  it('picks a winner only with N sends per variant and 95% confidence', () => {
    const clear = [
      { sent: 100, replies: 10 },
      { sent: 100, replies: 30 },
    ]
    expect(pickWinner(clear, 100)).toBe(1)
    expect(pickWinner(clear, 101)).toBeNull()
    // ≈ 90% sure is not enough to stop sending the other
    expect(
      pickWinner(
        [
          { sent: 100, replies: 20 },
          { sent: 100, replies: 14 },
        ],
        50,
      ),
    ).toBeNull()
    expect(pickWinner([{ sent: 100, replies: 20 }], 50)).toBeNull()
  })
})

describe('per-variant results in words', () => {
  it('labels variants by their slot now; edited texts, the no-name message and old logs by what they are', () => {
    expect(variantLabel(row({ current_slot: 1, first_slot: 2 }))).toBe('Variant B')
    expect(variantLabel(row({ current_slot: null, first_slot: 0 }))).toBe('Earlier text (was A)')
    expect(variantLabel(row({ kind: 'no_name' }))).toBe('No-name message')
    expect(variantLabel(row({ kind: 'follow_up', step: 2, current_slot: 1 }))).toBe('Follow-up 2')
    expect(variantLabel(row({ kind: 'unknown', current_slot: null }))).toBe('Unknown variant')
  })

  it('names the text one DM used as it was labelled when sent', () => {
    expect(sentVariantLabel({ variant_index: 1, variant: { kind: 'opening' } })).toBe('Variant B')
    expect(sentVariantLabel({ variant_index: 0, variant: { kind: 'no_name' } })).toBe('No-name message')
    expect(sentVariantLabel({ variant_index: 0, variant: { kind: 'follow_up' } })).toBeNull()
    expect(sentVariantLabel({ variant_index: null, variant: null })).toBeNull()
  })

  it('reply rate and the range it is likely in', () => {
    expect(replyRatePercent({ sent: 3, replies: 1 })).toBe(33.3)
    expect(replyRatePercent({ sent: 0, replies: 0 })).toBe(0)
    expect(likelyRange({ sent: 50, replies: 10 })).toBe('11–33%')
    expect(likelyRange({ sent: 0, replies: 0 })).toBeNull()
  })

  it('too early with few sends, saying how many more', () => {
    expect(confidenceHint(openings([3, 1], [3, 0]))).toBe(
      'Too early to tell — need ~27 more sends per variant',
    )
    expect(confidenceHint(openings([0, 0], [0, 0]))).toBe(
      'Too early to tell — need ~30 more sends per variant',
    )
    expect(confidenceHint(openings([20, 8], [20, 4]))).toBe(
      'Too early to tell — need ~10 more sends per variant',
    )
  })

  it('names the likely and the clear winner with the confidence', () => {
    // 20% vs 14%: ≈87% sure; 212 sends each would reach 95%
    expect(confidenceHint(openings([100, 14], [100, 20]))).toBe(
      'Variant B is likely better (≈87% confidence) — ~113 more sends per variant would make it clear',
    )
    expect(confidenceHint(openings([40, 8], [40, 4]))).toBe(
      'Variant A is likely better (≈89% confidence) — ~29 more sends per variant would make it clear',
    )
    expect(confidenceHint(openings([100, 10], [100, 30], [100, 12]))).toBe(
      'Variant B is better (≈99% confidence)',
    )
  })

  it('says when there is no difference, and nothing with a single variant', () => {
    expect(confidenceHint(openings([60, 6], [60, 6]))).toBe(
      'No clear difference so far — the variants get replies at about the same rate',
    )
    expect(confidenceHint(openings([60, 6]))).toBeNull()
    // retired texts are not compared
    expect(
      confidenceHint([...openings([60, 6]), row({ current_slot: null, sent: 50, replies: 40 })]),
    ).toBeNull()
  })
})
