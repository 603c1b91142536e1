import { parseProxy } from '@reachflow/domain'

/** A proxy as the customer may see it back: host and port, never its login. */
export function proxyDisplay(proxy: string | null | undefined): string | null {
  const parts = proxy?.trim() ? parseProxy(proxy) : null
  if (!parts) return proxy?.trim() ? proxy.trim().replace(/^.*@/, '') : null
  return `${parts.host.includes(':') ? `[${parts.host}]` : parts.host}:${parts.port}`
}
