import { AuthLayout } from '@/components/layouts/auth-layout'
import { ForgottenPasswordPanel } from '@/features/auth/components/forgotten-password'

export default function ResetPasswordRoute() {
  return (
    <AuthLayout>
      <ForgottenPasswordPanel />
    </AuthLayout>
  )
}
