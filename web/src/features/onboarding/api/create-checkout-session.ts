import type { ApiResponse } from '@reachflow/domain'
import { z } from 'zod'
import { serverErrorText } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

/** product.md §7 body of POST {api}/api/create-checkout-session; the server prices it again from the plan. */
export const checkoutRequestSchema = z.object({
  userId: z.string().min(1),
  priceId: z.string().min(1),
  planType: z.enum(['starter', 'growth', 'bundle']),
  billingPeriod: z.enum(['monthly', 'yearly']),
  planName: z.string().min(1),
  price: z.number().nonnegative(),
  accountCount: z.number().int().min(1).max(50),
  source: z.string().min(1),
})

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>

/** A stable key per purchasable price (starter_yearly, growth_monthly, bundle_3_months, …). */
export function priceIdFor(
  planType: CheckoutRequest['planType'],
  billingPeriod: CheckoutRequest['billingPeriod'],
) {
  return planType === 'bundle' ? 'bundle_3_months' : `${planType}_${billingPeriod}`
}

/** Returns the payment page address; throws with the texts of product.md §8 "Checkout". */
export async function createCheckoutSession(request: CheckoutRequest): Promise<string> {
  const body = checkoutRequestSchema.parse(request)
  const { data, error } = await supabase.functions.invoke<
    Partial<ApiResponse<'POST /api/create-checkout-session'>> & { error?: string }
  >('api/api/create-checkout-session', { body })
  if (error) throw new Error((await serverErrorText(error)) ?? 'Failed to create checkout session')
  if (data?.error) throw new Error(data.error)
  if (!data?.url) throw new Error('No checkout URL received')
  return data.url
}
