import { z } from 'zod'

/** rpc/check_account_limit: whether the customer may connect another account (spec §6). */
export const accountLimitSchema = z.object({
  canAddAccount: z.boolean(),
  currentCount: z.number(),
  limit: z.number(),
  planType: z.string(),
  /** The spec's message when no account may be added; null otherwise. */
  error: z.string().nullable(),
})
export type AccountLimit = z.infer<typeof accountLimitSchema>
