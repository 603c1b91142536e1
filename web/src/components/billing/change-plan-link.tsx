import { ArrowUpRight } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { cn } from '@/lib/cn'

/** The way from any "limit reached" message to the billing page's change-plan control. */
export function ChangePlanLink({
  children = 'Change plan',
  className,
}: {
  children?: ReactNode
  className?: string
}) {
  return (
    <Link
      to={paths.changePlan}
      className={cn(
        'inline-flex items-center gap-1 rounded font-semibold underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current',
        className,
      )}
    >
      {children}
      <ArrowUpRight className="size-3.5" aria-hidden="true" />
    </Link>
  )
}
