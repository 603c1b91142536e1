// Billing belongs to the caller's active workspace and only its owner may change it: every billing
// call names that workspace first, and reads its subscriptions and payments by it.
import { forbidden } from '../_shared/errors.ts'
import type { CallContext } from './deps.ts'

export const NOT_A_MEMBER = 'You are not a member of this workspace.'
export const ROLE_REFUSED = 'Your role in this workspace does not allow this.'

export interface BilledWorkspace {
  id: string
  /** The Stripe customer every checkout, portal and invoice of the workspace uses, once it has one. */
  stripeCustomerId: string | null
}

/** The caller's active workspace when they own it; 403 with the workspace errors otherwise. */
export async function ownedWorkspace(ctx: CallContext): Promise<BilledWorkspace> {
  const { data, error } = await ctx.caller.db.rpc('active_workspace_plan').maybeSingle()
  if (error) throw new Error(`Reading the active workspace failed: ${error.message}`)
  if (!data) throw forbidden(NOT_A_MEMBER)
  if (data.role !== 'owner') throw forbidden(ROLE_REFUSED)
  const customer = await ctx.caller.db
    .from('workspaces')
    .select('stripe_customer_id')
    .eq('id', data.workspace_id)
    .single()
  if (customer.error) throw new Error(`Reading the workspace failed: ${customer.error.message}`)
  return { id: data.workspace_id, stripeCustomerId: customer.data.stripe_customer_id }
}
