import { useState } from 'react'
import { Link } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { Dialog } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { planName, usd } from '@/lib/plans'
import { cancelSubscription, resumeSubscription } from '../api/change-subscription'
import type { Subscription } from '../api/types'
import { canChangePlan, formatDate, planMonthlyPrice, subscriptionPeriod } from '../billing-display'
import { ChangePlanDialog } from './change-plan-dialog'
import { SubscriptionStatusPill } from './pills'

const periodLabel = { monthly: 'Monthly', yearly: 'Yearly', quarterly: 'Every 3 months' } as const

interface SubscriptionTabProps {
  subscription: Subscription | null
  onChanged: () => Promise<void>
  /** The change-plan dialog is open (the page's ?change=plan, or the Change plan button). */
  changing: boolean
  onChangingChange: (open: boolean) => void
}

/** Plan details with Cancel Subscription, or 'Cancels at' and Resume Subscription (product.md §2 Billing). */
export function SubscriptionTab({
  subscription,
  onChanged,
  changing,
  onChangingChange,
}: SubscriptionTabProps) {
  const toast = useToast()
  const [busy, setBusy] = useState<'cancel' | 'resume' | null>(null)
  const [confirming, setConfirming] = useState(false)

  if (!subscription) {
    return (
      <Card>
        <CardBody className="text-center">
          <p className="text-lg font-semibold text-slate-900">No active subscription</p>
          <p className="mt-1 text-slate-600">You are on the free plan with 1 social account.</p>
          <Link to={`${paths.home}#pricing`} className={buttonClasses('primary', 'md', 'mt-5')}>
            Start your free trial
          </Link>
        </CardBody>
      </Card>
    )
  }

  const run = async (action: 'cancel' | 'resume') => {
    setBusy(action)
    try {
      await (action === 'cancel' ? cancelSubscription() : resumeSubscription())
      await onChanged()
      toast.success(
        action === 'cancel'
          ? `Your plan stays active until ${formatDate(subscription.current_period_end)}.`
          : 'Your subscription will renew as usual.',
        action === 'cancel' ? 'Subscription cancelled' : 'Subscription resumed',
        { key: 'subscription' },
      )
    } catch (error) {
      toast.error((error as Error).message, action === 'cancel' ? 'Could not cancel' : 'Could not resume', {
        key: 'subscription',
      })
    } finally {
      setBusy(null)
      setConfirming(false)
    }
  }

  const price = planMonthlyPrice(subscription)
  const rows: Array<[string, React.ReactNode]> = [
    ['Plan', planName(subscription.plan_type)],
    ['Status', <SubscriptionStatusPill key="status" status={subscription.status} />],
    ['Accounts', String(subscription.accounts_purchased ?? 1)],
    ['Billing', periodLabel[subscriptionPeriod(subscription)]],
    ['Price', price === null ? '—' : `${usd(price)} per account per month`],
    [
      'Current period',
      `${formatDate(subscription.current_period_start)} – ${formatDate(subscription.current_period_end)}`,
    ],
  ]
  const ended = subscription.status === 'canceled'
  const period = subscriptionPeriod(subscription)
  const changeable = canChangePlan(subscription)

  return (
    <Card>
      <CardBody>
        <dl className="divide-y divide-slate-100">
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-4 py-3 text-sm">
              <dt className="text-slate-500">{label}</dt>
              <dd className="font-medium text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        {changeable && (
          <div className="mt-6 flex flex-col gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-slate-600">
              Need more accounts, or fewer? Change your plan; you see the price first.
            </p>
            <Button onClick={() => onChangingChange(true)}>Change plan</Button>
          </div>
        )}
        {!ended && (
          <div className="mt-6 flex flex-col gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
            {subscription.cancel_at_period_end ? (
              <>
                <p className="text-sm font-medium text-amber-700">
                  Cancels at {formatDate(subscription.current_period_end)}
                </p>
                <Button onClick={() => run('resume')} loading={busy === 'resume'} loadingText="Resuming...">
                  Resume Subscription
                </Button>
              </>
            ) : (
              <>
                <p className="text-sm text-slate-600">
                  Cancel anytime. You keep access until the end of the period.
                </p>
                <Button variant="danger" onClick={() => setConfirming(true)}>
                  Cancel Subscription
                </Button>
              </>
            )}
          </div>
        )}
      </CardBody>
      {changeable && changing && (
        <ChangePlanDialog
          open
          subscription={subscription}
          period={period === 'yearly' ? 'yearly' : 'monthly'}
          onClose={() => onChangingChange(false)}
          onChanged={onChanged}
        />
      )}
      <Dialog
        open={confirming}
        onClose={() => busy === null && setConfirming(false)}
        title="Cancel your subscription?"
        description={`Your plan stays active until ${formatDate(subscription.current_period_end)}. You can resume any time before then.`}
        size="md"
      >
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy !== null}>
            Keep Subscription
          </Button>
          <Button
            variant="danger"
            onClick={() => run('cancel')}
            loading={busy === 'cancel'}
            loadingText="Cancelling..."
          >
            Cancel Subscription
          </Button>
        </div>
      </Dialog>
    </Card>
  )
}
