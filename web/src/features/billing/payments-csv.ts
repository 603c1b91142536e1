import { formatCents } from '@shared/pricing'
import type { Payment } from './api/types'

const HEADER = ['Date', 'Description', 'Amount', 'Status', 'Type', 'Invoice']

/** RFC 4180 field: quoted when it holds a comma, quote or line break; formula-looking text is defused. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export function paymentsToCsv(payments: Payment[]): string {
  const rows = payments.map((p) => [
    new Date(p.created_at).toISOString().slice(0, 10),
    p.description ?? '',
    formatCents(p.amount),
    p.status,
    p.payment_type ?? '',
    p.stripe_invoice_id ?? '',
  ])
  return [HEADER, ...rows].map((row) => row.map(field).join(',')).join('\r\n')
}

/** Saves the CSV through a temporary link (no server round trip). */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.appendChild(link)
  link.click()
  link.remove()
  URL.revokeObjectURL(url)
}
