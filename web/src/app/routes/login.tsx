import { Sparkles } from 'lucide-react'
import { useState } from 'react'
import { Navigate, useSearchParams } from 'react-router'
import { AuthLayout } from '@/components/layouts/auth-layout'
import { FullPageSpinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { LoginForm } from '@/features/auth/components/login-form'
import { useAuth } from '@/lib/auth-store'
import { isOperator } from '@/lib/operator'

/** /login: a signed-in visitor goes straight to /dashboard (product.md §2), an operator to /admin. */
export default function LoginRoute() {
  const user = useAuth((s) => s.user)
  const loading = useAuth((s) => s.loading)
  const [params] = useSearchParams()
  const checkoutFlow = params.get('checkout') === 'true'
  // Once the visitor submits, the form owns the redirect (about 100 ms after success).
  const [submitted, setSubmitted] = useState(false)

  if (loading) return <FullPageSpinner />
  if (user && !submitted) return <Navigate to={isOperator(user) ? paths.admin : paths.dashboard} replace />

  return (
    <AuthLayout
      banner={
        checkoutFlow && (
          <p className="mb-6 inline-flex items-center gap-2 self-start rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-700 ring-1 ring-brand-100">
            <Sparkles className="size-4" aria-hidden="true" />
            3-day free trial, cancel anytime
          </p>
        )
      }
    >
      <LoginForm
        initialMode={checkoutFlow ? 'signup' : 'signin'}
        checkoutFlow={checkoutFlow}
        onSubmitted={() => setSubmitted(true)}
      />
    </AuthLayout>
  )
}
