import { type CSSProperties, type RefObject, useEffect, useState } from 'react'

/**
 * Whether a horizontally scrolling strip has more content to its left or right, and a mask
 * that fades the clipped edge, so a narrow screen shows there is more to scroll to.
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): { style: CSSProperties; more: boolean } {
  const [edges, setEdges] = useState({ start: false, end: false })
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const measure = () => {
      const start = el.scrollLeft > 1
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1
      setEdges((current) => (current.start === start && current.end === end ? current : { start, end }))
    }
    measure()
    el.addEventListener('scroll', measure, { passive: true })
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(el)
    for (const child of Array.from(el.children)) observer?.observe(child)
    return () => {
      el.removeEventListener('scroll', measure)
      observer?.disconnect()
    }
  }, [ref])
  const fade = 28
  const mask =
    edges.start || edges.end
      ? `linear-gradient(to right, ${edges.start ? 'transparent' : 'black'}, black ${fade}px, black calc(100% - ${fade}px), ${edges.end ? 'transparent' : 'black'})`
      : undefined
  return {
    style: mask ? { maskImage: mask, WebkitMaskImage: mask } : {},
    more: edges.start || edges.end,
  }
}
