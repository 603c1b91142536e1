import { z } from 'zod'

/** rpc/scraping_campaign_stats: a scraping campaign's figures for its detail view. */
export const scrapingStatsSchema = z.object({
  scrapingCampaignId: z.string(),
  status: z.string(),
  targetCount: z.number(),
  collected: z.number(),
  valid: z.number(),
  filtered: z.number(),
  successRate: z.number(),
  collectionRate: z.number(),
  qualityScore: z.number(),
  averagePerHour: z.number(),
  firstCollectedAt: z.string().nullable(),
  lastCollectedAt: z.string().nullable(),
  sources: z.array(
    z.object({ type: z.string(), value: z.string(), count: z.number(), percentage: z.number() }),
  ),
  perDay: z.array(z.object({ date: z.string(), collected: z.number(), valid: z.number() })),
  recent: z.array(
    z.object({
      id: z.string(),
      username: z.string(),
      sourceType: z.string(),
      sourceValue: z.string(),
      isFiltered: z.boolean(),
      filterReason: z.string().nullable(),
      collectedAt: z.string(),
    }),
  ),
})
export type ScrapingStats = z.infer<typeof scrapingStatsSchema>
