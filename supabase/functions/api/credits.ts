// GET /user/credits: what the customer can still send. The original brief left the response open; this is it:
// {
//   plan:  {type, status, accountLimit, accountsUsed, canAddAccount, dmsPerDay}
//          dmsPerDay = plan capacity = accountLimit × 450 (product.md §9: DMs per day = accounts × 450)
//   today: {sent, dailyCap, remaining}        summed over the accounts
//   accounts: [{id, username, platform, status, timezone, day, sentToday,
//               caps: {account, warmup, platform, campaigns}, sendingCampaigns, dailyCap, remainingToday}]
// }
// Per account, dailyCap is the lowest of its own daily limit, its warm-up limit, the platform's 450
// (together held to a recovering account's share) and the sum of its sending campaigns' daily
// limits (a cap that does not apply is null); remaining
// is what those caps still allow today in the account's time zone (account_daily_usage()).

import { type Credits, DMS_PER_ACCOUNT_PER_DAY } from '@reachflow/domain'
import { must } from '../_shared/db-errors.ts'
import { jsonResponse } from '../_shared/errors.ts'
import { fromJson, z } from '../_shared/json.ts'
import type { AccountUsage } from './account-view.ts'
import type { CallContext } from './deps.ts'

/** check_account_limit's jsonb. */
const accountLimit = z.object({
  canAddAccount: z.boolean(),
  currentCount: z.number(),
  limit: z.number(),
  planType: z.string(),
  error: z.string().nullable(),
})

export async function getCredits(_req: Request, ctx: CallContext): Promise<Response> {
  const db = ctx.caller.db
  const [usage, limit, profile] = await Promise.all([
    db.rpc('account_daily_usage'),
    db.rpc('check_account_limit'),
    db.rpc('active_workspace_plan').maybeSingle(),
  ])
  const accounts = must(usage)
  const plan = fromJson(accountLimit, must(limit), 'check_account_limit')
  const status = profile.data?.subscription_status ?? 'none'
  const sum = (pick: (a: AccountUsage) => number) => accounts.reduce((total, a) => total + pick(a), 0)
  return jsonResponse({
    plan: {
      type: plan.planType,
      status,
      accountLimit: plan.limit,
      accountsUsed: plan.currentCount,
      canAddAccount: plan.canAddAccount,
      dmsPerDay: plan.limit * DMS_PER_ACCOUNT_PER_DAY,
    },
    today: {
      sent: sum((a) => a.sent_today),
      dailyCap: sum((a) => a.daily_cap),
      remaining: sum((a) => a.remaining_today),
    },
    accounts: accounts.map((a) => ({
      id: a.account_id,
      username: a.username,
      platform: a.platform,
      status: a.status,
      timezone: a.timezone,
      day: a.local_day,
      sentToday: a.sent_today,
      caps: {
        account: a.account_limit,
        warmup: a.warmup_limit,
        platform: a.platform_limit,
        campaigns: a.campaign_limit,
      },
      sendingCampaigns: a.sending_campaigns,
      dailyCap: a.daily_cap,
      remainingToday: a.remaining_today,
    })),
  } satisfies Credits)
}
