import { UpdatePassword } from '@supabase/auth-ui-react'
import { CheckCircle2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { supabase } from '@/lib/supabase'
import { authUiAppearance } from './auth-ui-appearance'

/** Choosing a new password after following the recovery link (which signs the user in). */
export function UpdatePasswordPanel() {
  const user = useAuth((s) => s.user)
  const [updated, setUpdated] = useState(false)

  // The Auth UI switches itself to its sign-in view after USER_UPDATED; the panel replaces it
  // with a confirmation instead, so the user never sees an unrelated form.
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event === 'USER_UPDATED') setUpdated(true)
    })
    return () => data.subscription.unsubscribe()
  }, [])

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
      <div className="mt-6">
        <UpdatePassword
          supabaseClient={supabase}
          appearance={authUiAppearance}
          localization={{
            variables: {
              update_password: {
                password_label: 'New password',
                password_input_placeholder: 'Your new password',
                button_label: 'Update password',
                loading_button_label: 'Updating password...',
                confirmation_text: 'Your password has been updated',
              },
            },
          }}
        />
      </div>
    </div>
  )
}
