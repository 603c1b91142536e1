import { Pencil, PlugZap, RefreshCw, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { StatusBadge } from '@/components/ui/status-badge'
import { accountBadgeStatus, accountNote, isConnected } from '../account-view'
import type { SocialAccount } from '../api/get-accounts'
import type { AccountToday } from '../api/get-accounts-today'
import type { InstagramFacts } from '../api/get-connection-facts'
import { InstagramOfficialFacts, SendingAccountFacts } from './account-facts'
import { AccountTodayPanel } from './account-today'
import { InstagramReconnect } from './official/instagram-reconnect'

const PLATFORM_STYLE: Record<string, string> = {
  twitter: 'bg-slate-900 text-white',
  instagram: 'bg-gradient-to-br from-amber-400 via-pink-500 to-purple-600 text-white',
}

function PlatformMark({ name }: { name: string | undefined }) {
  return (
    <span
      className={`flex size-10 shrink-0 items-center justify-center rounded-xl text-sm font-bold ${PLATFORM_STYLE[name ?? ''] ?? 'bg-slate-200 text-slate-700'}`}
      aria-hidden="true"
    >
      {name === 'twitter' ? '𝕏' : name === 'instagram' ? 'IG' : (name ?? '?').slice(0, 2).toUpperCase()}
    </span>
  )
}

/**
 * product.md §2 account card: platform, username, status, Messages/Day, Requests Pending, Connected,
 * Last Sync; an official account shows what is true for its connection instead or as well.
 */
export function AccountCard({
  account,
  today,
  xApiSpentMills,
  instagramFacts,
  testing,
  deleting,
  readOnly = false,
  onTest,
  onEdit,
  onDelete,
}: {
  account: SocialAccount
  /** Today's sending as the runner counts it; null until loaded (or for an account that sends no DMs). */
  today: AccountToday | null
  /** This month's X API bill (mills) of an official X account; undefined while loading. */
  xApiSpentMills?: number | undefined
  /** An official Instagram account's messages and webhook deliveries; null until loaded. */
  instagramFacts?: InstagramFacts | null
  testing: boolean
  deleting: boolean
  /** A role that only reads (a viewer): no test, edit, delete or reconnect. */
  readOnly?: boolean
  onTest: () => void
  onEdit: () => void
  onDelete: () => void
}) {
  const connected = isConnected(account)
  const note = accountNote(account)
  // an official account has no browser sign-in to test: its access is the platform's OAuth grant
  const official = account.connection === 'official'
  return (
    <div
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-card"
      data-testid="account-card"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <PlatformMark name={account.platform?.name} />
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900">@{account.username}</p>
            <p className="text-xs text-slate-500">
              {account.platform?.display_name ?? 'Unknown platform'}
              {official && (account.platform?.name === 'instagram' ? ' · Instagram API' : ' · X API')}
            </p>
          </div>
        </div>
        <StatusBadge status={accountBadgeStatus(account.status)} />
      </div>
      {note && <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600">{note}</p>}
      {official && account.platform?.name === 'instagram' ? (
        <InstagramOfficialFacts account={account} facts={instagramFacts ?? null} />
      ) : (
        <SendingAccountFacts
          account={account}
          today={today}
          xApiSpentMills={official ? xApiSpentMills : null}
        />
      )}
      {today && <AccountTodayPanel username={account.username} today={today} />}
      {!readOnly && official && account.platform?.name === 'instagram' && account.status === 'error' && (
        <InstagramReconnect username={account.username} />
      )}
      {!readOnly && (
        <div className="mt-5 flex items-center gap-2 border-t border-slate-100 pt-4">
          {!official && (
            <Button
              variant="secondary"
              size="sm"
              className="flex-1"
              onClick={onTest}
              loading={testing}
              loadingText="Testing..."
              icon={
                connected ? (
                  <RefreshCw className="size-4" aria-hidden="true" />
                ) : (
                  <PlugZap className="size-4" aria-hidden="true" />
                )
              }
            >
              {connected ? 'Test Connection' : 'Test & Connect'}
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            className={official ? 'flex-1' : undefined}
            onClick={onEdit}
            aria-label={`Edit @${account.username}`}
            icon={<Pencil className="size-4" aria-hidden="true" />}
          >
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={onDelete}
            loading={deleting}
            aria-label={`Delete @${account.username}`}
            className="text-red-600 hover:bg-red-50 hover:text-red-700"
            icon={<Trash2 className="size-4" aria-hidden="true" />}
          />
        </div>
      )}
    </div>
  )
}
