import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AtSign, Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { errorMessage } from '@/lib/api-client'
import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { useRegisterExport } from '@/lib/export-registry'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { ACCOUNT_DELETED, deleteAccount } from '../api/delete-account'
import { getAccounts, type SocialAccount } from '../api/get-accounts'
import { getAccountsToday } from '../api/get-accounts-today'
import { getInstagramFacts, getXApiSpend } from '../api/get-connection-facts'
import { testAccount } from '../api/test-account'
import { AccountCard } from './account-card'
import { EditAccountDialog } from './edit-account-dialog'
import { InstagramConnectResult } from './instagram-connect-result'

/** The export's columns; Messages/Day is today's real allowance, as on the cards. */
const csvColumns = (allowedToday: (a: SocialAccount) => number): CsvColumn<SocialAccount>[] => [
  { header: 'Platform', value: (a) => a.platform?.display_name },
  { header: 'Username', value: (a) => a.username },
  { header: 'Status', value: (a) => a.status },
  { header: 'Messages/Day', value: allowedToday },
  { header: 'Requests Pending', value: (a) => a.requests_pending },
  { header: 'Connected', value: (a) => (a.status === 'active' ? 'Yes' : 'No') },
  { header: 'Last Sync', value: (a) => a.last_synced_at ?? 'Never' },
]

/** product.md §2 Social Accounts tab. */
export function AccountsTab({ onAdd }: { onAdd: () => void }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const canEdit = useCanEditWorkspace()
  const [confirming, setConfirming] = useState<SocialAccount | null>(null)
  const [editing, setEditing] = useState<SocialAccount | null>(null)
  const accounts = useQuery({
    queryKey: [queryRoots.accounts, 'list'],
    queryFn: getAccounts,
    // An account being tested turns active or error within minutes, and a working one can be
    // stopped by its platform at any time: follow both, so a failure shows within one poll.
    refetchInterval: (query) =>
      query.state.data?.some((a) => a.status === 'testing' || a.status === 'active') ? LIVE_POLL_MS : false,
  })
  const today = useQuery({
    queryKey: [queryRoots.accounts, 'today'],
    queryFn: getAccountsToday,
    refetchInterval: accounts.data?.some((a) => a.status === 'active') ? LIVE_POLL_MS : false,
  })
  const isOfficial = (platform: string) =>
    accounts.data?.some((a) => a.connection === 'official' && a.platform?.name === platform) ?? false
  const xApiSpend = useQuery({
    queryKey: [queryRoots.accounts, 'x-api-spend'],
    queryFn: getXApiSpend,
    enabled: isOfficial('twitter'),
    refetchInterval: LIVE_POLL_MS,
  })
  const instagramFacts = useQuery({
    queryKey: [queryRoots.accounts, 'instagram-facts'],
    queryFn: getInstagramFacts,
    enabled: isOfficial('instagram'),
    refetchInterval: LIVE_POLL_MS,
  })
  const allowedToday = (a: SocialAccount) => today.data?.get(a.id)?.allowed ?? a.daily_message_limit
  useRegisterExport(() =>
    downloadCsv(csvFilename('social-accounts'), toCsv(accounts.data ?? [], csvColumns(allowedToday))),
  )
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [queryRoots.accounts] })
    void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
  }

  const test = useMutation({
    mutationFn: (account: SocialAccount) => testAccount(account.id),
    onSuccess: (message, account) => toast.success(message, undefined, { key: `account:${account.id}` }),
    onError: (error, account) =>
      toast.error(`Error testing account: ${errorMessage(error)}`, undefined, {
        key: `account:${account.id}`,
      }),
    onSettled: refresh,
  })
  const remove = useMutation({
    mutationFn: (account: SocialAccount) => deleteAccount(account.id),
    onSuccess: (_result, account) => {
      toast.success(ACCOUNT_DELETED, undefined, { key: `account:${account.id}` })
      setConfirming(null)
    },
    onError: (error, account) =>
      toast.error(`Error deleting account: ${errorMessage(error)}`, undefined, {
        key: `account:${account.id}`,
      }),
    onSettled: refresh,
  })

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Social Media Accounts</h2>
        {canEdit && (
          <Button onClick={onAdd} icon={<Plus className="size-4" aria-hidden="true" />}>
            Add Account
          </Button>
        )}
      </div>
      <InstagramConnectResult />
      {accounts.isPending ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-56 rounded-2xl" />
          ))}
        </div>
      ) : accounts.isError ? (
        <ErrorState message={accounts.error.message} onRetry={() => void accounts.refetch()} />
      ) : accounts.data.length === 0 ? (
        <EmptyState
          icon={AtSign}
          title="No social accounts connected"
          description="Connect the X or Instagram account your campaigns will send from."
          action={
            canEdit ? (
              <Button onClick={onAdd} icon={<Plus className="size-4" aria-hidden="true" />}>
                Add Your First Account
              </Button>
            ) : (
              <ReadOnlyNote />
            )
          }
        />
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {accounts.data.map((account) => (
            <AccountCard
              key={account.id}
              account={account}
              // an official Instagram account answers people who wrote first: it has no DM allowance
              today={
                account.connection === 'official' && account.platform?.name === 'instagram'
                  ? null
                  : (today.data?.get(account.id) ?? null)
              }
              xApiSpentMills={xApiSpend.data ? (xApiSpend.data.get(account.id) ?? 0) : undefined}
              instagramFacts={instagramFacts.data?.get(account.id) ?? null}
              testing={test.isPending && test.variables?.id === account.id}
              deleting={remove.isPending && remove.variables?.id === account.id}
              readOnly={!canEdit}
              onTest={() => test.mutate(account)}
              onEdit={() => setEditing(account)}
              onDelete={() => setConfirming(account)}
            />
          ))}
        </div>
      )}
      {editing && (
        <EditAccountDialog account={editing} onClose={() => setEditing(null)} onChanged={refresh} />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Delete account?"
        message={`@${confirming?.username ?? ''} will be disconnected and its stored sign-in removed. Its running campaigns are paused and say why. To fix sign-in details, use Edit instead. This cannot be undone.`}
        confirmLabel="Delete Account"
        busy={remove.isPending}
        onConfirm={() => confirming && remove.mutate(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </div>
  )
}
