import { formatUsd } from '@reachflow/domain'
import { relativeTime } from '@/lib/relative-time'
import { isConnected, lastSyncLabel } from '../account-view'
import type { SocialAccount } from '../api/get-accounts'
import type { AccountToday } from '../api/get-accounts-today'
import type { InstagramFacts } from '../api/get-connection-facts'

/** Meta delivered for the account within this long: its webhook is shown live. */
const WEBHOOK_LIVE_MS = 7 * 24 * 3600_000

function Fact({ label, value, tone = 'text-slate-900' }: { label: string; value: string; tone?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={`font-semibold ${tone}`}>{value}</dd>
    </div>
  )
}

function ConnectedFact({ account }: { account: SocialAccount }) {
  const connected = isConnected(account)
  return (
    <Fact
      label="Connected"
      value={connected ? 'Yes' : 'No'}
      tone={connected ? 'text-emerald-700' : 'text-slate-500'}
    />
  )
}

/** What Meta's deliveries say about the account's webhook. */
export function webhookLabel(lastWebhookAt: string | null, now: number = Date.now()): string {
  if (!lastWebhookAt) return 'No event yet'
  if (now - Date.parse(lastWebhookAt) < WEBHOOK_LIVE_MS) return 'Live'
  return `Quiet since ${new Date(lastWebhookAt).toLocaleDateString()}`
}

/**
 * An official Instagram account's messages arrive by Meta's webhook: no browser syncs it and it
 * has no DM allowance or pending requests, so its card says what arrived and whether Meta delivers.
 */
export function InstagramOfficialFacts({
  account,
  facts,
}: {
  account: SocialAccount
  facts: InstagramFacts | null
}) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm" data-testid="account-facts">
      <Fact
        label="Last message received"
        value={facts?.lastReceivedAt ? relativeTime(facts.lastReceivedAt) : 'None yet'}
      />
      <Fact label="Received this week" value={String(facts?.receivedThisWeek ?? 0)} />
      <Fact
        label="Webhook"
        value={webhookLabel(facts?.lastWebhookAt ?? null)}
        tone={facts?.lastWebhookAt ? 'text-emerald-700' : 'text-slate-500'}
      />
      <ConnectedFact account={account} />
    </dl>
  )
}

/** product.md §2 card fields for an account the runner drives (a browser one, or X through the X API). */
export function SendingAccountFacts({
  account,
  today,
  xApiSpentMills,
}: {
  account: SocialAccount
  today: AccountToday | null
  /** This month's X API bill of an official X account (undefined while loading); null for others. */
  xApiSpentMills: number | null | undefined
}) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm" data-testid="account-facts">
      {/* today's real allowance (warm-up and the other caps applied), not the limit typed in */}
      <Fact label="Messages/Day" value={String(today?.allowed ?? account.daily_message_limit)} />
      <Fact label="Requests Pending" value={String(account.requests_pending)} />
      <ConnectedFact account={account} />
      <Fact label="Last Sync" value={lastSyncLabel(account, relativeTime)} />
      {xApiSpentMills !== null && (
        <Fact
          label="X API spent this month"
          value={xApiSpentMills === undefined ? '…' : formatUsd(xApiSpentMills)}
        />
      )}
    </dl>
  )
}
