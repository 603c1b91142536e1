import { Download } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { csvFilename, downloadCsv } from '@/lib/csv'
import type { Payment } from '../api/types'
import { paymentsToCsv } from '../payments-csv'
import { PaymentsTable } from './payments-table'

export function PaymentHistoryTab({ payments }: { payments: Payment[] }) {
  return (
    <Card>
      <CardHeader className="flex items-center justify-between gap-4">
        <CardTitle>Payment History</CardTitle>
        <Button
          variant="secondary"
          size="sm"
          icon={<Download className="size-4" aria-hidden="true" />}
          disabled={payments.length === 0}
          onClick={() => downloadCsv(csvFilename('payments'), paymentsToCsv(payments))}
        >
          Export to CSV
        </Button>
      </CardHeader>
      <CardBody>
        <PaymentsTable payments={payments} emptyText="No payments yet" />
      </CardBody>
    </Card>
  )
}
