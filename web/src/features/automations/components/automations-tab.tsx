import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Plus, Zap } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useState } from 'react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { useToast } from '@/components/ui/toast'
import { csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { useRegisterExport } from '@/lib/export-registry'
import { LIVE_POLL_MS } from '@/lib/query-keys'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { getAutomationResults } from '../api/get-automation-results'
import { getAutomations, getOfficialAccounts } from '../api/get-automations'
import { deleteAutomation, setAutomationEnabled } from '../api/save-automation'
import { type Automation, automationKeys } from '../api/types'
import { AUTOMATION_CSV } from '../automations-csv'
import { AutomationCard } from './automation-card'

// the form (react-hook-form, its schema) loads when the dialog first opens, not with the dashboard
const AutomationDialog = lazy(() =>
  import('./automation-dialog').then((m) => ({ default: m.AutomationDialog })),
)

type Editing = { kind: 'new'; accountId?: string } | { kind: 'edit'; automation: Automation } | null

/** Instagram automations: per official account, what each answers and what it did. */
export function AutomationsTab({ onAddAccount }: { onAddAccount: () => void }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const canEdit = useCanEditWorkspace()
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<Automation | null>(null)
  const accounts = useQuery({ queryKey: automationKeys.accounts(), queryFn: getOfficialAccounts })
  const automations = useQuery({ queryKey: automationKeys.list(), queryFn: getAutomations })
  const hasAutomations = (automations.data?.length ?? 0) > 0
  const results = useQuery({
    queryKey: automationKeys.results(),
    queryFn: getAutomationResults,
    enabled: hasAutomations,
    // comments and DMs arrive at any time: the figures follow while the page is open
    refetchInterval: LIVE_POLL_MS,
  })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: automationKeys.all })
  useRegisterExport(() =>
    downloadCsv(
      csvFilename('automations'),
      toCsv(
        (automations.data ?? []).map((automation) => ({
          automation,
          account: accounts.data?.find((a) => a.id === automation.account_id),
          results: results.data?.get(automation.id),
        })),
        AUTOMATION_CSV,
      ),
    ),
  )

  const toggle = useMutation({
    mutationFn: ({ automation, enabled }: { automation: Automation; enabled: boolean }) =>
      setAutomationEnabled(automation.id, enabled),
    onSuccess: (_done, { automation, enabled }) =>
      toast.success(enabled ? `"${automation.name}" is on` : `"${automation.name}" is paused`),
    onError: (error) => toast.error(error.message),
    onSettled: refresh,
  })
  const remove = useMutation({
    mutationFn: (automation: Automation) => deleteAutomation(automation.id),
    onSuccess: (_done, automation) => {
      toast.success(`"${automation.name}" was deleted`)
      setDeleting(null)
    },
    onError: (error) => toast.error(error.message),
    onSettled: refresh,
  })

  const header = (action?: ReactNode) => (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Automations</h2>
        <p className="text-sm text-slate-500">
          Answer Instagram comments, DMs and story mentions by DM, through Instagram's official API.
        </p>
      </div>
      {action}
    </div>
  )

  if (accounts.isError || automations.isError)
    return (
      <div className="space-y-4">
        {header()}
        <ErrorState message={(accounts.error ?? automations.error)?.message ?? ''} onRetry={refresh} />
      </div>
    )
  if (accounts.isPending || automations.isPending)
    return (
      <div className="space-y-4" aria-busy="true">
        {header()}
        <div className="grid gap-4 lg:grid-cols-2">
          {[0, 1].map((i) => (
            <div key={i} className="h-64 animate-pulse rounded-2xl border border-slate-200 bg-white" />
          ))}
        </div>
      </div>
    )

  const official = accounts.data
  if (official.length === 0)
    return (
      <div className="space-y-4">
        {header()}
        <EmptyState
          icon={Zap}
          title="Connect Instagram through its official API"
          description="Automations answer comments, DMs and story mentions on an Instagram professional account connected with Instagram's login: someone comments a keyword on your post, and they get your DM within seconds. Add your account with “Official Instagram API” to start."
          action={
            canEdit ? (
              <Button onClick={onAddAccount} icon={<Plus className="size-4" aria-hidden="true" />}>
                Add Account
              </Button>
            ) : (
              <ReadOnlyNote />
            )
          }
        />
      </div>
    )

  const newButton = canEdit && (
    <Button onClick={() => setEditing({ kind: 'new' })} icon={<Plus className="size-4" aria-hidden="true" />}>
      New automation
    </Button>
  )
  return (
    <div className="space-y-6">
      {header(newButton)}
      {official.map((account) => {
        const own = automations.data.filter((a) => a.account_id === account.id)
        return (
          <section key={account.id} aria-labelledby={`automations-${account.id}`} className="space-y-3">
            <h3
              id={`automations-${account.id}`}
              className="flex items-center gap-2 text-sm font-semibold text-slate-700"
            >
              @{account.username}
              {account.status !== 'active' && (
                <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-600/25">
                  Not working: reconnect it in Social Accounts
                </span>
              )}
            </h3>
            {own.length === 0 ? (
              <EmptyState
                icon={Zap}
                title="No automations yet"
                description={`Turn @${account.username}'s comments into conversations: pick a keyword, write the DM it sends.`}
                action={
                  canEdit ? (
                    <Button
                      onClick={() => setEditing({ kind: 'new', accountId: account.id })}
                      icon={<Plus className="size-4" aria-hidden="true" />}
                    >
                      New automation
                    </Button>
                  ) : (
                    <ReadOnlyNote />
                  )
                }
                className="py-10"
              />
            ) : (
              <div className="grid gap-4 lg:grid-cols-2">
                {own.map((automation) => (
                  <AutomationCard
                    key={automation.id}
                    automation={automation}
                    results={results.data?.get(automation.id)}
                    toggling={toggle.isPending && toggle.variables?.automation.id === automation.id}
                    readOnly={!canEdit}
                    onToggle={(enabled) => toggle.mutate({ automation, enabled })}
                    onEdit={() => setEditing({ kind: 'edit', automation })}
                    onDelete={() => setDeleting(automation)}
                  />
                ))}
              </div>
            )}
          </section>
        )
      })}
      {results.isError && (
        <p role="alert" className="text-sm text-red-700">
          {results.error.message}
        </p>
      )}
      {editing && (
        <Suspense fallback={null}>
          <AutomationDialog
            accounts={official}
            automation={editing.kind === 'edit' ? editing.automation : undefined}
            accountId={editing.kind === 'new' ? editing.accountId : undefined}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete automation"
        message={`Delete "${deleting?.name ?? ''}"? It stops answering at once, and its results are deleted with it.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}
