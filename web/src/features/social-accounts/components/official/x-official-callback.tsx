import { CheckCircle2, XCircle } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { finishXOfficial } from '../../api/x-official'

const ACCOUNTS = `${paths.dashboard}?tab=social-accounts`

type Outcome = { account: Awaited<ReturnType<typeof finishXOfficial>> } | { error: string }

/**
 * Where X sends the customer back after its consent page: hands code and state (or X's error) to
 * the api once, which creates the official account, and says how it went and which Reachflow
 * workspace the account joined.
 */
export function XOfficialCallback() {
  const [params] = useSearchParams()
  const workspace = useAuth((s) => s.user?.email) ?? ''
  // a page of its own (no dashboard around it, so no query client): one request, its outcome
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // the state works once: React's double effect in development must not spend it twice
  const sent = useRef(false)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    finishXOfficial({
      state: params.get('state') ?? '',
      ...(params.get('code') ? { code: params.get('code') ?? '' } : {}),
      ...(params.get('error') ? { error: params.get('error') ?? '' } : {}),
    }).then(
      (account) => setOutcome({ account }),
      (error: unknown) => setOutcome({ error: error instanceof Error ? error.message : String(error) }),
    )
  }, [params])

  if (outcome && 'account' in outcome)
    return (
      <div className="text-center">
        <CheckCircle2 className="mx-auto h-12 w-12 text-emerald-600" aria-hidden />
        <h1 className="mt-4 text-xl font-semibold text-slate-900">X account connected</h1>
        <p className="mt-2 text-sm text-slate-600">
          @{outcome.account.username} {outcome.account.reconnected ? 'is connected again' : 'is connected'}{' '}
          through the X API and ready for outreach.
        </p>
        <p className="mt-2 text-sm text-slate-600">
          Reachflow workspace: <strong className="break-all font-semibold text-slate-900">{workspace}</strong>
        </p>
        <Link to={ACCOUNTS} className={buttonClasses('primary', 'md', 'mt-6 w-full')}>
          Go to Social Accounts
        </Link>
      </div>
    )
  if (outcome && 'error' in outcome)
    return (
      <div className="text-center">
        <XCircle className="mx-auto h-12 w-12 text-red-600" aria-hidden />
        <h1 className="mt-4 text-xl font-semibold text-slate-900">X account not connected</h1>
        <p role="alert" className="mt-2 text-sm text-red-700">
          {outcome.error}
        </p>
        <Link to={ACCOUNTS} className={buttonClasses('secondary', 'md', 'mt-6 w-full')}>
          Back to Social Accounts
        </Link>
      </div>
    )
  return (
    <div className="flex flex-col items-center text-center" aria-live="polite">
      <Spinner />
      <p className="mt-4 text-sm text-slate-600">
        Connecting your X account to the Reachflow workspace of{' '}
        <strong className="break-all font-semibold text-slate-900">{workspace}</strong>...
      </p>
    </div>
  )
}
