import { z } from 'zod'

/** The opt-out words as rpc/set_opt_out_words stores them (custom: the customer's own, not the defaults). */
export const storedOptOutWordsSchema = z.object({
  anywhere: z.array(z.string()),
  atStart: z.array(z.string()),
  custom: z.boolean(),
})

/** rpc/do_not_contact_overview: how many people, how many leads they skipped, the opt-out words. */
export const dncOverviewSchema = z.object({
  entries: z.number(),
  skippedLeads: z.number(),
  words: storedOptOutWordsSchema,
})
export type DncOverview = z.infer<typeof dncOverviewSchema>
