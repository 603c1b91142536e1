import type { BillingPeriod } from '@reachflow/domain'
import { cn } from '@/lib/cn'

interface BillingPeriodToggleProps {
  value: BillingPeriod
  onChange: (period: BillingPeriod) => void
  /** Label of the yearly option ('Annual' on the landing page, 'Yearly' in onboarding). */
  yearlyLabel?: string
  className?: string
}

/** Monthly / yearly switch; the yearly option carries the 'Save 20%' badge (product.md §2). */
export function BillingPeriodToggle({
  value,
  onChange,
  yearlyLabel = 'Annual',
  className,
}: BillingPeriodToggleProps) {
  const option = (period: BillingPeriod, label: string, badge?: string) => (
    <button
      type="button"
      aria-pressed={value === period}
      onClick={() => onChange(period)}
      className={cn(
        'inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold transition-colors',
        value === period ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
      )}
    >
      {label}
      {badge && (
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-700">
          {badge}
        </span>
      )}
    </button>
  )
  return (
    <fieldset
      className={cn(
        'inline-flex items-center rounded-full bg-slate-100 p-1 ring-1 ring-slate-200',
        className,
      )}
    >
      <legend className="sr-only">Billing period</legend>
      {option('monthly', 'Monthly')}
      {option('yearly', yearlyLabel, 'Save 20%')}
    </fieldset>
  )
}
