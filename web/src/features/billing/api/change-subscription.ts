import type { ApiResponse } from '@reachflow/domain'
import { apiErrorMessage } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

// Cancel at period end and resume go through the product API, which talks to the payment provider
// with its secret key; the webhook then updates our subscriptions row.
async function post(path: string): Promise<void> {
  const { data, error } = await supabase.functions.invoke<
    ApiResponse<'POST /api/subscription/cancel'> & { error?: string }
  >(path, {
    method: 'POST',
    body: {},
  })
  if (error) throw new Error(await apiErrorMessage(error))
  if (data?.error) throw new Error(data.error)
}

export const cancelSubscription = () => post('api/api/subscription/cancel')
export const resumeSubscription = () => post('api/api/subscription/resume')
