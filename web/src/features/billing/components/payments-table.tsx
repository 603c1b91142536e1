import { formatMoney } from '@reachflow/domain'
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
    try {
      // The tab opens only once the address is known: a failure never leaves a blank tab behind.
      const url = await getInvoiceUrl(invoiceId)
      const tab = window.open(url, '_blank', 'noopener,noreferrer')
      if (!tab) {
        // Blocked as a pop-up (it no longer follows the click directly): one more click opens it.
        toast.info('Your browser blocked the new tab.', 'Invoice ready', {
          key: `invoice:${invoiceId}`,
          action: { label: 'Open invoice', onClick: () => window.open(url, '_blank', 'noopener,noreferrer') },
        })
      }
    } catch (error) {
      toast.error((error as Error).message, 'Could not open the invoice', { key: `invoice:${invoiceId}` })
    } finally {
      setOpening(null)
    }
  }

  if (payments.length === 0) return <p className="py-8 text-center text-sm text-slate-500">{emptyText}</p>

  return (
    <div className="relative -mx-6 overflow-x-auto">
      {/* Below 640 px each payment is a small card (date and amount, description, status and
          invoice) instead of five columns that would scroll sideways out of sight. */}
      <table className="min-w-full text-left text-sm max-sm:block">
        <thead className="border-b border-slate-200 text-xs font-semibold tracking-wide text-slate-500 uppercase max-sm:sr-only">
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
        <tbody className="divide-y divide-slate-100 max-sm:block">
          {payments.map((payment) => (
            <tr
              key={payment.id}
              className="max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:items-center max-sm:gap-x-4 max-sm:gap-y-1.5 max-sm:px-6 max-sm:py-4"
            >
              <td className="px-6 py-3 whitespace-nowrap text-slate-600 max-sm:col-start-1 max-sm:row-start-1 max-sm:p-0">
                {formatDate(payment.created_at)}
              </td>
              <td className="px-6 py-3 text-slate-900 max-sm:col-span-2 max-sm:row-start-2 max-sm:p-0">
                {payment.description ?? payment.payment_type ?? 'Payment'}
              </td>
              <td className="px-6 py-3 text-right font-medium whitespace-nowrap text-slate-900 max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
                {formatMoney(payment.amount)}
              </td>
              <td className="px-6 py-3 max-sm:col-start-1 max-sm:row-start-3 max-sm:p-0">
                <PaymentStatusPill status={payment.status} />
              </td>
              <td className="px-6 py-3 text-right max-sm:col-start-2 max-sm:row-start-3 max-sm:p-0">
                {payment.stripe_invoice_id && (
                  <Button
                    variant="ghost"
                    size="sm"
                    icon={<FileText className="size-4" aria-hidden="true" />}
                    loading={opening === payment.stripe_invoice_id}
                    onClick={() => payment.stripe_invoice_id && openInvoice(payment.stripe_invoice_id)}
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
