import { supabase } from '@/lib/supabase'
import type { Payment } from './types'

const COLUMNS = 'id, user_id, amount, status, payment_type, description, created_at, stripe_invoice_id'

/** The workspace's payments, newest first (product.md §7). Errors are thrown. */
export async function getPayments(workspaceId: string): Promise<Payment[]> {
  const { data, error } = await supabase
    .from('payments')
    .select(COLUMNS)
    .eq('workspace_id', workspaceId)
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not load your payments: ${error.message}`)
  return data
}
