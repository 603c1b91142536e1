import { formatCents } from '@shared/pricing'
import { FileText } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { getInvoiceUrl } from '../api/get-invoice-url'
import type { Payment } from '../api/types'
import { formatDate } from '../billing-display'
import { PaymentStatusPill } from './pills'

/** Payments with date, description, amount, status and, when there is one, the invoice. */
export function PaymentsTable({ payments, emptyText }: { payments: Payment[]; emptyText: string }) {
  const toast = useToast()
  const [opening, setOpening] = useState<string | null>(null)

  const openInvoice = async (invoiceId: string) => {
    setOpening(invoiceId)
    // Opened before the await so pop-up blockers treat it as the click's window.
    const tab = window.open('', '_blank')
    if (tab) tab.opener = null
    try {
      const url = await getInvoiceUrl(invoiceId)
      if (tab) tab.location.href = url
      else window.location.assign(url)
    } catch (error) {
      tab?.close()
      toast.error((error as Error).message, 'Could not open the invoice')
    } finally {
      setOpening(null)
    }
  }

  if (payments.length === 0) return <p className="py-8 text-center text-sm text-slate-500">{emptyText}</p>

  return (
    <div className="relative -mx-6 overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-6 py-3">
              Date
            </th>
            <th scope="col" className="px-6 py-3">
              Description
            </th>
            <th scope="col" className="px-6 py-3 text-right">
              Amount
            </th>
            <th scope="col" className="px-6 py-3">
              Status
            </th>
            <th scope="col" className="px-6 py-3">
              <span className="sr-only">Invoice</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {payments.map((payment) => (
            <tr key={payment.id}>
              <td className="px-6 py-3 whitespace-nowrap text-slate-600">{formatDate(payment.created_at)}</td>
              <td className="px-6 py-3 text-slate-900">
                {payment.description ?? payment.payment_type ?? 'Payment'}
              </td>
              <td className="px-6 py-3 text-right font-medium whitespace-nowrap text-slate-900">
                {formatCents(payment.amount)}
              </td>
              <td className="px-6 py-3">
                <PaymentStatusPill status={payment.status} />
              </td>
              <td className="px-6 py-3 text-right">
                {payment.stripe_invoice_id && (
                  <Button
                    variant="ghost"
                    size="sm"
                    icon={<FileText className="size-4" aria-hidden="true" />}
                    loading={opening === payment.stripe_invoice_id}
                    onClick={() => openInvoice(payment.stripe_invoice_id as string)}
                  >
                    Invoice
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
