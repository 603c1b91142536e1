// The sandboxes' crowd: large, deterministic, varied, with follower lists that never repeat.
import { describe, expect, it } from 'vitest'
import { LIST_CAP, Population } from './population.ts'

const options = { seed: 7, size: 20_480, idPrefix: '1400000', allowDots: false }
const population = new Population(options)

describe('Population', () => {
  it('has at least 20,000 unique profiles and is the same for the same seed', () => {
    expect(population.profiles.length).toBeGreaterThanOrEqual(20_000)
    expect(new Set(population.profiles.map((p) => p.id)).size).toBe(population.profiles.length)
    expect(new Set(population.profiles.map((p) => p.username.toLowerCase())).size).toBe(
      population.profiles.length,
    )
    const again = new Population(options)
    expect(again.profiles[12_345]).toEqual(population.profiles[12_345])
    expect(new Population({ ...options, seed: 8 }).profiles[12_345]).not.toEqual(population.profiles[12_345])
    for (const p of population.profiles) expect(p.username).toMatch(/^[A-Za-z0-9_]{1,15}$/)
  })

  it('mixes the traits filters and stop signals need', () => {
    const share = (test: (p: (typeof population.profiles)[number]) => boolean) =>
      population.profiles.filter(test).length / population.profiles.length
    expect(share((p) => !p.canDm)).toBeGreaterThan(0.08)
    expect(share((p) => p.protected)).toBeGreaterThan(0.03)
    expect(share((p) => p.verifiedOnlyRequests)).toBeGreaterThan(0.03)
    expect(share((p) => p.verified)).toBeGreaterThan(0.003)
    expect(share((p) => p.blueVerified)).toBeGreaterThan(0.05)
    expect(share((p) => p.professional === 'Business')).toBeGreaterThan(0.04)
    expect(share((p) => p.professional === 'Creator')).toBeGreaterThan(0.04)
    expect(share((p) => p.bio === '')).toBeGreaterThan(0.1)
    expect(share((p) => p.followers >= 100_000)).toBeGreaterThan(0.01)
    expect(share((p) => p.followers < 1_000)).toBeGreaterThan(0.4)
  })

  it('serves follower lists without repeats or the profile itself, up to the cap', () => {
    const big = population.profiles.find((p) => p.followers > LIST_CAP)
    const small = population.profiles.find((p) => p.followers > 30 && p.followers < 60)
    if (!big || !small) throw new Error('population lacks a big and a small profile')
    const all = population.listOf(big, 'followers', 0, LIST_CAP + 50)
    expect(all).toHaveLength(LIST_CAP)
    expect(new Set(all.map((p) => p.id)).size).toBe(LIST_CAP)
    expect(all.some((p) => p.id === big.id)).toBe(false)
    expect(population.listOf(big, 'followers', 100, 20)).toEqual(all.slice(100, 120))
    expect(population.listOf(small, 'followers', 0, 1000)).toHaveLength(small.followers)
    expect(population.listOf(small, 'following', 0, 5)).not.toEqual(
      population.listOf(small, 'followers', 0, 5),
    )
  })

  it('finds people by topic and by words', () => {
    const saas = population.withTopic('#SaaS')
    expect(saas.length).toBeGreaterThan(500)
    expect(saas.every((p) => p.topics.includes('saas') || p.bio.toLowerCase().includes('#saas'))).toBe(true)
    const coffee = population.searchPeople('coffee code')
    expect(coffee.length).toBeGreaterThan(0)
    expect(coffee.every((p) => `${p.name} ${p.username} ${p.bio}`.toLowerCase().includes('code'))).toBe(true)
    expect(population.searchPeople('   ')).toEqual([])
    expect(population.byUsername(`@${saas[0]?.username.toUpperCase()}`)).toBe(saas[0])
  })
})
