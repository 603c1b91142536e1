import { formatMoney, GROWTH_MAX_ACCOUNTS, quote } from '@reachflow/domain'
import { AlertTriangle, Minus, Plus } from 'lucide-react'
import { useId, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { planName } from '@/lib/plans'
import { changePlan } from '../api/change-plan'
import type { PlanChangePreview } from '../api/plan-change-types'
import { previewPlanChange } from '../api/preview-plan-change'
import type { Subscription } from '../api/types'
import { formatDate } from '../billing-display'
import { ProrationPreview } from './proration-preview'

interface ChangePlanDialogProps {
  open: boolean
  subscription: Subscription
  period: 'monthly' | 'yearly'
  onClose: () => void
  onChanged: () => Promise<void>
}

const clampAccounts = (value: number) => Math.min(GROWTH_MAX_ACCOUNTS, Math.max(1, Math.round(value) || 1))

/**
 * More or fewer accounts: the price after the change at once (pricing.ts), then Stripe's proration
 * for the rest of the period before anything is charged. A downgrade below the connected accounts
 * says which to remove and cannot be confirmed (the server refuses it too).
 */
export function ChangePlanDialog({ open, subscription, period, onClose, onChanged }: ChangePlanDialogProps) {
  const toast = useToast()
  const inputId = useId()
  const current = subscription.accounts_purchased ?? 1
  const [accounts, setAccounts] = useState(current)
  const [preview, setPreview] = useState<PlanChangePreview | null>(null)
  const [busy, setBusy] = useState<'preview' | 'confirm' | null>(null)
  const [error, setError] = useState<string | null>(null)

  const plan = subscription.plan_type === 'starter' && accounts === 1 ? 'starter' : 'growth'
  const priced = quote(plan, period, accounts)
  const unchanged = accounts === current && plan === subscription.plan_type
  const per = period === 'yearly' ? 'year' : 'month'

  const choose = (value: number) => {
    setAccounts(clampAccounts(value))
    setPreview(null)
    setError(null)
  }

  const review = async () => {
    setBusy('preview')
    setError(null)
    try {
      setPreview(await previewPlanChange(accounts))
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(null)
    }
  }

  const confirm = async () => {
    if (!preview) return
    setBusy('confirm')
    setError(null)
    try {
      const { message } = await changePlan(accounts, preview.prorationDate)
      await onChanged()
      toast.success(message, 'Plan changed', { key: 'subscription' })
      setPreview(null)
      onClose()
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Dialog
      open={open}
      onClose={() => busy === null && onClose()}
      title="Change plan"
      description={`You have ${current} account${current === 1 ? '' : 's'} on ${planName(subscription.plan_type)}. Choose how many you need; you see the price before anything is charged.`}
      size="lg"
    >
      <div className="space-y-5">
        <div>
          <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
            Number of accounts
          </label>
          <div className="mt-2 flex items-center gap-2">
            <Button
              variant="secondary"
              size="sm"
              aria-label="One account fewer"
              onClick={() => choose(accounts - 1)}
              disabled={accounts <= 1 || busy !== null}
              icon={<Minus className="size-4" aria-hidden="true" />}
            />
            <input
              id={inputId}
              type="number"
              inputMode="numeric"
              min={1}
              max={GROWTH_MAX_ACCOUNTS}
              value={accounts}
              onChange={(event) => choose(Number(event.target.value))}
              disabled={busy !== null}
              className="h-10 w-20 rounded-lg border border-slate-300 text-center text-base font-semibold tabular-nums text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
            />
            <Button
              variant="secondary"
              size="sm"
              aria-label="One account more"
              onClick={() => choose(accounts + 1)}
              disabled={accounts >= GROWTH_MAX_ACCOUNTS || busy !== null}
              icon={<Plus className="size-4" aria-hidden="true" />}
            />
          </div>
          <p className="mt-2 text-sm text-slate-600" data-testid="change-plan-price">
            {planName(plan)}: {formatMoney(priced.unitAmountCents)} per account per {per},{' '}
            <span className="font-semibold text-slate-900">
              {formatMoney(priced.amountCents)} per {per}
            </span>{' '}
            · {priced.dmsPerDay.toLocaleString('en-US')} DMs per day
          </p>
          <p className="mt-1 text-xs text-slate-500">
            More than {GROWTH_MAX_ACCOUNTS} accounts? Enterprise plans are set up by our team.
          </p>
        </div>

        {preview?.blocked && (
          <div role="alert" className="rounded-xl bg-red-50 p-4 text-sm ring-1 ring-red-200">
            <p className="flex items-center gap-2 font-semibold text-red-900">
              <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
              Remove accounts first
            </p>
            <p className="mt-1 text-red-800">{preview.blocked.message}</p>
            <ul
              className="mt-2 max-h-40 space-y-1 overflow-y-auto text-red-900"
              aria-label="Connected accounts"
            >
              {preview.blocked.accounts.map((account) => (
                <li key={account.id} className="flex justify-between gap-3 rounded bg-white/60 px-2 py-1">
                  <span className="truncate font-medium">@{account.username}</span>
                  <span className="shrink-0 text-red-700">{account.platform}</span>
                </li>
              ))}
            </ul>
            <Link
              to={paths.dashboard}
              className="mt-2 inline-block font-semibold text-red-900 underline underline-offset-2"
            >
              Manage accounts on the dashboard
            </Link>
          </div>
        )}

        {preview && !preview.blocked && <ProrationPreview preview={preview} per={per} />}

        {error && (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200">
            {error}
          </p>
        )}

        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy !== null}>
            Keep current plan
          </Button>
          {preview && !preview.blocked ? (
            <Button
              onClick={() => void confirm()}
              loading={busy === 'confirm'}
              loadingText="Changing plan..."
            >
              Confirm change
            </Button>
          ) : (
            <Button
              onClick={() => void review()}
              loading={busy === 'preview'}
              loadingText="Getting price..."
              disabled={unchanged || Boolean(preview?.blocked)}
            >
              Review price
            </Button>
          )}
        </div>
        {subscription.current_period_end && (
          <p className="text-xs text-slate-500">
            Your billing date stays {formatDate(subscription.current_period_end)}.
          </p>
        )}
      </div>
    </Dialog>
  )
}
