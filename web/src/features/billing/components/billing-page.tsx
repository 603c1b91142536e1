import { AlertCircle } from 'lucide-react'
import { type KeyboardEvent, useId, useState } from 'react'
import { useSearchParams } from 'react-router'
import { PageHeading } from '@/components/layouts/page-heading'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/cn'
import { useBilling } from '../hooks/use-billing'
import { OverviewTab } from './overview-tab'
import { OwnerManagesBilling } from './owner-manages-billing'
import { PaymentHistoryTab } from './payment-history-tab'
import { SubscriptionTab } from './subscription-tab'

const tabs = [
  { id: 'overview', label: 'Overview' },
  { id: 'subscription', label: 'Subscription' },
  { id: 'history', label: 'Payment History' },
] as const
type TabId = (typeof tabs)[number]['id']

export function BillingPage() {
  // ?change=plan (every "limit reached" message links there) opens the change-plan control at once.
  const [searchParams, setSearchParams] = useSearchParams()
  const changing = searchParams.get('change') === 'plan'
  const [chosenTab, setTab] = useState<TabId>('overview')
  // The control lives on the Subscription tab, so ?change=plan shows that tab (from a link on this page too).
  const tab = changing ? 'subscription' : chosenTab
  const setChanging = (open: boolean) => {
    // Closing stays on the Subscription tab, where the plan it changed is shown.
    setTab('subscription')
    setSearchParams(open ? { change: 'plan' } : {}, { replace: true })
  }
  const { loading, error, workspace, subscription, payments, reload } = useBilling()
  const ownerOnly = workspace !== null && !workspace.isOwner
  const baseId = useId()

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onTabKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    const index = tabs.findIndex((t) => t.id === tab)
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]
    if (!next) return
    setTab(next.id)
    document.getElementById(`${baseId}-tab-${next.id}`)?.focus()
  }

  return (
    <main className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-12">
      <PageHeading title="Billing" description="Your plan, your next payment and every invoice." />

      {ownerOnly ? (
        <div className="mt-8">
          <OwnerManagesBilling workspace={workspace} />
        </div>
      ) : (
        <>
          <div
            role="tablist"
            aria-label="Billing sections"
            onKeyDown={onTabKeyDown}
            className="mt-8 grid grid-cols-3 border-b border-slate-200 sm:flex sm:gap-1"
          >
            {tabs.map((t) => (
              <button
                key={t.id}
                id={`${baseId}-tab-${t.id}`}
                role="tab"
                type="button"
                aria-selected={tab === t.id}
                aria-controls={`${baseId}-panel`}
                tabIndex={tab === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
                className={cn(
                  // three equal columns on a phone, so no label is cut off; side by side from sm up
                  '-mb-px border-b-2 px-1 py-2.5 text-center text-[0.8125rem] font-semibold whitespace-nowrap transition-colors sm:px-4 sm:text-sm',
                  tab === t.id
                    ? 'border-brand-600 text-brand-700'
                    : 'border-transparent text-slate-500 hover:text-slate-800',
                )}
              >
                {t.label}
              </button>
            ))}
          </div>

          <section
            id={`${baseId}-panel`}
            role="tabpanel"
            aria-labelledby={`${baseId}-tab-${tab}`}
            className="mt-6"
          >
            {loading ? (
              <div className="flex justify-center py-20 text-brand-600">
                <Spinner size={32} label="Loading billing" />
              </div>
            ) : error ? (
              <div
                role="alert"
                className="flex flex-col items-center gap-3 rounded-2xl bg-red-50 p-8 text-center ring-1 ring-red-200"
              >
                <AlertCircle className="size-8 text-red-500" aria-hidden="true" />
                <p className="text-red-700">{error}</p>
                <Button variant="secondary" onClick={() => void reload()}>
                  Retry
                </Button>
              </div>
            ) : tab === 'overview' ? (
              <OverviewTab subscription={subscription} payments={payments} />
            ) : tab === 'subscription' ? (
              <SubscriptionTab
                subscription={subscription}
                onChanged={reload}
                changing={changing}
                onChangingChange={setChanging}
              />
            ) : (
              <PaymentHistoryTab payments={payments} />
            )}
          </section>
        </>
      )}
    </main>
  )
}
