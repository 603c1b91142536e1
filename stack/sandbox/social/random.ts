// Deterministic randomness for the sandboxes: the same seed always yields the same population,
// the same reply decisions and the same texts, so tests and demos are reproducible.

/** A 32-bit FNV-1a hash of a string, mixed so that nearby inputs spread well. */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  return h >>> 0
}

/** A number in [0, 1) derived from the given parts (the same parts give the same number). */
export function unitHash(...parts: (string | number)[]): number {
  return hash32(parts.join('\u0001')) / 2 ** 32
}

/** mulberry32: a small, fast seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

/** A lowercase hex string of the given length, derived from the parts. */
export function hexFrom(length: number, ...parts: (string | number)[]): string {
  let out = ''
  for (let i = 0; out.length < length; i++)
    out += hash32([...parts, i].join('\u0001'))
      .toString(16)
      .padStart(8, '0')
  return out.slice(0, length)
}
