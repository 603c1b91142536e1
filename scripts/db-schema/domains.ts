// Which schema file holds which object. An object already in a file stays there (the files are read
// first); a new one goes by the rules below, else beside the table its body names first.

export interface Domain {
  file: string
  /** The opening comment of a new file (an existing file keeps its own). */
  title: string
  /** Tables, views, sequences and types by schema-qualified name. */
  relations?: RegExp
  /** Functions by schema-qualified name (checked in file order, before the relation fallback). */
  functions?: RegExp
  /** Triggers and policies on platform tables (auth.users, storage.objects) by name. */
  attachments?: RegExp
}

export const DOMAINS: Domain[] = [
  {
    file: '00_foundation.sql',
    title: `Foundation: the internal schema, the runner's role, the test clock and the helpers every other
file uses (now(), updated_at, time zones, who is calling).`,
    relations: /^internal\.clock$/,
    functions:
      /^internal\.(now|set_updated_at|is_valid_timezone|is_client_role|is_admin|assert_admin|refuse_view_write)$/,
  },
  {
    file: '05_pgboss.sql',
    title: `The job queue: pg-boss's own schema, as the pinned pg-boss creates it, and what the runner may do in it.`,
    relations: /^pgboss\./,
    functions: /^pgboss\./,
  },
  {
    // Before 07_workspaces.sql, whose function rule would claim these names; applied last (its
    // triggers sit on every domain's tables).
    file: '95_workspace_activity.sql',
    title: `The workspace's activity log: who launched, paused or resumed a campaign, answered from the inbox,
assigned a conversation, changed members, connected or removed an account, or created, enabled or
disabled an automation. Written only by triggers on those tables, so every path is covered.`,
    relations: /^public\.workspace_activity$/,
    functions: /^internal\.log_\w+_activity$|^public\.workspace_people$/,
  },
  {
    file: '07_workspaces.sql',
    title: `Workspaces: what owns a customer's rows, its members and their roles, each person's active
workspace, and the helpers every policy asks (internal.has_role_on_workspace).`,
    relations: /^public\.workspace\w*$/,
    functions: /workspace/,
  },
  {
    file: '10_accounts.sql',
    title: `Accounts: customer profiles, the platforms, connected social accounts with their sealed
credentials and proxies, the account limit and the avatars bucket's policies.`,
    relations:
      /^(public\.(user_profiles|platforms|social_accounts|social_account_credentials)|internal\.legacy_proxy_credentials)$/,
    functions:
      /^(internal\.(account_limit|enforce_account_limit|create_profile_for_new_user|check_platform_connectable|check_proxy_address|proxy_address_problem|seal_legacy_proxy_login|warmup_daily_limit)|public\.(check_account_limit|create_social_account|update_social_account|delete_social_account|request_account_test|account_daily_usage))$/,
    attachments: /avatars|auth_user/,
  },
  {
    file: '15_instagram_official.sql',
    title: `Instagram's official API (Instagram API with Instagram Login): connects in progress, official
accounts and their tokens' refresh, and the webhook events Meta delivers.`,
    relations: /^(public|internal)\.instagram_\w+$/,
    functions: /instagram/,
  },
  {
    file: '20_billing.sql',
    title: `Billing: Stripe subscriptions and payments as the webhook records them, and the processed events.`,
    relations: /^public\.(subscriptions|payments|stripe_events)$/,
    functions: /stripe|subscription|payment/,
  },
  {
    file: '30_scraping.sql',
    title: `Scraping and leads: scraping campaigns, the leads they collect and lead lists.`,
    relations: /^public\.(scraping_\w+|lead_lists|lead_list_members)$/,
    functions: /scraping|lead_list/,
  },
  {
    file: '40_campaigns.sql',
    title: `DM campaigns: campaigns, their leads and the send state machine, the daily figures, and the Leads
screen's views (scraped and campaign leads together). What was sent is in 41_messages.sql, who may
be contacted in 42_contacts.sql.`,
    relations: /^public\.(campaigns|campaign_leads|campaign_daily_stats|lead_view|lead_people)$/,
    functions:
      /^(?!.*variant)(?!.*do_not_contact).*(campaign|normalized_s|random_day_off|sends_left_today|daily_reply)/,
  },
  {
    file: '41_messages.sql',
    title: `What DM campaigns send: the DM log of every message and its state, and the message variants each
opening and follow-up text is counted under (the winner rule).`,
    relations: /^public\.(dm_logs|message_variants)$/,
    functions: /dm_log|daily_message|variant/,
  },
  {
    file: '42_contacts.sql',
    title: `Who may be contacted: the contact ledger (one first message per person and platform), the
do-not-contact list and the opt-out words that add to it.`,
    relations: /^public\.(contact_ledger|do_not_contact|opt_out_settings)$/,
    functions: /do_not_contact|opt_out/,
  },
  {
    file: '50_inbox.sql',
    title: `The Conversations inbox: threads and messages of people an account messaged, the customer's
answers and their sending, and "Check now".`,
    relations: /^public\.inbox_\w+$/,
    functions: /inbox|read_markers/,
  },
  {
    file: '60_ai.sql',
    title: `AI writing: the daily budget per customer and its use.`,
    relations: /^public\.ai_\w+$/,
    functions: /^public\.ai_/,
  },
  {
    file: '70_notifications.sql',
    title: `Notifications: what the bell shows a customer.`,
    relations: /^public\.notifications$/,
    functions: /^internal\.(notify|stamp_notification_read)$/,
  },
  {
    file: '75_dashboard.sql',
    title: `The dashboard's reads: the first screen's snapshot, the summary cards and today's overview.`,
    functions: /^public\.(dashboard_\w+|todays_overview)$/,
  },
  {
    file: '80_platform_health.sql',
    title: `Platform health: versioned platform packs, site-change incidents, fleet-wide pauses of a platform
action and the canary that checks a platform before it resumes.`,
    relations:
      /^public\.platform_(packs|pack_publications|incidents|incident_outlines|action_pauses|canary_\w+)$/,
    functions: /canary|_pack|site_change|platform_action|platform_label|platform_notices|platform_customers/,
  },
  {
    file: '85_scheduler.sql',
    title: `The scheduler: what pg_cron runs every minute to queue due work for the runner.`,
    functions: /enqueue|_job$|_jobs$|waiting_jobs|^internal\.scheduler_/,
  },
  {
    file: '90_admin.sql',
    title: `Operations and the admin tab: system logs, runner heartbeats and commands, paused queues, and the
admin_* reads and actions only the service role may run.`,
    relations: /^public\.(system_logs|runner_heartbeats|runner_commands|paused_queues)$/,
    functions: /admin|runner|host_metrics/,
  },
]

export const FALLBACK_FILE = '00_foundation.sql'

export function domainForRelation(name: string): string | undefined {
  return DOMAINS.find((d) => d.relations?.test(name))?.file
}

export function domainForFunction(name: string): string | undefined {
  return DOMAINS.find((d) => d.functions?.test(name))?.file
}

export function domainForAttachment(name: string): string | undefined {
  return DOMAINS.find((d) => d.attachments?.test(name))?.file
}
