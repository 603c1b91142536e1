import { CheckCircle2, HelpCircle } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { links, mailto } from '@/config/links'
import {
  CODE_PATTERN,
  getDataDeletionStatus,
  type DataDeletionStatus as Status,
} from '../api/get-data-deletion-status'

type Lookup =
  | { phase: 'loading' }
  | { phase: 'done'; found: Status | null }
  | { phase: 'failed'; error: string }

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' })

/**
 * /data-deletion?code=…: where Instagram sends a person who asked for the data Reachflow held about
 * them to be deleted. The confirmation code Instagram showed them says whether it was done and when.
 */
export function DataDeletionStatus() {
  const [params] = useSearchParams()
  const code = (params.get('code') ?? '').trim()
  const valid = CODE_PATTERN.test(code)
  // a public page without the dashboard's query client: one lookup per code
  const [lookup, setLookup] = useState<Lookup>({ phase: 'loading' })
  useEffect(() => {
    if (!valid) return
    let current = true
    setLookup({ phase: 'loading' })
    getDataDeletionStatus(code).then(
      (found) => current && setLookup({ phase: 'done', found }),
      (error: unknown) =>
        current &&
        setLookup({ phase: 'failed', error: error instanceof Error ? error.message : String(error) }),
    )
    return () => {
      current = false
    }
  }, [code, valid])

  const found = lookup.phase === 'done' ? lookup.found : null
  return (
    <div className="text-center">
      <span
        className={`mx-auto flex size-16 items-center justify-center rounded-full ${found ? 'bg-emerald-100' : 'bg-slate-100'}`}
      >
        {found ? (
          <CheckCircle2 className="size-8 text-emerald-600" aria-hidden="true" />
        ) : (
          <HelpCircle className="size-8 text-slate-500" aria-hidden="true" />
        )}
      </span>
      <h1 className="mt-5 text-2xl font-bold tracking-tight text-slate-900">Instagram data deletion</h1>
      <div className="mt-3 text-slate-600" aria-live="polite">
        {!valid ? (
          <p>
            This page shows a deletion request by the confirmation code Instagram gave you. Open the link from
            Instagram, or check that the code has 32 letters and digits.
          </p>
        ) : lookup.phase === 'loading' ? (
          <p>Looking up request {code.toUpperCase()}...</p>
        ) : lookup.phase === 'failed' ? (
          <p role="alert" className="text-red-700">
            {lookup.error}
          </p>
        ) : found ? (
          <p>
            Request{' '}
            <span className="font-mono font-medium break-all text-slate-900">{found.confirmation_code}</span>{' '}
            is complete: on {when(found.requested_at)} Reachflow deleted the data it held about your Instagram
            account
            {found.accounts_deleted > 0 ? ' (the connection, its automations and its conversations).' : '.'}
          </p>
        ) : (
          <p>
            No deletion request has the code <span className="font-mono">{code.toUpperCase()}</span>. Check it
            against the one Instagram showed you.
          </p>
        )}
      </div>
      <p className="mt-8 text-sm text-slate-500">
        Questions?{' '}
        <a
          className="font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:underline"
          href={mailto(links.supportEmail, 'Instagram data deletion')}
        >
          Write to us
        </a>
        .
      </p>
    </div>
  )
}
