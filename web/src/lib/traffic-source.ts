// product.md §3 "Browser storage": the ads variants remember where a visitor came from in both
// session storage (traffic_source) and local storage (conversion_source) so checkout can report it.
export type TrafficSource = 'fb-offer' | 'google-ads'

const TRAFFIC_KEY = 'traffic_source'
const CONVERSION_KEY = 'conversion_source'

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read()
  } catch {
    // Storage is unavailable in some private modes; the source is a nicety, not a requirement.
    return fallback
  }
}

export function rememberTrafficSource(source: TrafficSource): void {
  safely(() => {
    sessionStorage.setItem(TRAFFIC_KEY, source)
    sessionStorage.setItem(CONVERSION_KEY, source)
    localStorage.setItem(TRAFFIC_KEY, source)
    localStorage.setItem(CONVERSION_KEY, source)
  }, undefined)
}

/** Checkout's `source`: session traffic source, else local conversion source, else the query's, else 'unknown'. */
export function checkoutSource(search: string = globalThis.location?.search ?? ''): string {
  const fromSession = safely(() => sessionStorage.getItem(TRAFFIC_KEY), null)
  const fromLocal = safely(() => localStorage.getItem(CONVERSION_KEY), null)
  const fromQuery = new URLSearchParams(search).get('source')
  return fromSession || fromLocal || fromQuery || 'unknown'
}
