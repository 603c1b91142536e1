import { useMutation, useQueryClient } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { queryRoots } from '@/lib/query-keys'
import { relativeTime } from '@/lib/relative-time'
import { requestInboxCheck } from '../api/request-inbox-check'
import type { InboxAccount } from '../api/types'
import { inboxKeys, useInboxOverview } from '../hooks/use-inbox'

/** Instagram's webhooks bring an official Instagram account's messages: there is nothing to check. */
const arrivesLive = (a: InboxAccount) => a.connection === 'official' && a.platform === 'instagram'

/** After this long without the check finishing, the button is freed and the delay said. */
const CHECK_PATIENCE_MS = 180_000

/** The least recent check among the accounts shown: everything is at least this fresh. */
function lastChecked(accounts: InboxAccount[]): string | null | undefined {
  if (accounts.length === 0) return undefined
  if (accounts.some((a) => !a.last_synced_at)) return null
  return accounts
    .map((a) => a.last_synced_at)
    .filter((at): at is string => at !== null)
    .sort()[0]
}

/** Every account was synced after its last "Check now" (both times are the server's). */
function checksDone(accounts: InboxAccount[]): boolean {
  return accounts.every(
    (a) =>
      !a.check_requested_at ||
      (a.last_synced_at !== null && Date.parse(a.last_synced_at) >= Date.parse(a.check_requested_at)),
  )
}

/** "Last checked <time>" and "Check now" (once a minute per account; the wait is said when limited). */
export function CheckNow({ accountId }: { accountId: string }) {
  const queryClient = useQueryClient()
  const [checkingSince, setCheckingSince] = useState<number | null>(null)
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null)
  const overview = useInboxOverview(checkingSince !== null)
  const shown = (overview.data?.accounts ?? []).filter(
    (a) => a.status === 'active' && (!accountId || a.id === accountId),
  )
  const accounts = shown.filter((a) => !arrivesLive(a))
  const checked = lastChecked(accounts)

  // Done once the overview read after the request shows every account synced since it.
  useEffect(() => {
    if (checkingSince === null || overview.dataUpdatedAt <= checkingSince) return
    if (checksDone(accounts)) {
      setCheckingSince(null)
      setMessage(null)
      void queryClient.invalidateQueries({ queryKey: [queryRoots.inbox] })
    } else if (Date.now() - checkingSince > CHECK_PATIENCE_MS) {
      setCheckingSince(null)
      setMessage({
        tone: 'info',
        text: 'The check is taking longer than usual; new replies appear here as soon as it finishes.',
      })
    }
  }, [accounts, checkingSince, overview.dataUpdatedAt, queryClient])

  const check = useMutation({
    mutationFn: () => requestInboxCheck(accountId || undefined),
    onSuccess: ({ limited }) => {
      setCheckingSince(Date.now())
      setMessage(
        limited > 0
          ? {
              tone: 'info',
              text: `${limited} account${limited === 1 ? ' was' : 's were'} checked less than a minute ago; checking the others.`,
            }
          : null,
      )
      void queryClient.invalidateQueries({ queryKey: inboxKeys.overview })
    },
    onError: (error) => setMessage({ tone: 'error', text: error.message }),
  })

  if (accounts.length === 0 && shown.length > 0)
    return (
      <p className="text-xs text-slate-500 sm:text-right" data-testid="inbox-last-checked">
        Instagram messages arrive here as they are sent.
      </p>
    )
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 sm:justify-end">
      <p className="text-xs text-slate-500" data-testid="inbox-last-checked" aria-live="polite">
        {checkingSince !== null
          ? 'Checking the inbox…'
          : checked === undefined
            ? 'No active account to check'
            : `Last checked ${checked ? relativeTime(checked) : 'never'}`}
      </p>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => check.mutate()}
        loading={check.isPending || checkingSince !== null}
        disabled={checked === undefined}
        icon={<RefreshCw className="size-4" aria-hidden="true" />}
      >
        Check now
      </Button>
      {message && (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={
            message.tone === 'error'
              ? 'w-full text-xs font-medium text-red-600 sm:text-right'
              : 'w-full text-xs text-slate-600 sm:text-right'
          }
        >
          {message.text}
        </p>
      )}
    </div>
  )
}
