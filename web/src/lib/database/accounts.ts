import { z } from 'zod'

/** rpc/check_account_limit: whether the customer may connect another account (product.md §6). */
export const accountLimitSchema = z.object({
  canAddAccount: z.boolean(),
  currentCount: z.number(),
  limit: z.number(),
  planType: z.string(),
  /** The product's message when no account may be added; null otherwise. */
  error: z.string().nullable(),
})
export type AccountLimit = z.infer<typeof accountLimitSchema>
