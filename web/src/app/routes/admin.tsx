// /admin: operators only. Signed-out visitors go to /login; anyone signed in without
// app_metadata.role = 'admin' goes to /dashboard with a toast, before any onboarding step could
// show here. The admin function's server-side check (403 otherwise) stays the real guard.
import { useEffect, useRef } from 'react'
import { Navigate } from 'react-router'
import { FullPageSpinner } from '@/components/ui/spinner'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { ADMIN_REQUEST_ERRORS } from '@/features/admin/api/admin-request'
import { AdminPage } from '@/features/admin/components/admin-page'
import { useAuth } from '@/lib/auth-store'
import { isOperator } from '@/lib/operator'
import { ProtectedRoute } from '../guards/protected-route'
import { SignedInLayout } from '../layouts/signed-in-layout'

export default function AdminRoute() {
  const user = useAuth((s) => s.user)
  const loading = useAuth((s) => s.loading)
  const refused = !loading && user !== null && !isOperator(user)
  const toast = useToast()
  const warned = useRef(false)

  useEffect(() => {
    if (!refused || warned.current) return
    warned.current = true
    toast.show({ type: 'error', message: ADMIN_REQUEST_ERRORS.forbidden, duration: 6000 })
  }, [refused, toast])

  if (loading) return <FullPageSpinner />
  if (!user) return <Navigate to={paths.login} replace />
  if (refused) return <Navigate to={paths.dashboard} replace />
  return (
    <ProtectedRoute>
      <SignedInLayout>
        <AdminPage />
      </SignedInLayout>
    </ProtectedRoute>
  )
}
