import { type ConnectAccountForm, shownAtField } from '@/lib/accounts/connect-account'
import { COOKIES_HINT, COOKIES_PLACEHOLDER } from '@/lib/accounts/cookie-input'

const inputClass =
  'mt-1.5 block w-full rounded-lg border-0 px-3 py-2.5 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:ring-red-400'

interface AccountCredentialsProps {
  form: ConnectAccountForm
  onChange: (patch: Partial<ConnectAccountForm>) => void
  /** The form's first problem; the field it concerns says it once something was typed there. */
  problem?: string | null
}

function FieldError({ id, text }: { id: string; text: string | null }) {
  if (!text) return null
  return (
    <p id={id} className="mt-1 text-xs font-medium text-red-600">
      {text}
    </p>
  )
}

/** Username plus what the chosen platform needs: Instagram password (and 2FA key), X cookies. */
export function AccountCredentials({ form, onChange, problem = null }: AccountCredentialsProps) {
  const atField = shownAtField(form, problem) ? problem : null
  const about = (pattern: RegExp) => (atField && pattern.test(atField) ? atField : null)
  const usernameError = about(/username/i)
  const cookiesError = about(/cookie/i)
  const passcodeError = about(/passcode/i)
  const proxyError = about(/proxy/i)
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor="setup-username" className="block text-sm font-medium text-slate-700">
          Username
        </label>
        <input
          id="setup-username"
          className={inputClass}
          placeholder="yourhandle (without @)"
          autoComplete="off"
          value={form.username}
          onChange={(e) => onChange({ username: e.target.value })}
          aria-invalid={usernameError !== null}
          aria-describedby={usernameError ? 'setup-username-error' : undefined}
        />
        <FieldError id="setup-username-error" text={usernameError} />
      </div>
      {form.platform === 'instagram' && (
        <>
          <div>
            <label htmlFor="setup-password" className="block text-sm font-medium text-slate-700">
              Instagram password
            </label>
            <input
              id="setup-password"
              type="password"
              autoComplete="off"
              className={inputClass}
              value={form.password}
              onChange={(e) => onChange({ password: e.target.value })}
            />
          </div>
          <div>
            <label htmlFor="setup-secret" className="block text-sm font-medium text-slate-700">
              2FA secret key <span className="font-normal text-slate-400">(optional)</span>
            </label>
            <input
              id="setup-secret"
              autoComplete="off"
              className={inputClass}
              value={form.secretKey}
              onChange={(e) => onChange({ secretKey: e.target.value })}
            />
          </div>
        </>
      )}
      {form.platform === 'twitter' && (
        <div>
          <label htmlFor="setup-cookies" className="block text-sm font-medium text-slate-700">
            Cookies (JSON)
          </label>
          <textarea
            id="setup-cookies"
            rows={4}
            className={`${inputClass} font-mono text-xs`}
            placeholder={COOKIES_PLACEHOLDER}
            value={form.cookies}
            onChange={(e) => onChange({ cookies: e.target.value })}
            aria-invalid={cookiesError !== null}
            aria-describedby={cookiesError ? 'setup-cookies-error' : 'setup-cookies-hint'}
          />
          {cookiesError ? (
            <FieldError id="setup-cookies-error" text={cookiesError} />
          ) : (
            <p id="setup-cookies-hint" className="mt-1 text-xs text-slate-500">
              {COOKIES_HINT}
            </p>
          )}
        </div>
      )}
      {form.platform === 'twitter' && (
        <div>
          <label htmlFor="setup-passcode" className="block text-sm font-medium text-slate-700">
            X Chat passcode
          </label>
          <input
            id="setup-passcode"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            className={`${inputClass} w-28 tracking-[0.4em]`}
            value={form.chatPasscode ?? ''}
            onChange={(e) => onChange({ chatPasscode: e.target.value.replace(/\D/g, '') })}
            aria-invalid={passcodeError !== null}
            aria-describedby={passcodeError ? 'setup-passcode-error' : 'setup-passcode-hint'}
          />
          <FieldError id="setup-passcode-error" text={passcodeError} />
          <p id="setup-passcode-hint" className="mt-1 text-xs text-slate-500">
            X asks for this 4-digit passcode when Messages (X Chat) opens. If you set one up, we need it to
            send and read your DMs; leave it empty only if X never asks you for one.
          </p>
        </div>
      )}
      <div>
        <label htmlFor="setup-proxy" className="block text-sm font-medium text-slate-700">
          Proxy URL <span className="font-normal text-slate-400">(optional)</span>
        </label>
        <input
          id="setup-proxy"
          className={inputClass}
          placeholder="user:pass@host:port"
          autoComplete="off"
          value={form.proxyUrl}
          onChange={(e) => onChange({ proxyUrl: e.target.value })}
          aria-invalid={proxyError !== null}
          aria-describedby={proxyError ? 'setup-proxy-error' : undefined}
        />
        <FieldError id="setup-proxy-error" text={proxyError} />
      </div>
    </div>
  )
}
