// Every RPC the app reads whose result is json/jsonb, with the schema it is read with. The generated
// types call those results `Json`; tests/rpc-json-shapes.test.ts calls each one on real data and
// fails when the SQL's answer and the schema (and so the app's type) disagree, in either direction.
import type { z } from 'zod'
import { accountLimitSchema } from './accounts'
import { campaignStatsSchema } from './campaign-stats'
import { dashboardSnapshotSchema, tabCountsSchema } from './dashboard'
import { dncOverviewSchema, storedOptOutWordsSchema } from './do-not-contact'
import { inboxCheckSchema, inboxOverviewSchema } from './inbox'
import { scrapingStatsSchema } from './scraping-stats'

export const JSON_RPCS = {
  check_account_limit: accountLimitSchema,
  campaign_stats: campaignStatsSchema,
  dashboard_counts: tabCountsSchema,
  dashboard_snapshot: dashboardSnapshotSchema,
  do_not_contact_overview: dncOverviewSchema,
  inbox_overview: inboxOverviewSchema,
  request_inbox_check: inboxCheckSchema,
  scraping_campaign_stats: scrapingStatsSchema,
  set_opt_out_words: storedOptOutWordsSchema,
} satisfies Record<string, z.ZodType>
