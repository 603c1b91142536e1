// One seed makes a run's random choices repeat: the same seed and label always draw the same
// numbers, other labels or seeds draw others, and a malformed seed is refused rather than ignored.
import { afterEach, describe, expect, it } from 'vitest'
import { propertySeed, TEST_SEED_VARIABLE, testInt, testRandom, testSeed } from './test-seed.ts'

const original = process.env[TEST_SEED_VARIABLE]
afterEach(() => {
  if (original === undefined) delete process.env[TEST_SEED_VARIABLE]
  else process.env[TEST_SEED_VARIABLE] = original
})

const draws = (label: string) => {
  const random = testRandom(label)
  return Array.from({ length: 5 }, () => random())
}

describe('the test seed', () => {
  it('repeats every draw for the same seed and label', () => {
    process.env[TEST_SEED_VARIABLE] = '12345'
    const first = draws('x-send people')
    expect(draws('x-send people')).toEqual(first)
    expect(draws('inbox people')).not.toEqual(first)
    expect(testInt('x-send people', 5000)).toBe(Math.floor((first[0] ?? 0) * 5000))
    const property = propertySeed('proxy-host')
    expect(Number.isInteger(property)).toBe(true)
    process.env[TEST_SEED_VARIABLE] = '12346'
    expect(draws('x-send people')).not.toEqual(first)
    expect(propertySeed('proxy-host')).not.toBe(property)
  })

  it('picks a fresh seed once and keeps it for the process and what it starts', () => {
    delete process.env[TEST_SEED_VARIABLE]
    const seed = testSeed()
    expect(process.env[TEST_SEED_VARIABLE]).toBe(String(seed))
    expect(testSeed()).toBe(seed)
  })

  it('refuses a seed that is not a 32-bit unsigned integer', () => {
    for (const bad of ['abc', '-1', '1.5', String(2 ** 32)]) {
      process.env[TEST_SEED_VARIABLE] = bad
      expect(() => testSeed()).toThrow(`${TEST_SEED_VARIABLE} must be an integer`)
    }
  })
})
