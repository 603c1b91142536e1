import type { BillingPeriod } from '@reachflow/domain'
import { useState } from 'react'
import { AccountSlider } from '@/components/ui/account-slider'
import { BillingPeriodToggle } from '@/components/ui/billing-period-toggle'
import { links } from '@/config/links'
import { planFeatures } from '@/lib/plans'
import { useLandingVariant } from '../landing-context'
import { growthCardPrice, LANDING_GROWTH_MAX, LANDING_GROWTH_MIN, starterCardPrice } from '../landing-pricing'
import { BundleOffer } from './bundle-offer'
import { CheckoutContinueNotice } from './checkout-continue-notice'
import { BookingLink, StartTrialLink } from './cta-links'
import { PlanCard } from './plan-card'
import { SpecialOfferCard } from './special-offer-card'

/** product.md §2 pricing (#pricing): yearly by default, three cards, the growth slider and the 3 Month Bundle. */
export function PricingSection() {
  const { isAds } = useLandingVariant()
  const [period, setPeriod] = useState<BillingPeriod>('yearly')
  const [growthAccounts, setGrowthAccounts] = useState(LANDING_GROWTH_MIN)
  const starter = planFeatures.starter()
  const growth = planFeatures.growth(growthAccounts)
  const enterprise = planFeatures.enterprise()

  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Pricing</p>
          <h2
            id="pricing-title"
            className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Simple pricing that pays for itself with one deal
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Every plan starts with a 3-day free trial and includes premium mobile proxies. Cancel anytime.
          </p>
          <CheckoutContinueNotice />
          <BillingPeriodToggle value={period} onChange={setPeriod} className="mt-8" />
        </div>

        {isAds && <SpecialOfferCard />}

        <div className="mt-14 grid items-start gap-8 lg:grid-cols-3">
          <PlanCard
            name="Starter"
            tagline="One account, everything you need to start booking calls."
            price={starterCardPrice(period)}
            {...starter}
            action={
              <StartTrialLink
                placement="pricing-starter"
                plan="starter"
                variant="secondary"
                size="md"
                className="w-full"
              />
            }
          />
          <PlanCard
            name="Growth"
            tagline="Scale across accounts. The more you add, the less each costs."
            price={growthCardPrice(period, growthAccounts)}
            popular
            {...growth}
            controls={
              <AccountSlider
                min={LANDING_GROWTH_MIN}
                max={LANDING_GROWTH_MAX}
                value={growthAccounts}
                onChange={setGrowthAccounts}
                marks={['1', '25', '50']}
              />
            }
            action={<StartTrialLink placement="pricing-growth" plan="growth" size="md" className="w-full" />}
            footnote={
              <p>
                Need more than 50 accounts?{' '}
                <a
                  href={links.booking}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-semibold text-brand-700 hover:underline"
                >
                  Contact Sales<span className="sr-only"> (opens in a new tab)</span>
                </a>
              </p>
            }
          />
          <PlanCard
            name="Enterprise"
            tagline="For agencies and teams running outreach at scale."
            price={{ amount: 'Custom', note: '51+ accounts, priced with you' }}
            {...enterprise}
            action={
              <BookingLink placement="pricing-enterprise" variant="secondary" size="md" className="w-full">
                Contact Sales
              </BookingLink>
            }
          />
        </div>

        <BundleOffer />
        <p className="mt-10 text-center text-sm text-slate-500">
          30-day money-back guarantee. Your account stays active until the end of the billing period.
        </p>
      </div>
    </section>
  )
}
