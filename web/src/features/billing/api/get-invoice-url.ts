import type { ApiResponse } from '@reachflow/domain'
import { apiErrorMessage } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

/** The hosted invoice page of one of the user's invoices. */
export async function getInvoiceUrl(invoiceId: string): Promise<string> {
  const { data, error } = await supabase.functions.invoke<
    Partial<ApiResponse<'GET /invoices/:id'>> & { error?: string }
  >(`api/invoices/${encodeURIComponent(invoiceId)}`, { method: 'GET' })
  if (error) throw new Error(await apiErrorMessage(error))
  if (!data?.url) throw new Error(data?.error ?? 'No invoice address received')
  return data.url
}
