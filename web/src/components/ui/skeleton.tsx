import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/cn'

/** A grey placeholder block that pulses while content loads. */
export function Skeleton({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200/80', className)} {...rest} />
  )
}
