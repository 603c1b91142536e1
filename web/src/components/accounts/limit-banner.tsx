import { AlertTriangle, CheckCircle2 } from 'lucide-react'
import { ChangePlanLink } from '@/components/billing/change-plan-link'
import { Spinner } from '@/components/ui/spinner'
import { FREE_PLAN_LIMIT_TEXT, LIMIT_CHECK_FAILED, LIMIT_REACHED } from '@/lib/accounts/check-account-limit'
import type { AccountLimit } from '@/lib/accounts/types'

/** 'Checking account limits...', then 'Ready to Add Account' (green) or 'Account Limit Reached' (red). */
export function LimitBanner({ limit }: { limit: AccountLimit | null }) {
  if (!limit) {
    return (
      <p
        role="status"
        className="flex items-center gap-2 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200"
      >
        <Spinner size={16} label="" />
        Checking account limits...
      </p>
    )
  }
  if (limit.canAddAccount) {
    return (
      <div className="flex gap-3 rounded-xl bg-emerald-50 px-4 py-3 ring-1 ring-emerald-200">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden="true" />
        <div className="text-sm">
          <p className="font-semibold text-emerald-900">Ready to Add Account</p>
          <p className="text-emerald-800">
            {limit.currentCount} of {limit.limit} account{limit.limit === 1 ? '' : 's'} used on your plan.
          </p>
        </div>
      </div>
    )
  }
  return (
    <div role="alert" className="flex gap-3 rounded-xl bg-red-50 px-4 py-3 ring-1 ring-red-200">
      <AlertTriangle className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
      <div className="text-sm">
        <p className="font-semibold text-red-900">Account Limit Reached</p>
        <p className="text-red-800">
          {limit.planType === 'free' ? FREE_PLAN_LIMIT_TEXT : (limit.error ?? LIMIT_REACHED)}
        </p>
        {limit.error !== LIMIT_CHECK_FAILED && (
          <ChangePlanLink className="mt-1 text-red-900">
            {limit.planType === 'free' ? 'Upgrade your plan' : 'Add more accounts'}
          </ChangePlanLink>
        )}
      </div>
    </div>
  )
}
