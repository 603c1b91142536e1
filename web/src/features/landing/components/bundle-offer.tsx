import { BUNDLE_MONTHS, BUNDLE_ORIGINAL_PRICE, BUNDLE_PRICE } from '@reachflow/domain'
import { Check, Gift } from 'lucide-react'
import { planFeatures, usd } from '@/lib/plans'
import { spotsReadings } from '../variants'
import { StartTrialLink } from './cta-links'
import { SpotsLeft } from './spots-left'

/** The 3 Month Bundle: three months of Starter for the price of two. */
export function BundleOffer() {
  const { features } = planFeatures.bundle()
  return (
    <article
      aria-labelledby="bundle-title"
      className="mt-12 overflow-hidden rounded-3xl bg-gradient-to-r from-orange-50 via-amber-50 to-white ring-1 ring-orange-200"
    >
      <div className="grid gap-8 p-7 sm:p-10 lg:grid-cols-[1.3fr_1fr] lg:items-center">
        <div>
          <p className="inline-flex items-center gap-1.5 rounded-full bg-orange-700 px-3 py-1 text-xs font-semibold text-white">
            <Gift className="size-3.5" aria-hidden="true" />
            One month free
          </p>
          <h3 id="bundle-title" className="mt-4 text-2xl font-bold text-slate-900">
            3 Month Bundle
          </h3>
          <p className="mt-2 text-slate-600">
            Commit to a quarter of consistent outreach and pay for two months. Ideal for your first big
            campaign.
          </p>
          <ul className="mt-5 grid gap-2 text-sm text-slate-700 sm:grid-cols-2">
            {features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-orange-600" aria-hidden="true" />
                {feature}
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-2xl bg-white p-6 text-center shadow-card ring-1 ring-orange-100">
          <p className="text-sm text-slate-500">
            <span className="line-through">{usd(BUNDLE_ORIGINAL_PRICE)}</span>{' '}
            <span className="font-semibold text-orange-700">
              Save {usd(BUNDLE_ORIGINAL_PRICE - BUNDLE_PRICE)}
            </span>
          </p>
          <p className="mt-1 flex items-baseline justify-center gap-1">
            <span className="text-4xl font-bold text-slate-900">{usd(BUNDLE_PRICE)}</span>
            <span className="text-sm text-slate-500">for {BUNDLE_MONTHS} months</span>
          </p>
          <SpotsLeft reading={spotsReadings.bundle} label="bundle spots left this month" className="mt-4" />
          <StartTrialLink placement="pricing-bundle" plan="bundle" size="md" className="mt-5 w-full">
            Claim the Bundle
          </StartTrialLink>
        </div>
      </div>
    </article>
  )
}
