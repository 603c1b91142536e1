import { z } from 'zod'

/** One account in rpc/inbox_overview. */
export const inboxAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  platform: z.string(),
  status: z.string(),
  connection: z.enum(['browser', 'official']),
  last_synced_at: z.string().nullable(),
  check_requested_at: z.string().nullable(),
})
export type InboxAccount = z.infer<typeof inboxAccountSchema>

/** rpc/inbox_overview: conversations with unread replies (the tab's badge) and the accounts. */
export const inboxOverviewSchema = z.object({ unread: z.number(), accounts: z.array(inboxAccountSchema) })
export type InboxOverview = z.infer<typeof inboxOverviewSchema>

/** rpc/request_inbox_check: accounts queued now, and those asked within the last minute. */
export const inboxCheckSchema = z.object({
  queued: z.number(),
  limited: z.number(),
  retry_after_seconds: z.number(),
})
