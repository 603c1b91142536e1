import { Check } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '@/lib/cn'
import { type PlanDisplay, usd } from '@/lib/plans'

interface OnboardingPlanCardProps {
  plan: PlanDisplay
  selected: boolean
  onSelect: () => void
  /** Extra controls under the price (the growth slider). */
  children?: ReactNode
}

/**
 * product.md §2 plan cards: a special plan shows the orange '3-Month Special' badge, the struck-through
 * original price, the savings and its own billing text without '/mo'; the popular one 'Most Popular'.
 */
export function OnboardingPlanCard({ plan, selected, onSelect, children }: OnboardingPlanCardProps) {
  return (
    <div
      data-plan={plan.id}
      className={cn(
        'relative flex flex-col rounded-2xl bg-white p-5 ring-1 transition',
        selected ? 'shadow-lift ring-2 ring-brand-600' : 'ring-slate-200 hover:ring-slate-300',
      )}
    >
      {plan.isSpecial && (
        <span className="absolute -top-3 left-5 rounded-full bg-orange-500 px-3 py-0.5 text-xs font-semibold text-white">
          3-Month Special
        </span>
      )}
      {plan.popular && !plan.isSpecial && (
        <span className="absolute -top-3 left-5 rounded-full bg-brand-gradient px-3 py-0.5 text-xs font-semibold text-white">
          Most Popular
        </span>
      )}
      <button
        type="button"
        aria-pressed={selected}
        onClick={onSelect}
        className="-m-2 rounded-xl p-2 text-left"
        aria-label={`Choose the ${plan.name} plan`}
      >
        <span className="flex items-center justify-between">
          <span className="text-lg font-semibold text-slate-900">{plan.name}</span>
          <span
            aria-hidden="true"
            className={cn(
              'flex size-5 items-center justify-center rounded-full ring-1',
              selected ? 'bg-brand-600 text-white ring-brand-600' : 'ring-slate-300',
            )}
          >
            {selected && <Check className="size-3.5" />}
          </span>
        </span>
        {plan.isSpecial && plan.originalPrice !== undefined && (
          <span className="mt-3 block text-sm">
            <span className="text-slate-400 line-through">{usd(plan.originalPrice)}</span>{' '}
            <span className="font-semibold text-orange-600">{plan.savings}</span>
          </span>
        )}
        <span className={cn('flex items-baseline gap-1', plan.isSpecial ? 'mt-1' : 'mt-3')}>
          <span className="text-3xl font-bold tracking-tight text-slate-900" data-testid="plan-price">
            {usd(plan.price)}
          </span>
          {!plan.isSpecial && <span className="text-sm text-slate-500">/mo</span>}
          {plan.isSpecial && <span className="text-sm text-slate-500">{plan.billing}</span>}
        </span>
        {!plan.isSpecial && (
          <span className="mt-1 block text-sm text-slate-500" data-testid="plan-billing">
            {plan.billing}
          </span>
        )}
      </button>
      {children && <div className="mt-4">{children}</div>}
      <ul className="mt-4 space-y-2 border-t border-slate-100 pt-4 text-sm text-slate-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </div>
  )
}
