import { CenteredCardLayout } from '@/components/layouts/centered-card-layout'
import { PaymentSuccess } from '@/features/payments/components/payment-success'

export default function SuccessRoute() {
  return (
    <CenteredCardLayout>
      <PaymentSuccess />
    </CenteredCardLayout>
  )
}
