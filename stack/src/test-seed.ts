// The run's seed: every random choice a test makes (which sandbox people it messages, fuzz and
// property cases, jitter) is drawn from it, so a failure seen once can be replayed exactly with
// REACHFLOW_TEST_SEED=<seed>. `npm test` prints it at the start and beside every failure, and
// passes it to every suite through the environment.
import { randomInt } from 'node:crypto'
import { hash32, seededRandom } from '../sandbox/social/random.ts'

export const TEST_SEED_VARIABLE = 'REACHFLOW_TEST_SEED'

/**
 * The seed from REACHFLOW_TEST_SEED, or a fresh one, written back to the environment so that
 * every later caller in this process and every process it starts draws from the same seed.
 */
export function testSeed(): number {
  const raw = process.env[TEST_SEED_VARIABLE]?.trim()
  if (raw) {
    const seed = Number(raw)
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
      throw new Error(`${TEST_SEED_VARIABLE} must be an integer from 0 to 4294967295, not "${raw}"`)
    return seed
  }
  const fresh = randomInt(2 ** 32 - 1)
  process.env[TEST_SEED_VARIABLE] = String(fresh)
  return fresh
}

/**
 * A random source in [0, 1) for one purpose (a file, a helper). Each label has its own stream,
 * so what a file draws does not depend on which other files ran before it or beside it.
 */
export function testRandom(label: string): () => number {
  return seededRandom(hash32(`${testSeed()}\u0001${label}`))
}

/** An integer in [0, below) from the label's stream: one draw, for a single choice. */
export function testInt(label: string, below: number): number {
  return Math.floor(testRandom(label)() * below)
}

/** A fast-check seed for one property (a signed 32-bit integer, as fast-check takes). */
export function propertySeed(label: string): number {
  return hash32(`${testSeed()}\u0001${label}`) | 0
}
