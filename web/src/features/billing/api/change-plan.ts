import type { PlanChanged } from '@reachflow/domain'
import { apiErrorMessage } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

/**
 * Applies the previewed change: the server checks it again (a downgrade below the connected
 * accounts is refused), Stripe charges the proration of `prorationDate`, and the new limit holds
 * as soon as this returns.
 */
export async function changePlan(accounts: number, prorationDate: number): Promise<{ message: string }> {
  const { data, error } = await supabase.functions.invoke<Pick<PlanChanged, 'message'>>(
    'api/billing/change-plan',
    {
      method: 'POST',
      body: { accounts, prorationDate },
    },
  )
  if (error) throw new Error(await apiErrorMessage(error))
  return { message: data?.message ?? 'Your plan has changed.' }
}
