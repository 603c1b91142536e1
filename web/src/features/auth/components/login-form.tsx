import { AlertCircle, Lock, Mail } from 'lucide-react'
import { type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { Link, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { paths } from '@/config/paths'
import { analytics } from '@/lib/analytics'
import { dismissOAuthSignInError, pendingOAuthSignInError } from '@/lib/auth-store'
import {
  MIN_PASSWORD_LENGTH,
  MISSING_CREDENTIALS,
  PASSWORD_RULE,
  PASSWORD_TOO_SHORT,
  readLoginInput,
} from '../api/login-schema'
import { sameOriginPath } from '../api/return-path'
import { signInWithEmail } from '../api/sign-in'
import { signInWithGoogle } from '../api/sign-in-with-google'
import { signUpWithEmail } from '../api/sign-up'
import { GoogleIcon } from './google-icon'

export type LoginMode = 'signin' | 'signup'
type Busy = 'email' | 'google' | null

/** product.md §4: redirect to /dashboard about 100 ms after a successful e-mail sign-in or sign-up. */
export const LOGIN_REDIRECT_MS = 100

const copy = {
  signin: {
    title: 'Welcome Back',
    subtitle: 'Sign in to continue your automation',
    submit: 'Sign In',
    busy: 'Signing In...',
    google: 'Sign in with Google',
    toggleQuestion: "Don't have an account?",
    toggleAction: 'Sign up here',
  },
  signup: {
    title: 'Create Account',
    subtitle: 'Start automating your DMs today',
    submit: 'Create Account',
    busy: 'Creating Account...',
    google: 'Sign up with Google',
    toggleQuestion: 'Already have an account?',
    toggleAction: 'Sign in here',
  },
} as const

interface LoginFormProps {
  initialMode?: LoginMode
  /** /login?checkout=true: Google returns to /?checkout=continue instead of /dashboard. */
  checkoutFlow?: boolean
  /** Called when a valid e-mail submit starts, so the page lets the form do the redirect. */
  onSubmitted?: () => void
  /**
   * Where e-mail and Google sign-in or sign-up land instead of the dashboard (an invitation's page);
   * only a path on this site counts.
   */
  returnTo?: string
}

/**
 * The Supabase client (~38 KB gzip) stays off the login page's first paint; it starts loading as
 * soon as the visitor reaches for the form, so it is usually there by the time they submit.
 */
const preloadClient = () => {
  void import('@/lib/supabase')
}

const noSubscription = () => () => {}

/**
 * False in the prerendered HTML and while it hydrates, true once React handles events. Until then
 * a submit would be the browser's own GET, putting the password in the address, so the buttons
 * wait the few hundred milliseconds until the page is live.
 */
const useLive = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )

export function LoginForm({
  initialMode = 'signin',
  checkoutFlow = false,
  onSubmitted,
  returnTo,
}: LoginFormProps) {
  const [mode, setMode] = useState<LoginMode>(initialMode)
  const [error, setErrorState] = useState<string | null>(() => {
    const oauthError = pendingOAuthSignInError()
    return oauthError && `Google sign in error: ${oauthError}`
  })
  const setError = (next: string | null) => {
    dismissOAuthSignInError()
    setErrorState(next)
  }
  const [busy, setBusy] = useState<Busy>(null)
  const live = useLive()
  const navigate = useNavigate()
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const passwordRef = useRef<HTMLInputElement>(null)
  const text = copy[mode]
  // the error is about the password (a sign-up rule or the service's weak_password): mark the field
  const passwordError =
    mode === 'signup' && error !== null && /password/i.test(error) && error !== MISSING_CREDENTIALS

  useEffect(() => () => clearTimeout(redirectTimer.current), [])

  // product.md §4: any input change clears the error.
  const clearError = () => setError(null)

  // Two fields need no form library: the inputs keep their own values and are read on submit.
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const fields = new FormData(event.currentTarget)
    const input = readLoginInput({
      email: String(fields.get('email') ?? ''),
      password: String(fields.get('password') ?? ''),
    })
    if (!input) {
      setError(MISSING_CREDENTIALS)
      return
    }
    if (mode === 'signup' && input.password.length < MIN_PASSWORD_LENGTH) {
      setError(PASSWORD_TOO_SHORT)
      passwordRef.current?.focus()
      return
    }
    setError(null)
    setBusy('email')
    onSubmitted?.()
    if (mode === 'signin') analytics.track('login_attempt', { method: 'email' })
    const result = mode === 'signin' ? await signInWithEmail(input) : await signUpWithEmail(input)
    if (!result.ok) {
      setError(result.error)
      setBusy(null)
      if (mode === 'signup' && /password/i.test(result.error)) passwordRef.current?.focus()
      return
    }
    // Operators land on the admin dashboard; everyone else on theirs (product.md §4).
    const home =
      sameOriginPath(returnTo, window.location.origin) ??
      (result.home === 'admin' ? paths.admin : paths.dashboard)
    redirectTimer.current = setTimeout(() => navigate(home, { replace: true }), LOGIN_REDIRECT_MS)
  }

  const onGoogle = async () => {
    setError(null)
    setBusy('google')
    analytics.track('login_attempt', { method: 'google' })
    const result = await signInWithGoogle({ checkoutFlow, returnTo })
    if (!result.ok) {
      setError(result.error)
      setBusy(null)
    }
  }

  const inputClass =
    'block h-11 w-full rounded-lg border-0 bg-white pr-3 pl-10 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none'

  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{text.title}</h1>
      <p className="mt-2 text-slate-600">{text.subtitle}</p>

      {error && (
        <div
          role="alert"
          className="mt-6 flex gap-2.5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>{error}</p>
        </div>
      )}

      <form
        onSubmit={onSubmit}
        onFocus={preloadClient}
        onPointerEnter={preloadClient}
        className="mt-6 space-y-5"
      >
        <div>
          <label htmlFor="login-email" className="block text-sm font-medium text-slate-700">
            Email address
          </label>
          <div className="relative mt-1.5">
            <Mail
              className="pointer-events-none absolute top-3 left-3 size-5 text-slate-400"
              aria-hidden="true"
            />
            <input
              id="login-email"
              type="email"
              autoComplete="email"
              placeholder="you@company.com"
              className={inputClass}
              name="email"
              onChange={clearError}
            />
          </div>
        </div>
        <div>
          <div className="flex items-center justify-between">
            <label htmlFor="login-password" className="block text-sm font-medium text-slate-700">
              Password
            </label>
            {mode === 'signin' && (
              <Link
                to={paths.resetPassword}
                className="text-sm font-medium text-brand-700 hover:text-brand-800"
              >
                Forgot password?
              </Link>
            )}
          </div>
          <div className="relative mt-1.5">
            <Lock
              className="pointer-events-none absolute top-3 left-3 size-5 text-slate-400"
              aria-hidden="true"
            />
            <input
              ref={passwordRef}
              id="login-password"
              type="password"
              autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
              placeholder="••••••••"
              className={`${inputClass} aria-[invalid=true]:ring-red-400`}
              name="password"
              onChange={clearError}
              aria-invalid={passwordError}
              aria-describedby={mode === 'signup' ? 'login-password-rule' : undefined}
            />
          </div>
          {mode === 'signup' && (
            <p
              id="login-password-rule"
              className={`mt-1.5 text-xs ${passwordError ? 'font-medium text-red-600' : 'text-slate-500'}`}
            >
              {PASSWORD_RULE}
            </p>
          )}
        </div>
        <Button
          type="submit"
          size="lg"
          className="w-full"
          loading={busy === 'email'}
          loadingText={text.busy}
          disabled={busy !== null || !live}
        >
          {text.submit}
        </Button>
      </form>

      <div className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>

      <Button
        variant="secondary"
        size="lg"
        className="w-full"
        onClick={onGoogle}
        onPointerEnter={preloadClient}
        loading={busy === 'google'}
        loadingText="Processing..."
        disabled={busy !== null || !live}
        icon={<GoogleIcon />}
      >
        {text.google}
      </Button>

      <p className="mt-8 text-center text-sm text-slate-600">
        <button
          type="button"
          className="rounded-md font-medium"
          onClick={() => {
            setMode(mode === 'signin' ? 'signup' : 'signin')
            setError(null)
          }}
        >
          {text.toggleQuestion}{' '}
          <span className="font-semibold text-brand-700 hover:text-brand-800">{text.toggleAction}</span>
        </button>
      </p>
    </div>
  )
}
