import { formatMoney } from '@reachflow/domain'
import type { PlanChangePreview } from '../api/plan-change-types'
import { formatDate } from '../billing-display'

/** Stripe's proration lines for the rest of the period, what is due today and the price after. */
export function ProrationPreview({ preview, per }: { preview: PlanChangePreview; per: string }) {
  const { next } = preview
  return (
    <section
      aria-label="Price preview"
      className="rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200"
      data-testid="proration-preview"
    >
      <h3 className="font-semibold text-slate-900">For the rest of this period</h3>
      {preview.trialing ? (
        <p className="mt-1 text-slate-600">You are on your free trial, so nothing is charged today.</p>
      ) : (
        <ul className="mt-2 space-y-1.5">
          {preview.lines.map((line, i) => (
            // Stripe's lines come in its order and may repeat a description (or have none)
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is Stripe's, shown whole and never reordered
            <li key={i} className="flex items-start justify-between gap-4">
              <span className="text-slate-600">
                {line.description ?? (line.amount < 0 ? 'Credit' : 'Adjustment')}
              </span>
              <span className="shrink-0 font-medium tabular-nums text-slate-900">
                {formatMoney(line.amount)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <dl className="mt-3 space-y-1 border-t border-slate-200 pt-3">
        <div className="flex justify-between gap-4 text-base">
          <dt className="font-semibold text-slate-900">Due today</dt>
          <dd className="font-semibold tabular-nums text-slate-900" data-testid="amount-due-today">
            {formatMoney(preview.amountDue)}
          </dd>
        </div>
        {preview.credit > 0 && (
          <div className="flex justify-between gap-4 text-emerald-700">
            <dt>Credit for your next invoices</dt>
            <dd className="tabular-nums">{formatMoney(preview.credit)}</dd>
          </div>
        )}
      </dl>
      <p className="mt-3 text-slate-600">
        Then {formatMoney(next.amount)} per {per} for {next.accounts} account{next.accounts === 1 ? '' : 's'}{' '}
        ({next.dmsPerDay.toLocaleString('en-US')} DMs per day)
        {preview.periodEnd ? ` from ${formatDate(preview.periodEnd)}` : ''}. The new limit applies as soon as
        you confirm.
      </p>
    </section>
  )
}
