import { BillingPage } from '@/features/billing/components/billing-page'
import { useAuth } from '@/lib/auth-store'
import { RoleGate } from '../guards/role-gate'
import { SignedInLayout } from '../layouts/signed-in-layout'

export default function BillingRoute() {
  const userId = useAuth((s) => s.user?.id)
  if (!userId) return null
  return (
    <SignedInLayout>
      <RoleGate ability="billing">
        <BillingPage userId={userId} />
      </RoleGate>
    </SignedInLayout>
  )
}
