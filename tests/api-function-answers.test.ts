// The api function's read answers, called as the seeded demo customer through the gateway, against
// the answer type @reachflow/domain's ApiEndpoints names for each route (the type web's callApi
// reads them as). As in function-answers.test.ts for the admin function: each schema is typed as
// that answer, so a schema that drifts from the type fails tsc; an answer that leaves a key out or
// types it otherwise fails the parse; an answer with a key the type does not know fails the
// comparison with what was parsed (z.object drops unknown keys).
import {
  type ApiEndpoints,
  type ApiResponse,
  type ApiRoute,
  type CallArgs,
  requestLine,
} from '@reachflow/domain'
import type { SupabaseClient } from '@supabase/supabase-js'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fakeIp } from '../stack/gateway/test/helpers.ts'
import { client, invoke } from './functions/helpers.ts'

/**
 * The GET routes read here: all but the two that need a Stripe object of the caller's (a checkout
 * session, an invoice), which supabase/functions/api/checkout.test.ts and tests/functions/api-routes.test.ts set up.
 */
type ReadRoute = Exclude<
  Extract<ApiRoute, `GET ${string}`>,
  'GET /api/checkout-session/:id' | 'GET /invoices/:id'
>
type Schema<K extends ReadRoute> = z.ZodType<ApiResponse<K>>

const text = z.string()
const maybeText = z.string().nullable()
/** A jsonb column the table's check keeps from null. */
const jsonb = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.json()),
  z.record(z.string(), z.json()),
])

const platform = z.object({
  id: text,
  name: text,
  display_name: text,
  is_active: z.boolean(),
  coming_soon: z.boolean(),
})
const platformName = z.object({ name: text, display_name: text }).nullable()
const accountRef = z.object({ id: text, username: text, status: text }).nullable()
const leadListRef = z.object({ id: text, name: text, lead_count: z.number() }).nullable()

const account = z.object({
  id: text,
  user_id: text,
  username: text,
  platform_id: maybeText,
  platform_name: maybeText,
  platform_display_name: maybeText,
  platform: platform.nullable(),
  status: text,
  connection: text,
  daily_message_limit: z.number(),
  has_chat_passcode: z.boolean(),
  proxy: maybeText,
  timezone: text,
  flag_reason: maybeText,
  paused_until: maybeText,
  last_tested_at: maybeText,
  last_login_at: maybeText,
  created_at: text,
  updated_at: text,
  warmup: z.object({
    phase: z.number(),
    trustScore: z.number(),
    dailyLimits: z.object({ messages: z.number() }),
    remainingLimits: z.object({ messages: z.number(), canSendMore: z.boolean() }),
    sentToday: z.number(),
  }),
  messagesPerDay: z.number(),
  connectionRequests: z.number(),
  connected: z.boolean(),
  lastSync: maybeText,
})

const campaign = z.object({
  account_id: maybeText,
  ai_personalization: z.boolean(),
  completed_at: maybeText,
  created_at: text,
  daily_message_limit: z.number(),
  error_message: maybeText,
  id: text,
  industry: maybeText,
  lead_list_id: maybeText,
  message_template: maybeText,
  messages_failed: z.number(),
  messages_sent: z.number(),
  messages_sent_today: z.number(),
  name: text,
  next_action_at: maybeText,
  paused_at: maybeText,
  platform_id: text,
  response_count: z.number(),
  run_immediately: z.boolean(),
  schedule: jsonb,
  scraping_campaign_id: maybeText,
  sent_today_on: maybeText,
  sequences: jsonb,
  stage: maybeText,
  started_at: maybeText,
  status: text,
  target_count: z.number(),
  total_attempts: z.number(),
  updated_at: text,
  user_id: text,
  workspace_id: text,
  winner_after_sends: z.number().nullable(),
  winner_chosen_at: maybeText,
  winner_variant_id: maybeText,
  platform: platformName,
  social_account: accountRef,
  scraping_campaign: z.object({ id: text, name: text, status: text, leads_collected: z.number() }).nullable(),
  lead_list: leadListRef,
  leads: z.number(),
  sent: z.number(),
  updated: text,
})

const scrapingCampaign = z.object({
  account_id: maybeText,
  ai_ideal_customer: maybeText,
  ai_kept: z.number(),
  ai_min_score: z.number(),
  ai_skipped: z.number(),
  ai_unscored: z.number(),
  collected_count: z.number(),
  completed_at: maybeText,
  created_at: text,
  error_message: maybeText,
  filters: jsonb,
  id: text,
  last_run_at: maybeText,
  lead_list_id: maybeText,
  leads_collected: z.number(),
  name: text,
  next_run_at: maybeText,
  platform_id: text,
  progress: jsonb,
  sources: jsonb,
  started_at: maybeText,
  status: text,
  target_count: z.number(),
  updated_at: text,
  user_id: text,
  workspace_id: text,
  account: accountRef,
  platform: platformName,
  lead_list: leadListRef,
  platform_name: maybeText,
  criteria: text,
  scraped: z.number(),
  verified: z.number(),
  lastRun: maybeText,
  nextRun: maybeText,
})

const READS: { [K in ReadRoute]: Schema<K> } = {
  'GET /social-accounts': z.array(account),
  'GET /social-accounts/platforms': z.array(platform),
  'GET /social-accounts/x-official/setup': z.object({ redirectUri: text, scopes: z.array(text) }),
  'GET /scraping-campaigns': z.array(scrapingCampaign),
  'GET /v2/campaigns': z.array(campaign),
  'GET /lead-lists': z.array(
    z.object({
      id: text,
      name: text,
      lead_count: z.number(),
      scraping_campaign_id: maybeText,
      created_at: text,
      updated_at: text,
    }),
  ),
  'GET /user/credits': z.object({
    plan: z.object({
      type: text,
      status: text,
      accountLimit: z.number(),
      accountsUsed: z.number(),
      canAddAccount: z.boolean(),
      dmsPerDay: z.number(),
    }),
    today: z.object({ sent: z.number(), dailyCap: z.number(), remaining: z.number() }),
    accounts: z.array(
      z.object({
        id: text,
        username: text,
        platform: text,
        status: text,
        timezone: text,
        day: text,
        sentToday: z.number(),
        caps: z.object({
          account: z.number().nullable(),
          warmup: z.number().nullable(),
          platform: z.number().nullable(),
          campaigns: z.number().nullable(),
        }),
        sendingCampaigns: z.number(),
        dailyCap: z.number(),
        remainingToday: z.number(),
      }),
    ),
  }),
  'GET /ai/status': z.discriminatedUnion('available', [
    z.object({ available: z.literal(false), reason: text }),
    z.object({
      available: z.literal(true),
      model: text,
      sandbox: z.boolean(),
      budget: z.object({
        requests: z.number(),
        requestLimit: z.number(),
        tokens: z.number(),
        tokenLimit: z.number(),
        exhausted: z.boolean(),
        resetsAt: text,
      }),
      reason: maybeText,
    }),
  ]),
}

let demo: SupabaseClient
beforeAll(async () => {
  // Signed in once for the file: Auth limits sign-ins per address.
  demo = client({ headers: { 'X-Forwarded-For': fakeIp() } })
  const { error } = await demo.auth.signInWithPassword({
    email: 'demo@reachflow.test',
    password: 'demo-password',
  })
  if (error) throw error
})

/** Reads a route as the demo customer, with the request line web's callApi builds. */
async function call<K extends ReadRoute>(route: K, ...[options]: CallArgs<ApiEndpoints, K>) {
  const { path } = requestLine(route, options?.params)
  const result = await invoke<unknown>(demo, `api/${path}`, 'GET')
  expect(result.status, `${route}: ${JSON.stringify(result.body)}`).toBe(200)
  return result.body
}

describe('api function answers, as the demo customer reads them', () => {
  it.each(Object.keys(READS) as ReadRoute[])('%s answers its ApiResponse type', async (route) => {
    const answer = await call(route)
    // The demo customer has something on every list, so every element schema is exercised.
    if (Array.isArray(answer)) expect(answer.length, `${route}: the seed lists nothing`).toBeGreaterThan(0)
    const parsed = READS[route].safeParse(answer)
    expect(parsed.error?.issues ?? [], `${route}: keys the function leaves out or types otherwise`).toEqual(
      [],
    )
    expect(parsed.data, `${route}: keys the function answers that ApiResponse does not know`).toEqual(answer)
  })
})

const invitationSent: z.ZodType<ApiResponse<'POST /workspaces/:id/invitations'>> = z.object({
  invitation: z.object({ id: text, email: text, expires_at: text }),
  link: text,
  message: text,
})

describe('api function answers to the invitation writes', () => {
  it('POST /workspaces/:id/invitations and …/resend answer InvitationSent', async () => {
    const workspace = await demo.rpc('my_workspaces')
    const active = (workspace.data as { id: string; is_active: boolean }[] | null)?.find((w) => w.is_active)
    expect(active, JSON.stringify(workspace.error)).toBeDefined()
    const email = `answers-${crypto.randomUUID().slice(0, 8)}@functions.test`
    const sent = requestLine('POST /workspaces/:id/invitations', { id: active?.id ?? '' })
    const invited = await invoke<unknown>(demo, `api/${sent.path}`, 'POST', { email, role: 'viewer' })
    expect(invited.status, JSON.stringify(invited.body)).toBe(201)
    const parsed = invitationSent.safeParse(invited.body)
    expect(parsed.error?.issues ?? []).toEqual([])
    expect(parsed.data).toEqual(invited.body)

    const again = requestLine('POST /workspaces/:id/invitations/:invitationId/resend', {
      id: active?.id ?? '',
      invitationId: parsed.data?.invitation.id ?? '',
    })
    const resent = await invoke<unknown>(demo, `api/${again.path}`, 'POST')
    expect(resent.status, JSON.stringify(resent.body)).toBe(200)
    expect(invitationSent.safeParse(resent.body).data).toEqual(resent.body)
  })
})
