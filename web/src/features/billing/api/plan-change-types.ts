// What /billing/change-preview answers (supabase/functions/api/plan-change.ts): Stripe's proration
// for the rest of the period, the price after, and why a downgrade cannot be taken yet. The types are
// the domain's (the function builds the answer with `satisfies` them); the schemas check the answer
// as it arrives.
import type {
  ConnectedAccountRef,
  DowngradeBlock as DowngradeBlockAnswer,
  PlanChangePreview as PlanChangePreviewAnswer,
} from '@reachflow/domain'
import { z } from 'zod'

export const connectedAccountSchema: z.ZodType<ConnectedAccountRef> = z.object({
  id: z.string(),
  username: z.string(),
  platform: z.string(),
})
export type ConnectedAccount = ConnectedAccountRef

export const downgradeBlockSchema: z.ZodType<DowngradeBlockAnswer> = z.object({
  message: z.string(),
  removeCount: z.number(),
  accounts: z.array(connectedAccountSchema),
})
export type DowngradeBlock = DowngradeBlockAnswer

export const planChangePreviewSchema: z.ZodType<PlanChangePreviewAnswer> = z.object({
  current: z.object({ plan: z.string(), accounts: z.number(), amount: z.number() }),
  next: z.object({
    plan: z.enum(['starter', 'growth']),
    accounts: z.number(),
    unitAmount: z.number(),
    amount: z.number(),
    dmsPerDay: z.number(),
  }),
  interval: z.enum(['month', 'year']),
  trialing: z.boolean(),
  prorationDate: z.number(),
  lines: z.array(z.object({ description: z.string().nullable(), amount: z.number() })),
  amountDue: z.number(),
  credit: z.number(),
  periodEnd: z.string().nullable(),
  connected: z.number(),
  blocked: downgradeBlockSchema.nullable(),
})
export type PlanChangePreview = PlanChangePreviewAnswer
