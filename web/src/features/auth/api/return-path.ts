/**
 * A path on this site to return to after signing in, or undefined. Only a relative path that stays
 * on `origin` qualifies: `//host`, `/\host`, absolute URLs and other schemes would let a crafted
 * link send a freshly signed-in person to another site (an open redirect).
 */
export function sameOriginPath(candidate: string | null | undefined, origin: string): string | undefined {
  if (!candidate?.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\'))
    return undefined
  let url: URL
  try {
    url = new URL(candidate, origin)
  } catch {
    return undefined
  }
  if (url.origin !== new URL(origin).origin) return undefined
  return `${url.pathname}${url.search}${url.hash}`
}
