// Billing belongs to the caller's active workspace and only its owner may change it: every billing
// call names that workspace first, and reads its subscriptions and payments by it.
import { requireWorkspaceRole } from '../_shared/workspace-role.ts'
import type { CallContext } from './deps.ts'

export interface BilledWorkspace {
  id: string
  /** The Stripe customer every checkout, portal and invoice of the workspace uses, once it has one. */
  stripeCustomerId: string | null
}

/** The caller's active workspace when they own it; 403 with the workspace errors otherwise. */
export async function ownedWorkspace(ctx: CallContext): Promise<BilledWorkspace> {
  const { workspaceId } = await requireWorkspaceRole(ctx.caller.db, ['owner'])
  const customer = await ctx.caller.db
    .from('workspaces')
    .select('stripe_customer_id')
    .eq('id', workspaceId)
    .single()
  if (customer.error) throw new Error(`Reading the workspace failed: ${customer.error.message}`)
  return { id: workspaceId, stripeCustomerId: customer.data.stripe_customer_id }
}
