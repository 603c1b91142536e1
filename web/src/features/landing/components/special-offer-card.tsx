import { STARTER_YEARLY_PER_MONTH } from '@reachflow/domain'
import { BadgePercent } from 'lucide-react'
import { usd } from '@/lib/plans'
import { spotsReadings } from '../variants'
import { StartTrialLink } from './cta-links'
import { SpotsLeft } from './spots-left'

/** Ads variants only: the first-month-free offer with its spots-left counter (product.md §2, §9). */
export function SpecialOfferCard() {
  return (
    <article
      aria-labelledby="special-offer-title"
      className="mx-auto mt-12 max-w-3xl rounded-3xl bg-brand-gradient p-[2px] shadow-lift"
    >
      <div className="flex flex-col items-center gap-5 rounded-[calc(1.5rem-2px)] bg-white px-6 py-8 text-center sm:px-10">
        <p className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-700">
          <BadgePercent className="size-4" aria-hidden="true" />
          Special offer
        </p>
        <h3 id="special-offer-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
          Your first month free, then {usd(STARTER_YEARLY_PER_MONTH)}/month
        </h3>
        <p className="max-w-xl text-slate-600">
          Launch your first campaign today and pay nothing for the first month. Every feature, the same
          support, no contract.
        </p>
        <SpotsLeft reading={spotsReadings.adsOffer} label="spots left at this price" />
        <StartTrialLink placement="special-offer" className="w-full sm:w-auto">
          Claim My Free Month
        </StartTrialLink>
      </div>
    </article>
  )
}
