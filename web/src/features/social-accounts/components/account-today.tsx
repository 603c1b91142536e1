import { ProgressBar } from '@/components/ui/progress-bar'
import { pluralize } from '@/lib/format'
import type { AccountToday } from '../api/get-accounts-today'

/** Which cap sets today's allowance, said the way the customer can act on it. */
function capNote(today: AccountToday): string {
  switch (today.setBy) {
    case 'warmup':
      return `Warm-up day ${today.warmupDay ?? 1}: ${today.allowed} a day while the account warms up; your limit of ${today.ownLimit} applies after.`
    case 'recovering':
      return `Reduced to ${today.allowed} a day while the account recovers from a platform warning.`
    case 'account':
      return today.warmupDay === null
        ? 'Your daily limit for this account.'
        : `Warm-up day ${today.warmupDay}: your own limit of ${today.ownLimit} is below the warm-up cap.`
    case 'platform':
      return "The platform's daily ceiling."
  }
}

/** Sent today of today's real allowance, why the allowance is what it is, and that answers count. */
export function AccountTodayPanel({ username, today }: { username: string; today: AccountToday }) {
  const used = today.allowed > 0 ? (today.sent / today.allowed) * 100 : 100
  return (
    <div className="mt-4 rounded-xl bg-slate-50 px-3 py-3 ring-1 ring-slate-200" data-testid="account-today">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="text-xs text-slate-500">Sent today</span>
        <span className="font-semibold text-slate-900 tabular-nums">
          {today.sent} / {today.allowed} allowed
        </span>
      </div>
      <ProgressBar value={used} label={`@${username} sent today of today's allowance`} className="mt-2" />
      <p className="mt-2 text-xs text-slate-600">{capNote(today)}</p>
      <p className="mt-1 text-xs text-slate-500">
        Inbox answers count toward it
        {today.answers > 0 ? ` (${pluralize(today.answers, 'answer')} today)` : ''}.
      </p>
    </div>
  )
}
