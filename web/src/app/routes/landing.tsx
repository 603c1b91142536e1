import { LandingPage } from '@/features/landing/components/landing-page'
import type { LandingVariant } from '@/features/landing/variants'
import { useAuth } from '@/lib/auth-store'

/** Signing out resets the page state (product.md §2): the page is keyed by who is signed in. */
export function LandingRoute({ variant }: { variant: LandingVariant }) {
  const userId = useAuth((s) => s.user?.id ?? 'signed-out')
  return <LandingPage key={`${variant}:${userId}`} variant={variant} />
}
