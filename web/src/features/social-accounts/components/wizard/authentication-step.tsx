import { CheckCircle2, ShieldCheck, XCircle } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Field, Input, Textarea } from '@/components/ui/form-field'
import type { ConnectAccountForm } from '@/lib/accounts/connect-account'
import { COOKIES_HINT, COOKIES_PLACEHOLDER } from '@/lib/accounts/cookie-input'
import { type CookieCheck, validateCookies } from '@/lib/accounts/validate-cookies'
import { shownAtField } from '../../account-wizard-rules'

type Patch = (change: Partial<ConnectAccountForm>) => void

/** Instagram: password and optional 2FA secret. X: cookies (JSON) with Validate, optional X Chat passcode. */
export function AuthenticationStep({
  form,
  onChange,
  problem,
}: {
  form: ConnectAccountForm
  onChange: Patch
  problem: string | null
}) {
  const [check, setCheck] = useState<CookieCheck | null>(null)
  const [checking, setChecking] = useState(false)

  if (form.platform === 'instagram') {
    return (
      <>
        <Field
          id="acct-password"
          label="Instagram password"
          error={shownAtField(form, problem) && /password/i.test(problem ?? '') ? problem : null}
        >
          <Input
            id="acct-password"
            type="password"
            autoComplete="off"
            value={form.password}
            onChange={(e) => onChange({ password: e.target.value })}
          />
        </Field>
        <Field
          id="acct-secret"
          label="2FA secret key"
          optional
          hint="The key shown when you set up an authenticator app; we use it to pass two-factor sign-in."
        >
          <Input
            id="acct-secret"
            autoComplete="off"
            value={form.secretKey}
            onChange={(e) => onChange({ secretKey: e.target.value })}
          />
        </Field>
      </>
    )
  }

  if (form.platform !== 'twitter')
    return <p className="text-sm text-slate-600">Nothing else is needed for this platform.</p>

  const validate = async () => {
    setChecking(true)
    setCheck(null)
    setCheck(await validateCookies(form.platform, form.cookies))
    setChecking(false)
  }
  const atField = shownAtField(form, problem) ? problem : null
  const cookieProblem = atField && /cookie/i.test(atField) ? atField : null

  return (
    <>
      <Field id="acct-cookies" label="Cookies (JSON)" hint={COOKIES_HINT} error={cookieProblem}>
        <Textarea
          id="acct-cookies"
          rows={5}
          className="font-mono text-xs"
          aria-invalid={cookieProblem !== null}
          aria-describedby={cookieProblem ? 'acct-cookies-error' : 'acct-cookies-hint'}
          placeholder={COOKIES_PLACEHOLDER}
          value={form.cookies}
          onChange={(e) => {
            setCheck(null)
            onChange({ cookies: e.target.value })
          }}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          onClick={validate}
          disabled={!form.platform || form.cookies.trim() === ''}
          loading={checking}
          loadingText="Validating..."
          icon={<ShieldCheck className="size-4" aria-hidden="true" />}
        >
          Validate cookies
        </Button>
        {/* A parse failure is already the field's error: say it once. */}
        {check && !(check.ok === false && check.message === cookieProblem) && (
          <p
            role="status"
            className={`flex items-center gap-1.5 text-sm font-medium ${check.ok ? 'text-emerald-700' : 'text-red-700'}`}
          >
            {check.ok ? (
              <CheckCircle2 className="size-4" aria-hidden="true" />
            ) : (
              <XCircle className="size-4" aria-hidden="true" />
            )}
            {check.message}
            {check.ok && check.username ? ` Signed in as @${check.username}.` : ''}
          </p>
        )}
      </div>
      <Field
        id="acct-passcode"
        label="X Chat passcode"
        hint="X asks for this 4-digit passcode when Messages (X Chat) opens. If you set one up, we need it to send and read your DMs; leave it empty only if X never asks you for one."
        error={atField && /passcode/i.test(atField) ? atField : null}
      >
        <Input
          id="acct-passcode"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          className="w-28 tracking-[0.4em]"
          value={form.chatPasscode ?? ''}
          onChange={(e) => onChange({ chatPasscode: e.target.value.replace(/\D/g, '') })}
        />
      </Field>
    </>
  )
}
