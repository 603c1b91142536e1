import { AlertTriangle, CheckCircle2, Clock, Loader2, ShieldCheck } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { AccountCheckOutcome } from '@/lib/accounts/account-check'
import { cn } from '@/lib/cn'

export type CheckState =
  | { phase: 'saving' }
  | { phase: 'checking'; since: number }
  | { phase: 'done'; outcome: AccountCheckOutcome }

function Row({
  state,
  children,
}: {
  state: 'done' | 'active' | 'failed' | 'waiting'
  children: React.ReactNode
}) {
  return (
    <li className="flex items-start gap-3">
      <span className="mt-0.5 shrink-0" aria-hidden="true">
        {state === 'done' && <CheckCircle2 className="size-5 text-emerald-500" />}
        {state === 'active' && <Loader2 className="size-5 animate-spin text-brand-600" />}
        {state === 'failed' && <AlertTriangle className="size-5 text-red-500" />}
        {state === 'waiting' && <Clock className="size-5 text-slate-300" />}
      </span>
      <span className={cn('text-sm', state === 'waiting' ? 'text-slate-400' : 'text-slate-800')}>
        {children}
      </span>
    </li>
  )
}

/**
 * Connecting an account as the steps really happen: saved (encrypted), then the runner
 * signs in (through the proxy) and, on X, opens X Chat; success only once it has.
 */
export function AccountCheckPanel({
  state,
  platform,
  username,
  proxy,
}: {
  state: CheckState
  platform: string
  username: string
  proxy: string | null
}) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (state.phase !== 'checking') return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [state.phase])
  const name = platform === 'twitter' ? 'X' : 'Instagram'
  const outcome = state.phase === 'done' ? state.outcome : null
  const signIn: 'done' | 'active' | 'failed' | 'waiting' =
    state.phase === 'saving'
      ? 'waiting'
      : state.phase === 'checking'
        ? 'active'
        : outcome?.kind === 'active'
          ? 'done'
          : outcome?.kind === 'failed'
            ? 'failed'
            : 'active'
  const elapsed = state.phase === 'checking' ? Math.max(0, Math.round((now - state.since) / 1000)) : null
  return (
    <div className="space-y-4" aria-live="polite">
      <ol className="space-y-3" aria-label="Connecting progress">
        <Row state={state.phase === 'saving' ? 'active' : 'done'}>
          {state.phase === 'saving' ? 'Saving your details' : 'Details saved, encrypted'}
        </Row>
        <Row state={signIn}>
          Signing in to {name} as @{username}
          {proxy ? ` through ${proxy}` : ''}
          {platform === 'twitter' ? ' and opening X Chat' : ' and opening the inbox'}
          {elapsed !== null && <span className="ml-1 text-slate-400">({elapsed} s)</span>}
        </Row>
        <Row state={outcome?.kind === 'active' ? 'done' : 'waiting'}>Ready for outreach</Row>
      </ol>
      {state.phase === 'checking' && (
        <p className="flex items-start gap-2 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">
          <ShieldCheck className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
          Our runner is signing in the way you would, in a real browser. This usually takes under a minute.
        </p>
      )}
      {outcome?.kind === 'active' && (
        <p
          role="status"
          className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200"
        >
          @{username} is connected and ready for outreach.
        </p>
      )}
      {outcome?.kind === 'failed' && (
        <div role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
          <p className="font-semibold">@{username} could not be connected</p>
          <p className="mt-1">{outcome.reason}</p>
          <p className="mt-2 font-medium">{outcome.fix}</p>
        </div>
      )}
      {outcome?.kind === 'slow' && (
        <p
          role="status"
          className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-800 ring-1 ring-amber-200"
        >
          Still checking @{username}. You can close this: the account card shows the result, and you get a
          notification if it needs you.
        </p>
      )}
    </div>
  )
}
