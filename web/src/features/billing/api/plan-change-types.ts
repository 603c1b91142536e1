// What /billing/change-preview answers (supabase/functions/api/plan-change.ts): Stripe's proration
// for the rest of the period, the price after, and why a downgrade cannot be taken yet.
import { z } from 'zod'

export const connectedAccountSchema = z.object({ id: z.string(), username: z.string(), platform: z.string() })
export type ConnectedAccount = z.infer<typeof connectedAccountSchema>

export const downgradeBlockSchema = z.object({
  message: z.string(),
  removeCount: z.number(),
  accounts: z.array(connectedAccountSchema),
})
export type DowngradeBlock = z.infer<typeof downgradeBlockSchema>

export const planChangePreviewSchema = z.object({
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
  lines: z.array(z.object({ description: z.string(), amount: z.number() })),
  amountDue: z.number(),
  credit: z.number(),
  periodEnd: z.string().nullable(),
  connected: z.number(),
  blocked: downgradeBlockSchema.nullable(),
})
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>
