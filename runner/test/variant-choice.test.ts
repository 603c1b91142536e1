// Which opening variant a lead gets: balanced by sends until a winner is chosen, ties
// broken by a seeded random source so a run can be replayed; the template choice per step.
import { describe, expect, it } from 'vitest'
import { chooseTemplate, templateFor } from '../src/sending/compose.ts'
import { chooseOpening } from '../src/sending/variants.ts'

/** mulberry32: a small seeded generator, so the same seed gives the same choices. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The slots chosen for `leads` first DMs in a row, each send counted before the next choice. */
function run(variants: number, leads: number, random: () => number, winner: number | null = null) {
  const attempted = new Array<number>(variants).fill(0)
  const chosen: number[] = []
  for (let i = 0; i < leads; i++) {
    const slot = chooseOpening({ attempted, winner }, random)
    attempted[slot] = (attempted[slot] ?? 0) + 1
    chosen.push(slot)
    // balanced at every point: no variant is ever more than one send ahead of another
    if (winner === null) expect(Math.max(...attempted) - Math.min(...attempted)).toBeLessThanOrEqual(1)
  }
  return { chosen, attempted }
}

describe('choosing the opening variant', () => {
  it('keeps the variants balanced, whatever the random source says', () => {
    expect(run(3, 301, seeded(7)).attempted.sort()).toEqual([100, 100, 101])
    expect(run(2, 10, () => 0.999).attempted).toEqual([5, 5])
    expect(run(4, 9, () => 0).attempted.reduce((a, b) => a + b)).toBe(9)
  })

  it('goes to the variant with the fewest sends so far (a new or edited message catches up)', () => {
    expect(chooseOpening({ attempted: [12, 3, 12], winner: null }, () => 0.99)).toBe(1)
    expect(chooseOpening({ attempted: [5, 5, 0], winner: null }, () => 0)).toBe(2)
  })

  it('is deterministic for a seed and differs between seeds', () => {
    const first = run(3, 60, seeded(42)).chosen
    expect(run(3, 60, seeded(42)).chosen).toEqual(first)
    expect(run(3, 60, seeded(43)).chosen).not.toEqual(first)
    // ties really are broken at random: every variant opens a round sometime
    expect(new Set(first.filter((_, i) => i % 3 === 0))).toEqual(new Set([0, 1, 2]))
  })

  it('sends only the winner once there is one', () => {
    expect(run(3, 20, seeded(1), 2).chosen).toEqual(new Array(20).fill(2))
  })
})

describe('the template of a step', () => {
  const sequences = {
    messages: ['', 'Hi {name} A', ' ', 'Hello B'],
    noFirstnameMessage: 'Hi there',
    followUpEnabled: true,
    followUpMessages: ['Bump 1', '', 'Bump 2'],
  }

  it('names the opening variant by its slot among the non-blank messages', () => {
    expect(chooseTemplate(sequences, 0, true, 0)).toEqual({
      template: 'Hi {name} A',
      kind: 'opening',
      slot: 0,
    })
    expect(chooseTemplate(sequences, 0, true, 1)).toEqual({ template: 'Hello B', kind: 'opening', slot: 1 })
  })

  it('records the no-first-name message as its own kind, only when the variant needs a name', () => {
    expect(chooseTemplate(sequences, 0, false, 0)).toEqual({ template: 'Hi there', kind: 'no_name', slot: 0 })
    expect(chooseTemplate(sequences, 0, false, 1)).toEqual({ template: 'Hello B', kind: 'opening', slot: 1 })
  })

  it('numbers follow-ups by step, and has none past the last or with follow-ups off', () => {
    expect(chooseTemplate(sequences, 2, true, 0)).toEqual({ template: 'Bump 2', kind: 'follow_up', slot: 1 })
    expect(chooseTemplate(sequences, 3, true, 0)).toBeNull()
    expect(chooseTemplate({ ...sequences, followUpEnabled: false }, 1, true, 0)).toBeNull()
    expect(templateFor(sequences, 0, true, () => 0.99)).toBe('Hello B')
  })
})
