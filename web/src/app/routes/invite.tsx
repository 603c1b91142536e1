import { useParams } from 'react-router'
import { AuthLayout } from '@/components/layouts/auth-layout'
import { LoginForm } from '@/features/auth/components/login-form'
import { InvitePage } from '@/features/workspaces/components/invite-page'

/** /invite/<token>: the link of an invitation e-mail; signing in or up (e-mail or Google) comes back here. */
export default function InviteRoute() {
  const { token = '' } = useParams()
  return (
    <AuthLayout>
      <InvitePage token={token} signedOut={<LoginForm returnTo={`/invite/${encodeURIComponent(token)}`} />} />
    </AuthLayout>
  )
}
