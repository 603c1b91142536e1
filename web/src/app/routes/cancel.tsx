import { CenteredCardLayout } from '@/components/layouts/centered-card-layout'
import { PaymentCancelled } from '@/features/payments/components/payment-cancelled'

export default function CancelRoute() {
  return (
    <CenteredCardLayout>
      <PaymentCancelled />
    </CenteredCardLayout>
  )
}
