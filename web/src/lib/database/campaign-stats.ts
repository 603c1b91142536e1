import { z } from 'zod'

/**
 * rpc/campaign_stats: what the detail view reads beside the campaign's figures (those come from
 * rpc/campaign_figures, as on the card): leads by state, today's sends, days off, the last p_days days.
 */
export const campaignStatsSchema = z.object({
  campaignId: z.string(),
  status: z.string(),
  leads: z.object({
    total: z.number(),
    pending: z.number(),
    contacted: z.number(),
    skipped: z.number(),
    failed: z.number(),
    uncertain: z.number(),
    replied: z.number(),
  }),
  /**
   * The campaign's figures under their screen names, as campaign_figures defines them (the product
   * API answers them with the detail; the screens take the same numbers from rpc/campaign_figures).
   */
  totalLeads: z.number(),
  notDeliverable: z.number(),
  eligible: z.number(),
  messagesSent: z.number(),
  messagesFailed: z.number(),
  messagesUncertain: z.number(),
  totalAttempts: z.number(),
  responses: z.number(),
  /** Null while there is nothing to divide by (the screens read "—"). */
  replyRate: z.number().nullable(),
  deliveryRate: z.number().nullable(),
  progress: z.number().nullable(),
  sentToday: z.number(),
  daysOff: z.array(z.string()),
  perDay: z.array(
    z.object({
      date: z.string(),
      sent: z.number(),
      failed: z.number(),
      uncertain: z.number(),
      replies: z.number(),
    }),
  ),
})
export type CampaignStats = z.infer<typeof campaignStatsSchema>
