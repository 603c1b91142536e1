import { CheckCircle2, MailWarning } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { signOut, useAuth } from '@/lib/auth-store'
import { acceptInvitation } from '../api/accept-invitation'
import { takeSessionFromUrl } from '../api/invite-session'
import { ChoosePasswordForm } from './choose-password-form'

type Step =
  | { kind: 'reading' }
  | { kind: 'accepting' }
  | { kind: 'joined'; needsPassword: boolean }
  | { kind: 'failed'; message: string }

/** The whole app reloads in the joined workspace, so no store holds the previous one. */
const enterWorkspace = () => window.location.assign(paths.dashboard)

/**
 * /invite/<token>: a signed-out visitor signs in or up (`signedOut`, the login form returning here);
 * a signed-in one joins at once and lands in the workspace, or reads why not (expired, revoked,
 * used, another account's invitation).
 */
export function InvitePage({ token, signedOut }: { token: string; signedOut: ReactNode }) {
  const user = useAuth((s) => s.user)
  const authLoading = useAuth((s) => s.loading)
  const [step, setStep] = useState<Step>({ kind: 'reading' })
  const fromMail = useRef(false)
  const started = useRef(false)

  useEffect(() => {
    takeSessionFromUrl()
      .then((arrival) => {
        fromMail.current = arrival === 'invite-mail'
        setStep({ kind: 'accepting' })
      })
      .catch((error: Error) => setStep({ kind: 'failed', message: error.message }))
  }, [])

  useEffect(() => {
    if (step.kind !== 'accepting' || authLoading || !user || started.current) return
    started.current = true
    acceptInvitation(token)
      .then(() => {
        if (fromMail.current) setStep({ kind: 'joined', needsPassword: true })
        else enterWorkspace()
      })
      .catch((error: Error) => setStep({ kind: 'failed', message: error.message }))
  }, [step.kind, authLoading, user, token])

  if (step.kind === 'reading' || authLoading) return <Working />
  if (step.kind === 'failed') {
    return (
      <div className="text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600">
          <MailWarning className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-xl font-semibold text-slate-900">The invitation could not be accepted</h1>
        <p role="alert" className="mt-2 text-sm text-slate-600">
          {step.message}
        </p>
        {user && (
          <p className="mt-4 text-sm text-slate-500">
            Signed in as <span className="font-medium text-slate-700">{user.email}</span>.
          </p>
        )}
        <div className="mt-6 flex flex-col gap-2">
          {user && (
            <Button
              variant="secondary"
              onClick={async () => {
                await signOut()
                started.current = false
                setStep({ kind: 'accepting' })
              }}
            >
              Sign in with another account
            </Button>
          )}
          <Button variant="ghost" onClick={enterWorkspace}>
            Go to the dashboard
          </Button>
        </div>
      </div>
    )
  }
  if (!user) {
    return (
      <div>
        <p className="mb-6 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-800 ring-1 ring-brand-100">
          You have been invited to a Reachflow workspace. Sign in, or create an account with the e-mail
          address the invitation was sent to, to join it.
        </p>
        {signedOut}
      </div>
    )
  }
  if (step.kind === 'joined') {
    return (
      <div className="text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
          <CheckCircle2 className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-xl font-semibold text-slate-900">You joined the workspace</h1>
        <ChoosePasswordForm onDone={enterWorkspace} />
      </div>
    )
  }
  return <Working />
}

function Working() {
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-sm text-slate-600">
      <Spinner size={32} />
      Joining the workspace…
    </div>
  )
}
