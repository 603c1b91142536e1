// View Details: who the user is, their subscriptions, accounts, campaigns and latest payments.

import type { AdminUser } from '@reachflow/domain'
import { useCallback } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { relativeTime } from '@/lib/relative-time'
import { getUser } from '../api/get-user'
import { formatDate, formatNumber, humanize } from '../format'
import { usePolling } from '../hooks/use-polling'
import { Drawer, DrawerSection, Fact, FactGrid } from './drawer'
import { Pill } from './pill'

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)

function Empty({ children }: { children: string }) {
  return (
    <p className="rounded-xl border border-dashed border-slate-200 px-4 py-5 text-center text-sm text-slate-500">
      {children}
    </p>
  )
}

function UserDetailBody({ id }: { id: string }) {
  const load = useCallback(() => getUser(id), [id])
  const { data: user, error } = usePolling(load, { intervalMs: null, enabled: false })
  if (error && !user) return <p className="text-sm text-red-600">{error.message}</p>
  if (!user)
    return (
      <div className="flex justify-center py-12 text-brand-600">
        <Spinner size={32} label="Loading user" />
      </div>
    )
  return (
    <>
      <FactGrid>
        <Fact label="Name">{user.fullName ?? '—'}</Fact>
        <Fact label="Business">{user.businessName ?? '—'}</Fact>
        <Fact label="Status">
          <Pill status={user.status} />
          {user.isAdmin && <Pill status="queued" label="Admin" className="ml-1.5" />}
        </Fact>
        <Fact label="Plan">
          {humanize(user.subscriptionPlan)} · <Pill status={user.subscriptionStatus} />
        </Fact>
        <Fact label="Signed up">{formatDate(user.createdAt)}</Fact>
        <Fact label="Last sign-in">{user.lastSignInAt ? relativeTime(user.lastSignInAt) : 'Never'}</Fact>
      </FactGrid>

      <DrawerSection title="Subscriptions">
        {user.subscriptions.length === 0 ? (
          <Empty>No subscription yet</Empty>
        ) : (
          <ul className="space-y-2">
            {user.subscriptions.map((s) => (
              <li key={s.id} className="rounded-xl border border-slate-200 px-4 py-3 text-sm">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-medium text-slate-900">
                    {humanize(s.planType)} · {s.accountsPurchased}{' '}
                    {s.accountsPurchased === 1 ? 'account' : 'accounts'} · {s.billingPeriod}
                  </span>
                  <Pill status={s.status} />
                </div>
                <p className="mt-1 text-xs text-slate-500">
                  {s.currentPeriodEnd
                    ? `${s.cancelAtPeriodEnd ? 'Cancels' : 'Renews'} ${formatDate(s.currentPeriodEnd)}`
                    : `Started ${formatDate(s.createdAt)}`}
                  {s.trialEnd ? ` · trial ends ${formatDate(s.trialEnd)}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>

      <DrawerSection title={`Social accounts (${user.accounts.length})`}>
        {user.accounts.length === 0 ? (
          <Empty>No connected accounts</Empty>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {user.accounts.map((a) => (
              <li key={a.id} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="min-w-0 truncate">
                  <span className="font-medium text-slate-900">@{a.username}</span>{' '}
                  <span className="text-slate-500">{humanize(a.platform_name)}</span>
                </span>
                <span className="flex shrink-0 items-center gap-2">
                  <span className="text-xs text-slate-500">{Math.round(a.trust_score * 100)}% trust</span>
                  <Pill status={a.status} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>

      <DrawerSection title={`Campaigns (${user.campaigns.length})`}>
        {user.campaigns.length === 0 ? (
          <Empty>No campaigns yet</Empty>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {user.campaigns.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="min-w-0 truncate font-medium text-slate-900">{c.name}</span>
                <span className="flex shrink-0 items-center gap-2">
                  <span className="text-xs text-slate-500 tabular-nums">
                    {formatNumber(c.messages_sent)} sent · target {formatNumber(c.target_count)}
                  </span>
                  <Pill status={c.status} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>

      <DrawerSection title="Latest payments">
        {user.payments.length === 0 ? (
          <Empty>No payments</Empty>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {user.payments.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="min-w-0">
                  <span className="block truncate text-slate-900">{p.description ?? 'Payment'}</span>
                  <span className="text-xs text-slate-500">{formatDate(p.created_at)}</span>
                </span>
                <span className="flex shrink-0 items-center gap-2">
                  <span className="font-medium text-slate-900 tabular-nums">
                    {money(p.amount, p.currency)}
                  </span>
                  <Pill status={p.status === 'succeeded' ? 'success' : p.status} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
    </>
  )
}

export function UserDrawer({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  return (
    <Drawer open={user !== null} onClose={onClose} title={user?.email} description="User details">
      {user && <UserDetailBody id={user.id} />}
    </Drawer>
  )
}
