// "Perhaps you meant …" suggestions: the closest name by edit distance, if it is close enough.

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
      previous = current
    }
  }
  return row[b.length] as number
}

/** The candidate most similar to `name` with at least `minScore` similarity, or undefined. */
export function closest(name: string, candidates: Iterable<string>, minScore = 0.6): string | undefined {
  let best: string | undefined
  let bestScore = minScore
  for (const candidate of candidates) {
    if (candidate === name) continue
    const score = 1 - distance(name, candidate) / Math.max(name.length, candidate.length, 1)
    if (score >= bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return best
}
