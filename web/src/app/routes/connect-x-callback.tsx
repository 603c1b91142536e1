import { CenteredCardLayout } from '@/components/layouts/centered-card-layout'
import { XOfficialCallback } from '@/features/social-accounts/components/official/x-official-callback'

export default function ConnectXCallbackRoute() {
  return (
    <CenteredCardLayout>
      <XOfficialCallback />
    </CenteredCardLayout>
  )
}
