import { AlertCircle, CheckCircle2, Eye, EyeOff } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form-field'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { supabase } from '@/lib/supabase'
import { type NewPasswordErrors, validateNewPassword } from '../api/new-password'

/** Choosing a new password after following the recovery link (which signs the user in). */
export function UpdatePasswordPanel() {
  const user = useAuth((s) => s.user)
  const [updated, setUpdated] = useState(false)

  if (updated) {
    return (
      <div role="status">
        <CheckCircle2 className="size-10 text-emerald-500" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
          Your password has been updated
        </h1>
        <p className="mt-2 text-slate-600">Use it the next time you sign in. You are signed in now.</p>
        <Link to={paths.dashboard} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          Go to Dashboard
        </Link>
      </div>
    )
  }

  if (!user) {
    return (
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">This link has expired</h1>
        <p className="mt-2 text-slate-600">
          Password reset links work once and only for a short time. Request a new one to continue.
        </p>
        <Link to={paths.resetPassword} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          Send a new link
        </Link>
      </div>
    )
  }

  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Choose a new password</h1>
      <p className="mt-2 break-all text-slate-600">
        Signed in as <span className="font-medium text-slate-900">{user.email}</span>
      </p>
      <NewPasswordForm onUpdated={() => setUpdated(true)} />
    </div>
  )
}

/** New password, its confirmation and one show/hide toggle for both; checked on blur and submit. */
export function NewPasswordForm({ onUpdated }: { onUpdated: () => void }) {
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [visible, setVisible] = useState(false)
  const [touched, setTouched] = useState({ password: false, confirm: false })
  const [errors, setErrors] = useState<NewPasswordErrors>({})
  const [serviceError, setServiceError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const check = (next: typeof touched, p = password, c = confirm) => {
    const all = validateNewPassword(p, c)
    setErrors({
      password: next.password ? all.password : undefined,
      confirm: next.confirm ? all.confirm : undefined,
    })
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const all = validateNewPassword(password, confirm)
    setTouched({ password: true, confirm: true })
    setErrors(all)
    if (all.password || all.confirm) return
    setBusy(true)
    setServiceError(null)
    try {
      const { error } = await supabase.auth.updateUser({ password })
      if (error) setServiceError(error.message || 'Password update failed. Please try again.')
      else onUpdated()
    } catch {
      setServiceError('An unexpected error occurred. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  const type = visible ? 'text' : 'password'
  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 space-y-5">
      {serviceError && (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-700 ring-1 ring-red-200"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {serviceError}
        </div>
      )}
      <Field id="new-password" label="New password" error={errors.password} hint="At least 6 characters.">
        <Input
          id="new-password"
          type={type}
          autoComplete="new-password"
          placeholder="Your new password"
          value={password}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? 'new-password-error' : 'new-password-hint'}
          onChange={(e) => {
            setPassword(e.target.value)
            setServiceError(null)
            if (touched.password || touched.confirm) check(touched, e.target.value, confirm)
          }}
          onBlur={() => {
            const next = { ...touched, password: true }
            setTouched(next)
            check(next)
          }}
        />
      </Field>
      <Field id="confirm-password" label="Confirm new password" error={errors.confirm}>
        <Input
          id="confirm-password"
          type={type}
          autoComplete="new-password"
          placeholder="Type it again"
          value={confirm}
          aria-invalid={errors.confirm ? true : undefined}
          aria-describedby={errors.confirm ? 'confirm-password-error' : undefined}
          onChange={(e) => {
            setConfirm(e.target.value)
            setServiceError(null)
            if (touched.confirm) check(touched, password, e.target.value)
          }}
          onBlur={() => {
            const next = { ...touched, confirm: true }
            setTouched(next)
            check(next)
          }}
        />
      </Field>
      <button
        type="button"
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-slate-600 hover:text-slate-900"
      >
        {visible ? (
          <EyeOff className="size-4" aria-hidden="true" />
        ) : (
          <Eye className="size-4" aria-hidden="true" />
        )}
        {visible ? 'Hide passwords' : 'Show passwords'}
      </button>
      <Button type="submit" size="lg" className="w-full" loading={busy} loadingText="Updating password...">
        Update password
      </Button>
    </form>
  )
}
