import { ShieldAlert, UserPlus } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { finishInstagramConnect, type InstagramAnswer } from '../../api/finish-instagram-connect'

export const INSTAGRAM_CALLBACK_TEXT = {
  signedOut:
    'This Instagram connection can only be finished in the browser that started it, signed in to Reachflow, so nothing was connected. If you did not start it, you can close this page.',
  cancelled: 'You cancelled, so no Instagram account was connected.',
} as const

/** The Accounts tab, told how the connection ended (InstagramConnectResult shows it). */
function resultPath(outcome: { username: string } | { error: string }): string {
  const params = new URLSearchParams({ tab: 'social-accounts' })
  if ('error' in outcome) {
    params.set('instagram', 'error')
    params.set('message', outcome.error)
  } else {
    params.set('instagram', 'connected')
    params.set('username', outcome.username)
  }
  return `${paths.dashboard}?${params.toString()}`
}

/**
 * Where Instagram's consent screen sends the browser back (through the instagram-official
 * function): says which Reachflow workspace the account is about to join and adds it only when the
 * signed-in customer confirms, from the browser that started the connection.
 */
export function InstagramConnectCallback() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const user = useAuth((s) => s.user)
  const authLoading = useAuth((s) => s.loading)
  const [busy, setBusy] = useState(false)
  const answer: InstagramAnswer = {
    state: params.get('state') ?? '',
    ...(params.get('code') ? { code: params.get('code') ?? '' } : {}),
    ...(params.get('error') ? { error: params.get('error') ?? '' } : {}),
  }
  const finish = async (given: InstagramAnswer, onError?: string) => {
    setBusy(true)
    const outcome = await finishInstagramConnect(given).catch((error: unknown) => ({
      error: onError ?? (error instanceof Error ? error.message : String(error)),
    }))
    navigate(resultPath(outcome), { replace: true })
  }
  // a refusal on Instagram's screen has nothing to confirm: the state is spent and the reason shown
  const refusedOnInstagram = Boolean(user) && Boolean(answer.error)
  const sent = useRef(false)
  useEffect(() => {
    if (!refusedOnInstagram || sent.current) return
    sent.current = true
    void finish(answer)
  })

  if (authLoading || refusedOnInstagram)
    return (
      <div className="flex flex-col items-center text-center" aria-live="polite">
        <Spinner />
      </div>
    )
  if (!user)
    return (
      <div className="text-center">
        <ShieldAlert className="mx-auto h-12 w-12 text-red-600" aria-hidden />
        <h1 className="mt-4 text-xl font-semibold text-slate-900">Instagram was not connected</h1>
        <p role="alert" className="mt-2 text-sm text-red-700">
          {INSTAGRAM_CALLBACK_TEXT.signedOut}
        </p>
        <Link to={paths.login} className={buttonClasses('secondary', 'md', 'mt-6 w-full')}>
          Sign in to Reachflow
        </Link>
      </div>
    )
  return (
    <div className="text-center">
      <UserPlus className="mx-auto h-12 w-12 text-brand-600" aria-hidden />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">Add this Instagram account to Reachflow?</h1>
      <p className="mt-2 text-sm text-slate-600">
        The Instagram account you just allowed will join the Reachflow workspace of{' '}
        <strong className="break-all font-semibold text-slate-900">{user.email}</strong>, which can then send
        its messages and run its automations.
      </p>
      <p className="mt-2 text-sm text-slate-600">Continue only if you started this connection yourself.</p>
      <div className="mt-6 flex flex-col gap-3">
        <Button loading={busy} loadingText="Adding…" onClick={() => void finish(answer)}>
          Add to this workspace
        </Button>
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() =>
            void finish({ state: answer.state, error: 'cancelled' }, INSTAGRAM_CALLBACK_TEXT.cancelled)
          }
        >
          Cancel
        </Button>
      </div>
    </div>
  )
}
