import { ArrowRight, CalendarDays } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { type ButtonSize, type ButtonVariant, buttonClasses } from '@/components/ui/button'
import { links } from '@/config/links'
import { analytics } from '@/lib/analytics'
import { useAuth } from '@/lib/auth-store'
import { useLandingVariant } from '../landing-context'
import { startTrialTarget } from '../variants'

interface CtaProps {
  /** Where on the page the button sits, recorded with the conversion event. */
  placement: string
  variant?: ButtonVariant
  size?: ButtonSize
  className?: string
  children?: ReactNode
  plan?: string
}

export function StartTrialLink({
  placement,
  variant = 'primary',
  size = 'lg',
  className,
  children,
  plan,
}: CtaProps) {
  const signedIn = useAuth((s) => Boolean(s.user))
  const config = useLandingVariant()
  return (
    <Link
      to={startTrialTarget(config.variant, signedIn)}
      className={buttonClasses(variant, size, className)}
      onClick={() => {
        analytics.track('start_free_trial_click', { source: config.source ?? 'direct', placement, plan })
        if (config.isAds) analytics.pixel('InitiateCheckout', { placement })
      }}
    >
      {children ?? 'Start Free Trial'}
      <ArrowRight className="size-4" aria-hidden="true" />
    </Link>
  )
}

/** Opens the 15-minute call booking page in a new tab (product.md §2). */
export function BookingLink({
  variant = 'secondary',
  size = 'lg',
  className,
  children,
  placement,
}: CtaProps) {
  return (
    <a
      href={links.booking}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses(variant, size, className)}
      onClick={() => analytics.track('book_call_click', { placement })}
    >
      <CalendarDays className="size-4" aria-hidden="true" />
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}
