import { apiErrorMessage } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { type PlanChangePreview, planChangePreviewSchema } from './plan-change-types'

/** Stripe's price preview of a plan for `accounts` accounts, from the rest of this period on. */
export async function previewPlanChange(accounts: number): Promise<PlanChangePreview> {
  const { data, error } = await supabase.functions.invoke<unknown>('api/billing/change-preview', {
    method: 'POST',
    body: { accounts },
  })
  if (error) throw new Error(await apiErrorMessage(error))
  const parsed = planChangePreviewSchema.safeParse(data)
  if (!parsed.success) throw new Error('The price preview could not be read. Please try again.')
  return parsed.data
}
