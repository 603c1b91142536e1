// Every route of the product `api` function (supabase/functions/api/app.ts) that web calls or reads,
// with the body it takes and the answer it gives. Web calls `callApi(key, …)` and gets the answer as
// this type; the function builds it with `satisfies` the same type, and tests/function-answers.test.ts
// checks the real read answers against it at runtime. Views that spread a whole row name the row by
// its generated type (type-only: docs/decisions.md, "The domain package may name database rows").
import type { Tables } from '../database.ts'
import type { CreateDmCampaignBody } from './dm-campaign.ts'
import type { InvitationSent, InviteRequest } from './workspaces.ts'

/** A platform as the connect screens list it. */
export type PlatformView = Pick<
  Tables<'platforms'>,
  'id' | 'name' | 'display_name' | 'is_active' | 'coming_soon'
>

/** A social account as the dashboard shows it; nothing secret (the proxy is cut to host:port). */
export interface AccountView {
  id: string
  user_id: string
  username: string
  platform_id: string | null
  platform_name: string | null
  platform_display_name: string | null
  platform: PlatformView | null
  status: string
  /** browser: the runner signs in to the site; official: the platform's API (OAuth). */
  connection: string
  daily_message_limit: number
  has_chat_passcode: boolean
  proxy: string | null
  timezone: string
  flag_reason: string | null
  paused_until: string | null
  last_tested_at: string | null
  last_login_at: string | null
  created_at: string
  updated_at: string
  warmup: {
    phase: number
    trustScore: number
    dailyLimits: { messages: number }
    remainingLimits: { messages: number; canSendMore: boolean }
    sentToday: number
  }
  messagesPerDay: number
  connectionRequests: number
  connected: boolean
  lastSync: string | null
}

/** A saved account, and whether the runner's test of it is queued. */
export type AccountSaved = AccountView & { testQueued: boolean }
/** An account whose test was asked for, with the line the dashboard shows. */
export type AccountTested = AccountView & { message: string }

export interface Deleted {
  id: string
  deleted: true
  message: string
}
/** A deleted account; `revoked` says whether X revoked an official account's tokens. */
export type AccountDeleted = Deleted & { revoked?: boolean }

export interface CookiesChecked {
  /** Always null: a plain request can only say X did not reject the cookies. */
  valid: null
  rejected: false
  message: string
}

export interface XOfficialSetup {
  redirectUri: string
  scopes: string[]
}
export interface XOfficialStarted {
  authorizeUrl: string
  redirectUri: string
}
export type XOfficialConnected = AccountView & { reconnected: boolean }

/** A DM campaign: its row, what it joins, and the dashboard card's figures. */
export type CampaignView = Tables<'campaigns'> & {
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
  social_account: Pick<Tables<'social_accounts'>, 'id' | 'username' | 'status'> | null
  scraping_campaign: Pick<Tables<'scraping_campaigns'>, 'id' | 'name' | 'status' | 'leads_collected'> | null
  lead_list: Pick<Tables<'lead_lists'>, 'id' | 'name' | 'lead_count'> | null
  leads: number
  sent: number
  updated: string
}
export type CampaignChanged = CampaignView & { message?: string }

/** A scraping campaign: its row, what it joins, and the list view's figures. */
export type ScrapingCampaignView = Tables<'scraping_campaigns'> & {
  account: Pick<Tables<'social_accounts'>, 'id' | 'username' | 'status'> | null
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
  lead_list: Pick<Tables<'lead_lists'>, 'id' | 'name' | 'lead_count'> | null
  platform_name: string | null
  criteria: string
  scraped: number
  verified: number
  lastRun: string | null
  nextRun: string | null
}
/** start and pause answer the campaign; delete (through the same operation) says deleted. */
export type ScrapingOperated = (ScrapingCampaignView & { message: string }) | Deleted

/** POST /lead-scraping/campaigns: what the scraping wizard sends. */
export interface ScrapingCampaignRequest {
  name: string
  account_id: string
  sources: { type: string; value: string }
  target_count: number
  filters: {
    min_followers: number
    max_followers: number | null
    verified_only: boolean
    has_bio: boolean
    exclude_business: boolean
  }
  ai_ideal_customer?: string
  ai_min_score?: number
}

/** PATCH /social-accounts/:id: any of new credentials, proxy (null removes it) and daily limit. */
export interface AccountChanges {
  authData?: { cookies?: unknown; chatPasscode?: string | null; password?: string; secretKey?: string | null }
  proxyUrl?: string | null
  dailyMessageLimit?: number
}

/** Today's AI use of the customer against the day's limits (UTC). */
export interface AiBudget {
  requests: number
  requestLimit: number
  tokens: number
  tokenLimit: number
  exhausted: boolean
  resetsAt: string
}

/** GET /ai/status: whether AI writing is on, and today's budget when it is. */
export type AiStatus = { available: false; reason: string } | AiAvailable
export interface AiAvailable {
  available: true
  model: string
  /** The local stack's deterministic sandbox answers, not a real model. */
  sandbox: boolean
  budget: AiBudget
  /** Set when today's budget is used up. */
  reason: string | null
}

export interface DraftRequest {
  goal: string
  offer: string
  platform: 'twitter' | 'instagram'
  variants: number
  followUps: number
}
export interface Drafts {
  messages: string[]
  followUps: string[]
  tokens: number
}

/** A named list of scraped leads. */
export type LeadListView = Pick<
  Tables<'lead_lists'>,
  'id' | 'name' | 'lead_count' | 'scraping_campaign_id' | 'created_at' | 'updated_at'
>

/** GET /user/credits: what the customer can still send (supabase/functions/api/credits.ts says how). */
export interface Credits {
  plan: {
    type: string
    status: string
    accountLimit: number
    accountsUsed: number
    canAddAccount: boolean
    dmsPerDay: number
  }
  today: { sent: number; dailyCap: number; remaining: number }
  accounts: {
    id: string
    username: string
    platform: string
    status: string
    timezone: string
    day: string
    sentToday: number
    /** A cap that does not apply is null. */
    caps: { account: number | null; warmup: number | null; platform: number | null; campaigns: number | null }
    sendingCampaigns: number
    dailyCap: number
    remainingToday: number
  }[]
}

/** POST /social-accounts: a browser account with its sign-in details (sealed, never answered back). */
export interface AccountCreateRequest {
  platform: string
  username: string
  authData: { cookies?: unknown; chatPasscode?: string | null; password?: string; secretKey?: string | null }
  proxyUrl: string | null
}

export interface CheckoutCreated {
  url: string
  sessionId: string
}

/** GET /api/checkout-session/:id: the caller's own Stripe Checkout session and what it did. */
export interface CheckoutSessionView {
  /** A trial charges nothing today; paid once the subscription is active; else not settled yet. */
  outcome: 'trial' | 'paid' | 'pending'
  amount_due_today: number
  trial_end: string | null
  first_charge_amount: number | null
  first_charge_at: string | null
  subscription_status: string | null
  id: string
  status: string | null
  payment_status: string
  amount_total: number | null
  currency: string | null
  customer: { email: string | null }
  customer_details: { email: string | null }
  subscription: string | null
  metadata: {
    planType: string | null
    billing_cycle: string | null
    accounts: string | null
    traffic_source: string | null
  }
}

/** Cancel at period end or resume: the synced subscription row and the line the page shows. */
export interface SubscriptionChanged {
  subscription: Tables<'subscriptions'>
  message: string
}

export interface InvoiceLink {
  url: string
  pdf: string | null
}

/** The wizard's preview request: the template, and the source whose first valid lead it is for. */
export interface MessagePreviewRequest {
  template: string
  scraping_campaign_id: string
  platform: 'twitter' | 'instagram'
}

/** What a real lead of the source would be sent, personalised as the runner personalises it. */
export interface PersonalizedPreview {
  username: string
  text: string
  personalization: 'personalized' | 'fallback'
  /** Why the AI's text was not used (the template is sent instead). */
  note: string | null
}

/** An account the customer has connected, as a downgrade names those to remove first. */
export interface ConnectedAccountRef {
  id: string
  username: string
  platform: string
}

/** Why a downgrade cannot be taken yet: more accounts are connected than it would allow. */
export interface DowngradeBlock {
  message: string
  removeCount: number
  accounts: ConnectedAccountRef[]
}

/** /billing/change-preview: Stripe's proration for the rest of the period and the price after. */
export interface PlanChangePreview {
  current: { plan: string; accounts: number; amount: number }
  next: {
    plan: string
    accounts: number
    unitAmount: number
    amount: number
    dmsPerDay: number
  }
  interval: 'month' | 'year'
  trialing: boolean
  prorationDate: number
  /** Stripe's proration lines (a line's description can be null at Stripe). */
  lines: { description: string | null; amount: number }[]
  amountDue: number
  credit: number
  periodEnd: string | null
  connected: number
  blocked: DowngradeBlock | null
}

/** /billing/change-plan: the subscription row as synced from Stripe, and what was charged. */
export interface PlanChanged {
  subscription: Record<string, unknown> | null
  amountPaid: number
  message: string
}

type Get<Response> = { request: undefined; response: Response }
type Post<Body, Response> = { request: Body; response: Response }

export interface ApiEndpoints {
  'GET /social-accounts': Get<AccountView[]>
  'GET /social-accounts/platforms': Get<PlatformView[]>
  'POST /social-accounts': Post<AccountCreateRequest, AccountSaved>
  'POST /social-accounts/validate-cookies': Post<{ platform: string; cookies: unknown }, CookiesChecked>
  'GET /social-accounts/x-official/setup': Get<XOfficialSetup>
  'POST /social-accounts/x-official/start': Post<
    { clientId: string; clientSecret: string; browserKey: string },
    XOfficialStarted
  >
  'POST /social-accounts/x-official/callback': Post<
    { state: string; code?: string; error?: string; browserKey: string },
    XOfficialConnected
  >
  'PATCH /social-accounts/:id': Post<AccountChanges, AccountSaved>
  'POST /social-accounts/:id/test': Post<undefined, AccountTested>
  'DELETE /social-accounts/:id': Post<undefined, AccountDeleted>

  'GET /scraping-campaigns': Get<ScrapingCampaignView[]>
  'POST /lead-scraping/campaigns': Post<ScrapingCampaignRequest, ScrapingCampaignView>
  'POST /scraping-campaigns/:id/start': Post<undefined, ScrapingOperated>
  'POST /scraping-campaigns/:id/pause': Post<undefined, ScrapingOperated>
  'DELETE /scraping-campaigns/:id': Post<undefined, ScrapingOperated>

  'GET /v2/campaigns': Get<CampaignView[]>
  'POST /v2/campaigns': Post<CreateDmCampaignBody, CampaignView>
  'PUT /v2/campaigns/:id': Post<{ winner_after_sends: number | null }, CampaignView>
  'DELETE /v2/campaigns/:id': Post<undefined, Deleted>
  'POST /v2/campaigns/:id/launch': Post<undefined, CampaignChanged>
  'POST /v2/campaigns/:id/pause': Post<undefined, CampaignChanged>

  'GET /lead-lists': Get<LeadListView[]>
  'GET /user/credits': Get<Credits>

  'GET /ai/status': Get<AiStatus>
  'POST /ai/draft-messages': Post<DraftRequest, Drafts>
  'POST /ai/preview-message': Post<MessagePreviewRequest, PersonalizedPreview>

  'POST /api/create-checkout-session': Post<Record<string, unknown>, CheckoutCreated>
  'GET /api/checkout-session/:id': Get<CheckoutSessionView>
  'POST /api/subscription/cancel': Post<undefined, SubscriptionChanged>
  'POST /api/subscription/resume': Post<undefined, SubscriptionChanged>
  'GET /invoices/:id': Get<InvoiceLink>
  'POST /billing/change-preview': Post<{ accounts: number }, PlanChangePreview>
  'POST /billing/change-plan': Post<{ accounts: number; prorationDate: number }, PlanChanged>

  'POST /workspaces/:id/invitations': Post<InviteRequest, InvitationSent>
  'POST /workspaces/:id/invitations/:invitationId/resend': Post<undefined, InvitationSent>
}

export type ApiRoute = keyof ApiEndpoints
export type ApiResponse<K extends ApiRoute> = ApiEndpoints[K]['response']
