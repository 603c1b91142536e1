// What a platform pack may not do even when its shape is right. An operator's pack is data the
// runner acts on with customers' signed-in sessions, so:
// - a path stays on the platform's own site: the runner joins it to the platform's address
//   (`https://x.com` + `.evil.example/steal` is `https://x.com.evil.example/steal`) and Instagram's
//   in-page calls fetch it with the session's cookies and CSRF token (`//evil.example` leaves the
//   site). A path must start with a single "/" and resolve on the origin it is joined to.
// - a regex runs over page text a stranger can write: one that can backtrack catastrophically
//   (a repeated group that itself repeats or has alternatives: `(a+)+`, `(a|a)*`, `(.*)*`) would
//   hold the runner's event loop for minutes on a crafted bio. A small static check refuses them.

const PROBE_ORIGIN = 'https://platform.invalid'

/** True when `path` is a path on the origin it is joined to (a single leading "/", no way off it). */
export function isPlatformPath(path: string): boolean {
  // a URL parser drops tabs and line breaks and reads \ as / (`/\t/host` and `/\host` are `//host`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are the point
  if (!path.startsWith('/') || path.startsWith('//') || /[\\\u0000-\u001f]/.test(path)) return false
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN
  } catch {
    return false
  }
}

/** `baseUrl` + `path`, refusing a path that is not on that origin (whatever the pack said). */
export function platformUrl(baseUrl: string, path: string): string {
  const joined = `${baseUrl.replace(/\/+$/, '')}${path}`
  if (!isPlatformPath(path) || new URL(joined).origin !== new URL(baseUrl).origin)
    throw new Error(`The path ${JSON.stringify(path.slice(0, 100))} is not on ${new URL(baseUrl).origin}.`)
  return joined
}

/** A quantifier that repeats what it follows more than once: *, +, {n,}, {n,m} (not ? or {0,1}, {1}). */
function repeatAt(source: string, i: number): boolean {
  const c = source[i]
  if (c === '*' || c === '+') return true
  if (c !== '{') return false
  const counted = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))
  if (!counted) return false
  const max =
    counted[2] === undefined ? Number(counted[1]) : counted[3] === '' ? Infinity : Number(counted[3])
  return max > 1
}

interface Group {
  repeats: boolean
  alternatives: boolean
}

/**
 * The first repeated group that itself repeats or has alternatives (the shapes that backtrack
 * exponentially), as its index in the source; -1 when there is none. Escapes and character
 * classes are skipped; a regex that does not compile is the caller's other check.
 */
export function catastrophicGroupAt(source: string): number {
  const stack: (Group & { start: number })[] = []
  let top: Group = { repeats: false, alternatives: false }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++
    } else if (c === '(') {
      stack.push({ ...top, start: i })
      top = { repeats: false, alternatives: false }
    } else if (c === '|') top.alternatives = true
    else if (c === ')') {
      const inner = top
      const outer = stack.pop()
      if (!outer) return -1
      const repeated = repeatAt(source, i + 1)
      if (repeated && (inner.repeats || inner.alternatives)) return outer.start
      top = { repeats: outer.repeats || inner.repeats || repeated, alternatives: outer.alternatives }
    } else if (repeatAt(source, i)) top.repeats = true
  }
  return -1
}
