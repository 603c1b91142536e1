import { z } from 'zod'

/** rpc/campaign_stats: one campaign's figures for its detail view (last p_days days per day). */
export const campaignStatsSchema = z.object({
  campaignId: z.string(),
  status: z.string(),
  totalLeads: z.number(),
  leads: z.object({
    total: z.number(),
    pending: z.number(),
    contacted: z.number(),
    skipped: z.number(),
    failed: z.number(),
    uncertain: z.number(),
    replied: z.number(),
  }),
  messagesSent: z.number(),
  /** Messages whose log says not delivered now. */
  messagesFailed: z.number(),
  /** Sent but not confirmed yet: neither delivered nor failed until the runner checks. */
  messagesUncertain: z.number(),
  totalAttempts: z.number(),
  /** People the campaign will message or has messaged (its leads not skipped). */
  target: z.number(),
  responses: z.number(),
  replyRate: z.number(),
  deliveryRate: z.number(),
  progress: z.number(),
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
