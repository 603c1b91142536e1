import { useMutation, useQuery } from '@tanstack/react-query'
import { Check, Copy } from 'lucide-react'
import { useState } from 'react'
import { XApiCostNote } from '@/components/accounts/x-api-cost-note'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form-field'
import { getXOfficialSetup, startXOfficial } from '../../api/x-official'

/** product.md §9: an account's default of 50 messages per day. */
const DEFAULT_DAILY_DMS = 50

/**
 * Connecting X through the customer's own X developer app: what to set in the app, the callback
 * URL to register, the app's OAuth 2.0 keys (checked with X), then X's own sign-in and consent page.
 */
export function XOfficialConnect({ onBack, onClose }: { onBack: () => void; onClose: () => void }) {
  const [clientId, setClientId] = useState('')
  const [clientSecret, setClientSecret] = useState('')
  const [copied, setCopied] = useState(false)
  const setup = useQuery({ queryKey: ['x-official-setup'], queryFn: getXOfficialSetup, staleTime: 300_000 })
  const start = useMutation({
    mutationFn: () => startXOfficial({ clientId: clientId.trim(), clientSecret: clientSecret.trim() }),
    // X's page signs the customer in and asks for consent, then sends them to /connect/x/callback
    onSuccess: ({ authorizeUrl }) => window.location.assign(authorizeUrl),
  })
  const copy = async () => {
    if (!setup.data) return
    await navigator.clipboard?.writeText(setup.data.redirectUri).catch(() => undefined)
    setCopied(true)
  }
  const ready = clientId.trim() !== '' && clientSecret.trim() !== ''

  return (
    <Dialog
      open
      onClose={onClose}
      title="Connect X through the X API"
      description="Uses your own X developer app. X shows its own sign-in and asks you to authorize the app."
      size="2xl"
    >
      <ol className="space-y-5 text-sm text-slate-700">
        <li>
          <p className="font-medium text-slate-900">1. Set up your app on developer.x.com</p>
          <p className="mt-1">
            In your app’s <strong>User authentication settings</strong>, turn on OAuth 2.0 with the type{' '}
            <strong>Web App, Automated App or Bot</strong> and the permissions{' '}
            <strong>Read and write and Direct message</strong>.
          </p>
        </li>
        <li>
          <p className="font-medium text-slate-900">2. Add this Callback URI</p>
          <div className="mt-2 flex items-center gap-2">
            <code
              data-testid="x-callback-uri"
              className="min-w-0 flex-1 truncate rounded-lg bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800 ring-1 ring-slate-200"
            >
              {setup.data?.redirectUri ?? (setup.isError ? 'Could not be loaded' : 'Loading...')}
            </code>
            <Button variant="secondary" size="sm" onClick={() => void copy()} disabled={!setup.data}>
              {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </li>
        <li>
          <p className="font-medium text-slate-900">3. Paste the app’s OAuth 2.0 keys</p>
          <p className="mt-1 text-slate-600">
            From “Keys and tokens”. The secret is stored encrypted and never shown again.
          </p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <Field id="x-client-id" label="Client ID">
              <Input
                id="x-client-id"
                autoComplete="off"
                spellCheck={false}
                value={clientId}
                onChange={(e) => setClientId(e.target.value)}
              />
            </Field>
            <Field id="x-client-secret" label="Client Secret">
              <Input
                id="x-client-secret"
                type="password"
                autoComplete="off"
                value={clientSecret}
                onChange={(e) => setClientSecret(e.target.value)}
              />
            </Field>
          </div>
        </li>
      </ol>
      <div className="mt-5">
        {/* the account's default daily limit until the customer sets their own */}
        <XApiCostNote dmsPerDay={DEFAULT_DAILY_DMS} prices />
      </div>
      {start.isError && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-700">
          {start.error.message}
        </p>
      )}
      <div className="mt-6 flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button
          onClick={() => start.mutate()}
          disabled={!ready}
          loading={start.isPending || start.isSuccess}
          loadingText="Checking keys..."
        >
          Continue to X
        </Button>
      </div>
    </Dialog>
  )
}
