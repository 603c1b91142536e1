// Manage: an account's status (flag, pause), warm-up, trust, today's sends, its campaigns and
// latest messages, and pausing or resuming its sending.

import type { AccountDetail, AdminAccount } from '@reachflow/domain'
import { Pause, Play } from 'lucide-react'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { relativeTime } from '@/lib/relative-time'
import { getAccount } from '../api/get-account'
import { setAccountSending } from '../api/set-account-sending'
import { formatDate, formatDateTime, humanize } from '../format'
import { useAdminAction } from '../hooks/use-admin-action'
import { usePolling } from '../hooks/use-polling'
import { TrustScore, warmupLabel } from './account-bits'
import { Drawer, DrawerSection, Fact, FactGrid } from './drawer'
import { Pill } from './pill'

const PAUSE_CHOICES: [string, number | null][] = [
  ['1 hour', 60],
  ['24 hours', 24 * 60],
  ['Until resumed', null],
]

const canPause = (a: AccountDetail) => ['active', 'flagged', 'paused'].includes(a.status)
const canResume = (a: AccountDetail) => ['paused', 'flagged'].includes(a.status)

function SendingControls({ account, onChanged }: { account: AccountDetail; onChanged: () => void }) {
  const { run, isBusy } = useAdminAction()
  const [minutes, setMinutes] = useState<number | null>(60)
  const pause = async () => {
    const done = await run(
      'pause',
      () => setAccountSending(account.id, true, minutes),
      `Sending paused for @${account.username}`,
    )
    if (done) onChanged()
  }
  const resume = async () => {
    const done = await run(
      'resume',
      () => setAccountSending(account.id, false),
      `Sending resumed for @${account.username}`,
    )
    if (done) onChanged()
  }
  if (!canPause(account) && !canResume(account)) {
    return (
      <p className="text-sm text-slate-600">
        This account is {humanize(account.status).toLowerCase()}: it is not sending, so there is nothing to
        pause.
      </p>
    )
  }
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      {canPause(account) && account.status !== 'paused' ? (
        <>
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Pause for</legend>
            {PAUSE_CHOICES.map(([label, value]) => (
              <label
                key={label}
                className="cursor-pointer rounded-lg border border-slate-300 px-3 py-1.5 text-sm text-slate-700 has-checked:border-brand-500 has-checked:bg-brand-50 has-checked:text-brand-700"
              >
                <input
                  type="radio"
                  name="pause-for"
                  className="sr-only"
                  checked={minutes === value}
                  onChange={() => setMinutes(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <Button
            variant="secondary"
            icon={<Pause className="size-4" />}
            loading={isBusy('pause')}
            onClick={() => void pause()}
          >
            Pause sending
          </Button>
        </>
      ) : (
        <span className="text-sm text-slate-600">
          {account.pausedUntil
            ? `Paused until ${formatDateTime(account.pausedUntil)}`
            : humanize(account.status)}
        </span>
      )}
      {canResume(account) && (
        <Button icon={<Play className="size-4" />} loading={isBusy('resume')} onClick={() => void resume()}>
          Resume sending
        </Button>
      )}
    </div>
  )
}

function AccountDetailBody({ id, onChanged }: { id: string; onChanged: () => void }) {
  const load = useCallback(() => getAccount(id), [id])
  const { data: a, error, refresh } = usePolling(load, { intervalMs: null, enabled: false })
  if (error && !a) return <p className="text-sm text-red-600">{error.message}</p>
  if (!a)
    return (
      <div className="flex justify-center py-12 text-brand-600">
        <Spinner size={32} label="Loading account" />
      </div>
    )
  return (
    <>
      <div className="rounded-xl border border-slate-200 bg-slate-50/60 p-4">
        <SendingControls
          account={a}
          onChanged={() => {
            void refresh()
            onChanged()
          }}
        />
      </div>
      <div className="mt-6">
        <FactGrid>
          <Fact label="Status">
            <Pill status={a.status} />
          </Fact>
          <Fact label="Platform">{a.platformDisplayName}</Fact>
          <Fact label="Warm-up">{warmupLabel(a.warmupPhase)}</Fact>
          <Fact label="Trust score">
            <TrustScore score={a.trustScore} />
          </Fact>
          <Fact label="Sent today">
            {a.messagesSentToday} of {a.allowedToday} allowed
            {a.allowedToday !== a.dailyMessageLimit && (
              <span className="block text-xs text-slate-500">own limit {a.dailyMessageLimit}</span>
            )}
          </Fact>
          <Fact label="Requests pending">{a.requestsPending}</Fact>
          <Fact label="Last login">{a.lastLogin ? relativeTime(a.lastLogin) : 'Never'}</Fact>
          <Fact label="Last sync">{a.lastSyncedAt ? relativeTime(a.lastSyncedAt) : 'Never'}</Fact>
          <Fact label="Connected">{formatDate(a.createdAt)}</Fact>
          <Fact label="Owner">{a.userEmail}</Fact>
        </FactGrid>
        {a.flagReason && (
          <p className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">Flagged: {a.flagReason}</p>
        )}
      </div>
      <DrawerSection title={`Campaigns (${a.campaigns.length})`}>
        {a.campaigns.length === 0 ? (
          <p className="text-sm text-slate-500">No campaigns use this account.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {a.campaigns.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="min-w-0 truncate font-medium text-slate-900">{c.name}</span>
                <Pill status={c.status} />
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
      <DrawerSection title="Latest messages">
        {a.recentMessages.length === 0 ? (
          <p className="text-sm text-slate-500">No messages sent yet</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {a.recentMessages.map((m) => (
              <li key={m.id} className="flex items-center justify-between gap-3 px-4 py-2.5 text-sm">
                <span className="min-w-0 truncate text-slate-900">@{m.target_username}</span>
                <span className="flex shrink-0 items-center gap-2 text-xs text-slate-500">
                  {relativeTime(m.sent_at)}
                  <Pill status={m.status === 'sent' ? 'success' : m.status} label={humanize(m.status)} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
    </>
  )
}

export function AccountDrawer({
  account,
  onClose,
  onChanged,
}: {
  account: AdminAccount | null
  onClose: () => void
  onChanged: () => void
}) {
  return (
    <Drawer
      open={account !== null}
      onClose={onClose}
      title={account ? `@${account.username}` : ''}
      description={account?.user_email}
    >
      {account && <AccountDetailBody id={account.id} onChanged={onChanged} />}
    </Drawer>
  )
}
