// The dashboard's reads: rpc/dashboard_counts (the tab badges), the rows of rpc/dashboard_summary
// and rpc/todays_overview, and rpc/dashboard_snapshot, which holds all of them plus the campaign list.

import type { RpcResult } from '@reachflow/db'
import { z } from 'zod'
import { campaignSchema } from './campaigns'

/** rpc/dashboard_counts: the tabs' badges. */
export const tabCountsSchema = z.object({
  campaigns: z.number(),
  leads: z.number(),
  accounts: z.number(),
  scraping: z.number(),
  running: z.number(),
})
export type TabCounts = z.infer<typeof tabCountsSchema>

export type DashboardSummaryRow = RpcResult<'dashboard_summary'>[number]
export const dashboardSummaryRowSchema: z.ZodType<DashboardSummaryRow> = z.object({
  messages_sent: z.number(),
  messages_sent_change: z.number().nullable(),
  /** Null before any message has a known outcome (shown "—"). */
  delivery_rate: z.number().nullable(),
  delivery_rate_change: z.number().nullable(),
  active_accounts: z.number(),
  active_accounts_change: z.number(),
  active_campaigns: z.number(),
  active_campaigns_change: z.number(),
})

export type TodaysOverviewRow = RpcResult<'todays_overview'>[number]
export const todaysOverviewRowSchema: z.ZodType<TodaysOverviewRow> = z.object({
  day: z.string(),
  timezone: z.string(),
  sent_today: z.number(),
  replies_today: z.number(),
  replies_today_estimate: z.number(),
})

/** rpc/dashboard_snapshot: the first screen in one read (null parts: a customer without a profile). */
export const dashboardSnapshotSchema = z.object({
  user_id: z.string(),
  summary: dashboardSummaryRowSchema,
  today: todaysOverviewRowSchema.nullable(),
  counts: tabCountsSchema,
  campaigns: z.array(campaignSchema),
})
