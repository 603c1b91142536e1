import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { analytics } from '@/lib/analytics'
import { rememberTrafficSource } from '@/lib/traffic-source'
import { LandingContext } from '../landing-context'
import { type LandingVariant, variantConfig } from '../variants'
import { AudienceSection } from './audience-section'
import { ComparisonSection } from './comparison-section'
import { CountdownBanner } from './countdown-banner'
import { DashboardPreview } from './dashboard-preview'
import { DemoVideoSection } from './demo-video'
import { FaqSection } from './faq-section'
import { FeatureGrid } from './feature-grid'
import { FeaturesSection } from './features-section'
import { HeroSection } from './hero-section'
import { LandingFooter } from './landing-footer'
import { LandingNav } from './landing-nav'
import { PricingSection } from './pricing-section'
import { ProblemSection } from './problem-section'

/** product.md §2 landing page, sections in order; the ads variants add the countdown and the offer card. */
export function LandingPage({ variant }: { variant: LandingVariant }) {
  const config = variantConfig(variant)
  const { hash, search } = useLocation()

  useEffect(() => {
    if (!config.source) return
    rememberTrafficSource(config.source)
    analytics.initPixel()
  }, [config.source])

  // The router does not scroll to #anchors on arrival (e.g. from /cancel to /#pricing).
  useEffect(() => {
    const target = hash || (new URLSearchParams(search).get('checkout') === 'continue' ? '#pricing' : '')
    if (target) document.getElementById(target.slice(1))?.scrollIntoView()
  }, [hash, search])

  return (
    <LandingContext.Provider value={config}>
      {config.isAds && <CountdownBanner />}
      <LandingNav />
      <main>
        <HeroSection />
        <ProblemSection />
        <FeaturesSection />
        <DashboardPreview />
        <AudienceSection />
        <DemoVideoSection />
        <PricingSection />
        <ComparisonSection />
        <FeatureGrid />
        <FaqSection />
      </main>
      <LandingFooter />
    </LandingContext.Provider>
  )
}
