import { formatCents } from '@reachflow/domain'
import { type CsvColumn, toCsv } from '@/lib/csv'
import type { Payment } from './api/types'

const COLUMNS: CsvColumn<Payment>[] = [
  { header: 'Date', value: (p) => new Date(p.created_at).toISOString().slice(0, 10) },
  { header: 'Description', value: (p) => p.description },
  { header: 'Amount', value: (p) => formatCents(p.amount) },
  { header: 'Status', value: (p) => p.status },
  { header: 'Type', value: (p) => p.payment_type },
  { header: 'Invoice', value: (p) => p.stripe_invoice_id },
]

export const paymentsToCsv = (payments: readonly Payment[]) => toCsv(payments, COLUMNS)
