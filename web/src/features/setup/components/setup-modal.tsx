import type { User } from '@supabase/supabase-js'
import { AlertCircle } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { AccountCheckPanel } from '@/components/accounts/account-check-panel'
import { AccountCredentials } from '@/components/accounts/account-credentials'
import { LimitBanner } from '@/components/accounts/limit-banner'
import { PlatformPicker } from '@/components/accounts/platform-picker'
import { PlatformRulesNote } from '@/components/accounts/platform-rules-note'
import { useAccountCheck } from '@/components/accounts/use-account-check'
import { ChangePlanLink } from '@/components/billing/change-plan-link'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toast'
import { announceAccountsChanged } from '@/lib/accounts/accounts-changed'
import { checkAccountLimit, isPlanLimitText, LIMIT_REACHED } from '@/lib/accounts/check-account-limit'
import {
  type ConnectAccountForm,
  connectAccount,
  connectFormProblem,
  shownAtField,
} from '@/lib/accounts/connect-account'
import { deleteAccount } from '@/lib/accounts/delete-account'
import { getPlatforms } from '@/lib/accounts/get-platforms'
import { proxyDisplay } from '@/lib/accounts/proxy-display'
import type { AccountLimit, Platform } from '@/lib/accounts/types'
import { setProfileFlag } from '@/lib/user-profile'

/** product.md §4/§9: the success toast shows 4 s; the flow moves on 0.8 s after connecting. */
export const CONNECTED_TOAST_MS = 4000
export const ADVANCE_AFTER_CONNECT_MS = 800

const emptyForm: ConnectAccountForm = {
  platform: '',
  username: '',
  password: '',
  secretKey: '',
  cookies: '',
  proxyUrl: '',
  chatPasscode: '',
}

async function celebrate() {
  const { default: confetti } = await import('canvas-confetti')
  void confetti({ particleCount: 120, spread: 75, origin: { y: 0.6 }, disableForReducedMotion: true })
}

interface SetupModalProps {
  user: User
  /** The close (X) button: hide without saving. */
  onClose: () => void
  /** Completion or 'Don't show again': post_onboarding is already saved (or its failure logged). */
  onFinished: () => void
}

/**
 * 'Complete Your Setup' (product.md §2): shown once onboarding is done while post_onboarding is false.
 * The active flow has one step, connecting a social account.
 */
export function SetupModal({ user, onClose, onFinished }: SetupModalProps) {
  const toast = useToast()
  const [platforms, setPlatforms] = useState<Platform[] | null>(null)
  const [limit, setLimit] = useState<AccountLimit | null>(null)
  const [form, setForm] = useState<ConnectAccountForm>(emptyForm)
  const [connecting, setConnecting] = useState(false)
  const [alert, setAlert] = useState<string | null>(null)
  const advanceTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  // Focus starts on what the modal asks for, not on its first control ("Don't show again").
  const stepHeading = useRef<HTMLHeadingElement>(null)
  // Connecting is a real check: the runner's account test decides what is said.
  const check = useAccountCheck('change details')
  const [created, setCreated] = useState<{ id: string; username: string } | null>(null)

  useEffect(() => {
    let cancelled = false
    getPlatforms().then((list) => !cancelled && setPlatforms(list))
    checkAccountLimit(user.id).then((result) => !cancelled && setLimit(result))
    return () => {
      cancelled = true
      clearTimeout(advanceTimer.current)
    }
  }, [user.id])

  const finish = async () => {
    // product.md §4: the modal goes away even when saving the flag fails (the failure is logged).
    await setProfileFlag(user.id, 'post_onboarding', true)
    onFinished()
  }

  const problem = connectFormProblem(form)
  const canConnect = problem === null && !connecting && limit?.canAddAccount === true
  // A disabled Connect always says why: the limit banner when the plan is full, the field when what
  // was typed there is wrong, else this line beside the button (what is still missing).
  const blockedReason =
    connecting || limit === null || !limit.canAddAccount || problem === null
      ? null
      : !form.platform
        ? 'Choose a platform to connect'
        : shownAtField(form, problem)
          ? null
          : problem

  const connect = async () => {
    setAlert(null)
    if (problem) {
      setAlert(problem)
      return
    }
    setConnecting(true)
    const fresh = await checkAccountLimit(user.id)
    setLimit(fresh)
    if (!fresh.canAddAccount) {
      setAlert(fresh.error ?? LIMIT_REACHED)
      setConnecting(false)
      return
    }
    const username = form.username.trim().replace(/^@/, '')
    setCreated({ id: '', username })
    check.setState({ phase: 'saving' })
    let id: string
    try {
      id = (await connectAccount(form)).id
    } catch (error) {
      setCreated(null)
      check.setState(null)
      setAlert((error as Error).message)
      setConnecting(false)
      return
    }
    // The account exists now: the dashboard's counts and lists show it at once.
    announceAccountsChanged()
    setCreated({ id, username })
    const outcome = await check.follow(id, form.platform)
    if (!outcome) return // the modal closed while waiting
    setConnecting(false)
    announceAccountsChanged()
    if (outcome.kind !== 'active') return
    toast.success('Account connected successfully!', 'Ready for outreach', { duration: CONNECTED_TOAST_MS })
    void celebrate()
    // There is no further step in the active flow, so moving on completes the setup.
    advanceTimer.current = setTimeout(() => void finish(), ADVANCE_AFTER_CONNECT_MS)
  }

  /** After a failed check: remove the account that did not work and go back to the filled form. */
  const retry = async () => {
    if (!created?.id) return
    setConnecting(true)
    try {
      await deleteAccount(created.id)
      setCreated(null)
      check.setState(null)
    } catch (error) {
      setAlert((error as Error).message)
    } finally {
      setConnecting(false)
      announceAccountsChanged()
    }
  }

  const patch = (change: Partial<ConnectAccountForm>) => {
    setAlert(null)
    setForm((current) => ({ ...current, ...change }))
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Complete Your Setup"
      size="2xl"
      headerExtra={<span className="text-sm font-medium text-slate-500">Step 1 of 1</span>}
      initialFocus={stepHeading}
    >
      <div className="space-y-5">
        <div>
          <h3
            ref={stepHeading}
            tabIndex={-1}
            className="text-base font-semibold text-slate-900 focus:outline-none"
          >
            Connect Your Social Account
          </h3>
          <p className="mt-1 text-sm text-slate-600">
            Connect the account your campaigns will send from. Credentials are encrypted and never shown
            again.
          </p>
        </div>
        {check.state && created ? (
          <AccountCheckPanel
            state={check.state}
            platform={form.platform}
            username={created.username}
            proxy={proxyDisplay(form.proxyUrl)}
          />
        ) : (
          <>
            <LimitBanner limit={limit} />
            {platforms === null ? (
              <p className="text-sm text-slate-500">Loading platforms...</p>
            ) : platforms.length === 0 ? (
              <p className="text-sm text-red-700">
                Platforms could not be loaded. Close this window and try again later.
              </p>
            ) : (
              <PlatformPicker
                platforms={platforms}
                value={form.platform}
                onChange={(platform) => patch({ platform })}
              />
            )}
            {form.platform && <AccountCredentials form={form} onChange={patch} problem={problem} />}
            <PlatformRulesNote context="connect" />
          </>
        )}
        {alert && (
          <p
            role="alert"
            className="flex items-center gap-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
          >
            <AlertCircle className="size-4 shrink-0" aria-hidden="true" />
            <span>
              {alert}{' '}
              {isPlanLimitText(alert) && (
                <ChangePlanLink className="text-red-800">Add more accounts</ChangePlanLink>
              )}
            </span>
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-between">
          <Button variant="ghost" onClick={() => void finish()} disabled={connecting}>
            Don't show again
          </Button>
          {check.state?.phase === 'done' && check.state.outcome.kind === 'failed' ? (
            <div className="flex flex-col-reverse gap-3 sm:flex-row">
              <Button variant="secondary" onClick={onClose} disabled={connecting}>
                Fix it later
              </Button>
              <Button onClick={() => void retry()} loading={connecting} loadingText="Removing...">
                Change details and retry
              </Button>
            </div>
          ) : check.state?.phase === 'done' && check.state.outcome.kind === 'slow' ? (
            <Button onClick={() => void finish()}>Close</Button>
          ) : (
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:gap-4">
              {blockedReason && (
                <p id="setup-blocked-reason" className="text-sm text-slate-600 sm:text-right">
                  {blockedReason}
                </p>
              )}
              <Button
                onClick={connect}
                disabled={!canConnect}
                loading={connecting}
                loadingText="Checking..."
                aria-describedby={blockedReason ? 'setup-blocked-reason' : undefined}
              >
                Connect Account
              </Button>
            </div>
          )}
        </div>
      </div>
    </Dialog>
  )
}
