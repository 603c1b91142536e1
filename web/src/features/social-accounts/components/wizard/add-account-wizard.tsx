import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { AccountCheckPanel } from '@/components/accounts/account-check-panel'
import { LimitBanner } from '@/components/accounts/limit-banner'
import { PlatformPicker } from '@/components/accounts/platform-picker'
import { PlatformRulesNote } from '@/components/accounts/platform-rules-note'
import { useAccountCheck } from '@/components/accounts/use-account-check'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toast'
import { WizardDialog } from '@/components/ui/wizard-dialog'
import { checkAccountLimit, LIMIT_REACHED } from '@/lib/accounts/check-account-limit'
import { type ConnectAccountForm, connectAccount } from '@/lib/accounts/connect-account'
import { deleteAccount } from '@/lib/accounts/delete-account'
import { getPlatforms } from '@/lib/accounts/get-platforms'
import { proxyDisplay } from '@/lib/accounts/proxy-display'
import { queryRoots } from '@/lib/query-keys'
import { ACCOUNT_STEPS, accountStepProblem, emptyAccountForm, shownAtField } from '../../account-wizard-rules'
import { startInstagramConnect } from '../../api/start-instagram-connect'
import { type Connection, ConnectionChoice } from '../official/connection-choice'
import { XOfficialConnect } from '../official/x-official-connect'
import { AccountStep } from './account-step'
import { AuthenticationStep } from './authentication-step'

export const ACCOUNT_REVIEW_TEXT = 'The account will be tested after creation. This may take a few minutes.'

/** product.md §2 Modals 2: Add Social Media Account in four steps, with the plan's limit banner. */
export function AddAccountWizard({ onClose }: { onClose: () => void }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [step, setStep] = useState(0)
  const [form, setForm] = useState<ConnectAccountForm>(emptyAccountForm)
  // the browser (this wizard's steps) or the platform's official API: X through the customer's own
  // developer app, Instagram through Instagram's login, which leaves the app for its consent screens
  const [connection, setConnection] = useState<Connection>('browser')
  const instagramOfficial = form.platform === 'instagram' && connection === 'official'
  const startInstagram = useMutation({
    mutationFn: startInstagramConnect,
    onSuccess: (url) => window.location.assign(url),
  })
  const platforms = useQuery({
    queryKey: [queryRoots.accounts, 'platforms'],
    queryFn: getPlatforms,
    staleTime: 60_000,
  })
  const limit = useQuery({
    queryKey: [queryRoots.accounts, 'limit'],
    queryFn: () => checkAccountLimit(),
    staleTime: 0,
  })

  const problem = accountStepProblem(form, step, platforms.data ?? [])
  const allowed = limit.data?.canAddAccount === true
  const patch = (change: Partial<ConnectAccountForm>) => setForm((current) => ({ ...current, ...change }))

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [queryRoots.accounts] })
    void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
  }
  // After Add: the runner's account test, shown as it happens.
  const [createdId, setCreatedId] = useState<string | null>(null)
  const check = useAccountCheck('change details')

  const add = useMutation({
    mutationFn: async () => {
      // product.md §5: the limit is checked again right before adding.
      const fresh = await checkAccountLimit()
      queryClient.setQueryData([queryRoots.accounts, 'limit'], fresh)
      if (!fresh.canAddAccount) throw new Error(fresh.error ?? LIMIT_REACHED)
      return connectAccount(form)
    },
    onSuccess: async (created) => {
      refresh()
      setCreatedId(created.id)
      const outcome = await check.follow(created.id, form.platform)
      if (!outcome) return
      refresh()
      if (outcome.kind === 'active')
        toast.success('Account connected successfully!', 'Ready for outreach', { duration: 4000 })
    },
  })
  const retry = useMutation({
    mutationFn: async () => {
      if (createdId) await deleteAccount(createdId)
    },
    onSuccess: () => {
      setCreatedId(null)
      check.setState(null)
      setStep(2)
      refresh()
    },
  })

  const chosen = platforms.data?.find((p) => p.name === form.platform)
  if (form.platform === 'twitter' && connection === 'official' && step > 0)
    return <XOfficialConnect onBack={() => setStep(0)} onClose={onClose} />
  if (check.state) {
    const done = check.state.phase === 'done' ? check.state.outcome : null
    return (
      <Dialog open onClose={onClose} title="Add Social Media Account" size="2xl">
        <AccountCheckPanel
          state={check.state}
          platform={form.platform}
          username={form.username.trim().replace(/^@/, '')}
          proxy={proxyDisplay(form.proxyUrl)}
        />
        {retry.isError && (
          <p role="alert" className="mt-4 text-sm text-red-700">
            {retry.error.message}
          </p>
        )}
        <div className="mt-6 flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
          {done?.kind === 'failed' ? (
            <>
              <Button variant="secondary" onClick={onClose}>
                Fix it later
              </Button>
              <Button onClick={() => retry.mutate()} loading={retry.isPending} loadingText="Removing...">
                Change details and retry
              </Button>
            </>
          ) : (
            <Button variant={done ? 'primary' : 'secondary'} onClick={onClose}>
              {done?.kind === 'active' ? 'Done' : 'Close'}
            </Button>
          )}
        </div>
      </Dialog>
    )
  }
  return (
    <WizardDialog
      title="Add Social Media Account"
      steps={ACCOUNT_STEPS}
      step={step}
      canContinue={problem === null && allowed}
      onBack={() => setStep((s) => Math.max(0, s - 1))}
      onNext={() => (instagramOfficial ? startInstagram.mutate() : setStep((s) => s + 1))}
      nextLabel={instagramOfficial ? 'Continue to Instagram' : 'Next'}
      onSubmit={() => add.mutate()}
      onClose={onClose}
      submitLabel="Add Account"
      submittingLabel={instagramOfficial ? 'Opening Instagram...' : 'Adding Account...'}
      // still loading after success: the page is leaving for Instagram
      submitting={add.isPending || startInstagram.isPending || startInstagram.isSuccess}
      error={add.isError ? add.error.message : startInstagram.isError ? startInstagram.error.message : null}
      // the limit banner above says why when the plan is full; a field says what is wrong with its value
      blockedReason={allowed && !shownAtField(form, problem) ? problem : null}
    >
      <LimitBanner limit={limit.data ?? null} />
      {step === 0 &&
        (platforms.isPending ? (
          <p className="text-sm text-slate-500">Loading platforms...</p>
        ) : (platforms.data ?? []).length === 0 ? (
          <p className="text-sm text-red-700">
            Platforms could not be loaded. Close this window and try again.
          </p>
        ) : (
          <PlatformPicker
            platforms={platforms.data ?? []}
            value={form.platform}
            onChange={(platform) => patch({ platform })}
          />
        ))}
      {step === 0 && (form.platform === 'twitter' || form.platform === 'instagram') && (
        <ConnectionChoice platform={form.platform} value={connection} onChange={setConnection} />
      )}
      {step === 1 && <AccountStep form={form} onChange={patch} problem={problem} />}
      {step === 2 && <AuthenticationStep form={form} onChange={patch} problem={problem} />}
      {step === 3 && (
        <>
          <dl className="divide-y divide-slate-100 rounded-xl px-4 ring-1 ring-slate-200 text-sm">
            {[
              ['Platform', chosen?.display_name ?? form.platform],
              ['Username', `@${form.username.trim()}`],
              ['Sign-in', form.platform === 'twitter' ? 'Browser cookies' : 'Password'],
              ['Proxy', proxyDisplay(form.proxyUrl) ?? 'None'],
            ].map(([label, value]) => (
              <div key={label} className="flex justify-between gap-4 py-2.5">
                <dt className="text-slate-500">{label}</dt>
                <dd className="font-medium text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-800">{ACCOUNT_REVIEW_TEXT}</p>
        </>
      )}
      {(step === 0 || step === 3) && <PlatformRulesNote context="connect" />}
    </WizardDialog>
  )
}
