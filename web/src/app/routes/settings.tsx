import { SettingsPage } from '@/features/settings/components/settings-page'
import { SignedInLayout } from '../layouts/signed-in-layout'

export default function SettingsRoute() {
  return (
    <SignedInLayout>
      <SettingsPage />
    </SignedInLayout>
  )
}
