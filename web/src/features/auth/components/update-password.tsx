import { UpdatePassword } from '@supabase/auth-ui-react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { supabase } from '@/lib/supabase'
import { authUiAppearance } from './auth-ui-appearance'

/** Choosing a new password after following the recovery link (which signs the user in). */
export function UpdatePasswordPanel() {
  const user = useAuth((s) => s.user)

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
      <p className="mt-2 text-slate-600">
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
      <Link
        to={paths.dashboard}
        className="mt-2 inline-block text-sm font-medium text-brand-700 hover:text-brand-800"
      >
        Go to Dashboard
      </Link>
    </div>
  )
}
