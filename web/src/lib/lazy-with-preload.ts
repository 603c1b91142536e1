import { type ComponentType, lazy } from 'react'

/**
 * React.lazy plus a preload: the same import() promise serves both, so calling `preload` when a
 * dialog opens (or a tab is hovered) means the chunk is there, or on its way, by the time the
 * panel renders. A failed preload is forgotten, so rendering tries the import again.
 */
export function lazyWithPreload<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let pending: Promise<{ default: ComponentType<P> }> | null = null
  const once = () => {
    pending ??= load().catch((error: unknown) => {
      pending = null
      throw error
    })
    return pending
  }
  return { Component: lazy(once), preload: () => void once().catch(() => {}) }
}
