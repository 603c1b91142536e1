import type { ApiResponse } from '@reachflow/domain'
import { supabase } from '@/lib/supabase'

/** product.md §3 "Checkout session", as GET {api}/api/checkout-session/{id} returns it. */
export interface CheckoutSession {
  amount_total: number | null
  customer: { email?: string | null } | null
  customer_details?: { email?: string | null } | null
  metadata: {
    planType?: string | null
    billing_cycle?: string | null
    accounts?: string | number | null
    traffic_source?: string | null
  } | null
  /** What happened: a trial (nothing charged today), a payment, or not settled yet. */
  outcome?: 'trial' | 'paid' | 'pending'
  amount_due_today?: number
  trial_end?: string | null
  first_charge_amount?: number | null
  first_charge_at?: string | null
}

export const NO_SESSION_ID = 'No session ID found'
export const SESSION_FETCH_FAILED = 'Failed to fetch session data'

export async function getCheckoutSession(sessionId: string): Promise<CheckoutSession> {
  const { data, error } = await supabase.functions.invoke<ApiResponse<'GET /api/checkout-session/:id'>>(
    `api/api/checkout-session/${encodeURIComponent(sessionId)}`,
    { method: 'GET' },
  )
  if (error || !data) {
    if (error) console.error('Error fetching checkout session', error)
    throw new Error(SESSION_FETCH_FAILED)
  }
  return data
}
