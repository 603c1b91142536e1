import { ForgottenPassword } from '@supabase/auth-ui-react'
import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { supabase } from '@/lib/supabase'
import { authUiAppearance } from './auth-ui-appearance'

/** Sends the password-reset e-mail; its link opens /update-password with a recovery session. */
export function ForgottenPasswordPanel() {
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Reset your password</h1>
      <p className="mt-2 text-slate-600">
        Enter your e-mail and we will send you a link to choose a new password.
      </p>
      <div className="mt-6">
        <ForgottenPassword
          supabaseClient={supabase}
          appearance={authUiAppearance}
          redirectTo={`${window.location.origin}${paths.updatePassword}`}
          showLinks={false}
          localization={{
            variables: {
              forgotten_password: {
                email_label: 'Email address',
                email_input_placeholder: 'you@company.com',
                button_label: 'Send reset link',
                loading_button_label: 'Sending reset link...',
                confirmation_text: 'Check your e-mail for the password reset link.',
              },
            },
          }}
        />
      </div>
      <Link
        to={paths.login}
        className="mt-6 inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:text-brand-800"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to sign in
      </Link>
    </div>
  )
}
