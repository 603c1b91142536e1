// What differs between the general landing page and the two ads variants (product.md §2, §4, §9).
import { paths } from '@/config/paths'
import type { TrafficSource } from '@/lib/traffic-source'

export type LandingVariant = 'general' | TrafficSource

export interface SpotsReading {
  start: number
  everyMs: number
  minimum: number
}

/** product.md §9 gives two readings of the spots-left counter: the bundle card uses one, the ads offer the other. */
export const spotsReadings = {
  bundle: { start: 12, everyMs: 60_000, minimum: 5 },
  adsOffer: { start: 7, everyMs: 45_000, minimum: 3 },
} satisfies Record<string, SpotsReading>

export interface VariantConfig {
  variant: LandingVariant
  source?: TrafficSource
  isAds: boolean
  hero: { eyebrow: string; headline: string; highlight: string; subline: string }
}

const heroes: Record<LandingVariant, VariantConfig['hero']> = {
  general: {
    eyebrow: 'DM automation for X and Instagram',
    headline: 'Turn cold DMs into',
    highlight: 'booked sales calls',
    subline:
      'Reachflow finds your ideal prospects, writes personalised messages with AI and sends them around the clock from the cloud: up to 450 DMs per day per account, with follow-ups that never forget.',
  },
  'fb-offer': {
    eyebrow: 'Limited offer: your first month free',
    headline: 'Get 500+ new leads every month',
    highlight: 'on autopilot',
    subline:
      'Set up in 5 minutes. Reachflow scrapes prospects who match your ideal customer, sends personalised DM sequences with follow-ups, and fills your inbox with replies while you work on your business.',
  },
  'google-ads': {
    eyebrow: 'Automated DM outreach that books calls',
    headline: '500+ qualified leads a month from X and Instagram,',
    highlight: 'on autopilot',
    subline:
      'Stop copy-pasting DMs. Reachflow filters prospects with AI, writes messages that sound like you and runs your campaigns 24/7 with premium mobile proxies included.',
  },
}

export function variantConfig(variant: LandingVariant): VariantConfig {
  return {
    variant,
    source: variant === 'general' ? undefined : variant,
    isAds: variant !== 'general',
    hero: heroes[variant],
  }
}

/** product.md §2 "Start Free Trial buttons": the dashboard when signed in, else sign-up in checkout mode. */
export function startTrialTarget(variant: LandingVariant, signedIn: boolean): string {
  const source = variant === 'general' ? '' : variant
  if (signedIn) return source ? `${paths.dashboard}?source=${source}` : paths.dashboard
  return source ? `${paths.login}?checkout=true&source=${source}` : `${paths.login}?checkout=true`
}
