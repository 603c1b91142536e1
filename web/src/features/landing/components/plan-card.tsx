import { Check, ChevronDown } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { cn } from '@/lib/cn'
import type { CardPrice } from '../landing-pricing'

interface PlanCardProps {
  name: string
  tagline: string
  price: CardPrice | { amount: string; unit?: string; note: string }
  features: string[]
  allFeatures: string[]
  popular?: boolean
  /** Controls between the price and the features (the growth slider). */
  controls?: ReactNode
  action: ReactNode
  footnote?: ReactNode
}

/** A landing pricing card with its expandable feature list (See more / See fewer features). */
export function PlanCard({
  name,
  tagline,
  price,
  features,
  allFeatures,
  popular,
  controls,
  action,
  footnote,
}: PlanCardProps) {
  const [expanded, setExpanded] = useState(false)
  const listId = useId()
  const shown = expanded ? allFeatures : features
  const hasMore = allFeatures.length > features.length
  return (
    <article
      aria-label={`${name} plan`}
      className={cn(
        'relative flex flex-col rounded-3xl bg-white p-7 shadow-card ring-1',
        popular ? 'shadow-lift ring-2 ring-brand-500 lg:-mt-4 lg:mb-4' : 'ring-slate-200',
      )}
    >
      {popular && (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-brand-gradient px-4 py-1 text-xs font-semibold text-white shadow">
          Most Popular
        </p>
      )}
      <h3 className="text-lg font-semibold text-slate-900">{name}</h3>
      <p className="mt-1 text-sm text-slate-600">{tagline}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight text-slate-900">{price.amount}</span>
        {price.unit && <span className="text-sm font-medium text-slate-500">{price.unit}</span>}
      </p>
      <p className="mt-1 min-h-5 text-sm text-slate-500">{price.note}</p>
      {controls && <div className="mt-6">{controls}</div>}
      <div className="mt-6">{action}</div>
      <ul id={listId} className="mt-7 space-y-3 text-sm text-slate-700">
        {shown.map((feature) => (
          <li key={feature} className="flex gap-2.5">
            <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
      {hasMore && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((v) => !v)}
          className="mt-5 inline-flex items-center gap-1 self-start rounded-md text-sm font-semibold text-brand-700 hover:text-brand-800"
        >
          {expanded ? 'See fewer features' : 'See more features'}
          <ChevronDown
            className={cn('size-4 transition-transform', expanded && 'rotate-180')}
            aria-hidden="true"
          />
        </button>
      )}
      {footnote && (
        <div className="mt-5 border-t border-slate-100 pt-4 text-sm text-slate-600">{footnote}</div>
      )}
    </article>
  )
}
