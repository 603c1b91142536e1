import { AuthLayout } from '@/components/layouts/auth-layout'
import { FullPageSpinner } from '@/components/ui/spinner'
import { UpdatePasswordPanel } from '@/features/auth/components/update-password'
import { useAuth } from '@/lib/auth-store'

export default function UpdatePasswordRoute() {
  const loading = useAuth((s) => s.loading)
  if (loading) return <FullPageSpinner />
  return (
    <AuthLayout>
      <UpdatePasswordPanel />
    </AuthLayout>
  )
}
