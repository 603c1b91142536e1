import { CalendarClock, CreditCard } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { paths } from '@/config/paths'
import { planName, usd } from '@/lib/plans'
import type { Payment, Subscription } from '../api/types'
import { canChangePlan, formatDate, planMonthlyPrice } from '../billing-display'
import { PaymentsTable } from './payments-table'
import { SubscriptionStatusPill } from './pills'

export const OVERVIEW_PAYMENTS = 5

export function OverviewTab({
  subscription,
  payments,
}: {
  subscription: Subscription | null
  payments: Payment[]
}) {
  const price = subscription ? planMonthlyPrice(subscription) : null
  const accounts = subscription?.accounts_purchased ?? 1
  return (
    <div className="space-y-6">
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardBody>
            <p className="flex items-center gap-2 text-sm font-medium text-slate-500">
              <CreditCard className="size-4" aria-hidden="true" />
              Current Plan
            </p>
            {subscription ? (
              <>
                <p className="mt-3 flex items-center gap-3 text-2xl font-bold text-slate-900">
                  {planName(subscription.plan_type)}
                  <SubscriptionStatusPill status={subscription.status} />
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  {accounts} account{accounts === 1 ? '' : 's'}
                  {price !== null && ` · ${usd(price)} per account per month`}
                </p>
                {canChangePlan(subscription) && (
                  <Link to={paths.changePlan} className={buttonClasses('secondary', 'sm', 'mt-4')}>
                    Change plan
                  </Link>
                )}
              </>
            ) : (
              <>
                <p className="mt-3 text-2xl font-bold text-slate-900">Free</p>
                <p className="mt-1 text-sm text-slate-600">
                  1 social account. Start a free trial to add more.
                </p>
                <Link to={`${paths.home}#pricing`} className={buttonClasses('primary', 'sm', 'mt-4')}>
                  See plans
                </Link>
              </>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <p className="flex items-center gap-2 text-sm font-medium text-slate-500">
              <CalendarClock className="size-4" aria-hidden="true" />
              Next Billing
            </p>
            <p className="mt-3 text-2xl font-bold text-slate-900">
              {subscription && !subscription.cancel_at_period_end && subscription.status !== 'canceled'
                ? formatDate(subscription.current_period_end)
                : '—'}
            </p>
            <p className="mt-1 text-sm text-slate-600">
              {!subscription
                ? 'No upcoming payment'
                : subscription.cancel_at_period_end
                  ? `Cancels at ${formatDate(subscription.current_period_end)}`
                  : subscription.status === 'trialing'
                    ? 'Your free trial converts to a paid plan on this date'
                    : 'Renews automatically'}
            </p>
          </CardBody>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Recent payments</CardTitle>
        </CardHeader>
        <CardBody>
          <PaymentsTable payments={payments.slice(0, OVERVIEW_PAYMENTS)} emptyText="No payments yet" />
        </CardBody>
      </Card>
    </div>
  )
}
