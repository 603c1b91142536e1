import { CenteredCardLayout } from '@/components/layouts/centered-card-layout'
import { InstagramConnectCallback } from '@/features/social-accounts/components/official/instagram-connect-callback'

export default function ConnectInstagramCallbackRoute() {
  return (
    <CenteredCardLayout>
      <InstagramConnectCallback />
    </CenteredCardLayout>
  )
}
