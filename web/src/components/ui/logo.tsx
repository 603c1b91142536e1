import { useId } from 'react'
import { Link } from 'react-router'
import { cn } from '@/lib/cn'

/** The Reachflow mark and word; links home unless `href` is null. */
export function Logo({
  className,
  href = '/',
  light = false,
}: {
  className?: string
  href?: string | null
  light?: boolean
}) {
  // One gradient id per mark: with a shared id, a mark inside a hidden subtree (the closed phone
  // drawer) owns the gradient and every other mark on the page paints nothing.
  const gradientId = `reachflow-mark-${useId().replace(/[^\w-]/g, '')}`
  const content = (
    <>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#4f46e5" />
            <stop offset="1" stopColor="#9333ea" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill={`url(#${gradientId})`} />
        <path
          d="M9 20.5V12a3 3 0 0 1 3-3h8a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3h-5.5L11 23v-2.5"
          fill="none"
          stroke="white"
          strokeWidth="2"
          strokeLinejoin="round"
        />
        <path d="M13 14.5h6M13 17h3.5" stroke="white" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span className={cn('text-lg font-bold tracking-tight', light ? 'text-white' : 'text-slate-900')}>
        Reachflow
      </span>
    </>
  )
  const classes = cn('inline-flex items-center gap-2', className)
  if (href === null) return <span className={classes}>{content}</span>
  return (
    <Link to={href} className={classes} aria-label="Reachflow home">
      {content}
    </Link>
  )
}
