// Test data for the runner's tests, each test on its own: a customer (with a plan for several
// accounts), social accounts whose sealed credentials are real sandbox accounts, DM campaigns
// with leads from the sandbox population. Written as postgres, as the functions would.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { encryptSecret, keyringFromEnv } from '../../src/crypto.ts'
import type { IgSandboxAccount, SandboxProfile, XSandboxAccount } from './sandbox.ts'

export function env(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the tests with \`npm test\` (it starts the stack).`)
  return value
}

let admin: pg.Pool | undefined
/** A pool as postgres (the project owner, not a superuser, as hosted): for setting up and checking what the runner did. */
export function adminDb(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: env('SUPABASE_DB_URL'), max: 4 })
  return admin
}

export async function closeAdminDb(): Promise<void> {
  await admin?.end()
  admin = undefined
}

export async function createCustomer(accounts = 10): Promise<string> {
  const db = adminDb()
  const id = randomUUID()
  await db.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
                             raw_user_meta_data, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, '', now(), '{"provider": "email"}', '{}', now(), now())`,
    [id, `runner-${id.slice(0, 8)}@test.reachflow.test`],
  )
  await db.query(
    `insert into public.subscriptions (user_id, status, plan_type, accounts_purchased, stripe_subscription_id)
     values ($1, 'active', 'growth', $2, $3)`,
    [id, accounts, `sub_runner_${id.slice(0, 12)}`],
  )
  return id
}

export interface AccountOptions {
  status?: string
  warmupPhase?: number
  dailyLimit?: number
  timezone?: string
  trust?: number
  /**
   * When its inbox was last read, in minutes ago; null: never. Default 0, as after a connect (the
   * passing test queues the first sync): a tick then only reads the inbox once that is stale.
   */
  lastReadMinutesAgo?: number | null
}

async function insertAccount(
  userId: string,
  platform: 'twitter' | 'instagram',
  username: string,
  credentials: Record<string, unknown>,
  options: AccountOptions,
): Promise<string> {
  const db = adminDb()
  const keyring = keyringFromEnv()
  const { rows } = await db.query<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, daily_message_limit, warmup_phase,
                                         trust_score, timezone, last_synced_at)
     select $1, p.id, $3, $4, $5, $6, $7, $8, internal.now() - make_interval(mins => $9::int)
       from public.platforms p where p.name = $2
     returning id`,
    [
      userId,
      platform,
      username,
      options.status ?? 'active',
      options.dailyLimit ?? 500,
      options.warmupPhase ?? 5,
      options.trust ?? 0.5,
      options.timezone ?? 'UTC',
      options.lastReadMinutesAgo === undefined ? 0 : options.lastReadMinutesAgo,
    ],
  )
  const id = rows[0]?.id
  if (!id) throw new Error('account not created')
  await db.query(
    `insert into public.social_account_credentials (account_id, key_id, ciphertext) values ($1, $2, $3)`,
    [id, keyring.currentKeyId, encryptSecret(JSON.stringify({ v: 1, platform, ...credentials }), keyring)],
  )
  return id
}

/** A customer's X account signed in with a sandbox account's exported cookies (and its passcode). */
export function createXAccount(userId: string, sandbox: XSandboxAccount, options: AccountOptions = {}) {
  return insertAccount(
    userId,
    'twitter',
    sandbox.username,
    { cookies: sandbox.cookies, chatPasscode: sandbox.passcode },
    options,
  )
}

export function createInstagramAccount(
  userId: string,
  sandbox: IgSandboxAccount,
  options: AccountOptions = {},
) {
  return insertAccount(
    userId,
    'instagram',
    sandbox.username,
    { password: sandbox.password, totpSecret: sandbox.totpSecret },
    options,
  )
}

export const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

export interface CampaignOptions {
  messages?: string[]
  noFirstnameMessage?: string
  followUpMessages?: string[]
  followUpDays?: number
  schedule?: Record<string, unknown>
  dailyLimit?: number
  status?: string
  name?: string
}

/** A running campaign whose leads are sandbox profiles (with their ids, as the scraper stores them). */
export async function createCampaign(
  userId: string,
  accountId: string,
  leads: Pick<SandboxProfile, 'id' | 'username' | 'name'>[],
  options: CampaignOptions = {},
): Promise<string> {
  const db = adminDb()
  const { rows } = await db.query<{ id: string }>(
    `insert into public.campaigns (user_id, account_id, name, sequences, schedule, daily_message_limit, status)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      userId,
      accountId,
      options.name ?? `Runner test ${randomUUID().slice(0, 8)}`,
      {
        messages: options.messages ?? [
          'Hi {name}, {quick question|short question}: are you the @{username}?',
        ],
        noFirstnameMessage: options.noFirstnameMessage ?? '',
        followUpEnabled: (options.followUpMessages ?? []).length > 0,
        followUpMessages: options.followUpMessages ?? [],
        followUpDays: options.followUpDays ?? 3,
      },
      options.schedule ?? {
        timezone: 'UTC',
        timeFrom: '00:00',
        timeTo: '23:59',
        activeDays: EVERY_DAY,
        randomDaysOff: false,
      },
      options.dailyLimit ?? 500,
      options.status ?? 'running',
    ],
  )
  const id = rows[0]?.id
  if (!id) throw new Error('campaign not created')
  if (leads.length > 0)
    await db.query(
      `insert into public.campaign_leads (campaign_id, username, profile_data)
       select $1, l.username, jsonb_build_object('platform_id', l.id, 'display_name', l.name)
         from jsonb_to_recordset($2::jsonb) as l (id text, username text, name text)`,
      [id, JSON.stringify(leads.map((l) => ({ id: l.id, username: l.username, name: l.name })))],
    )
  return id
}

export interface LeadRow {
  id: string
  username: string
  state: string
  skip_reason: string | null
  current_step: number
  next_send_at: Date | null
  replied_at: Date | null
  last_error: string | null
}

export async function leadsOf(campaignId: string): Promise<LeadRow[]> {
  const { rows } = await adminDb().query<LeadRow>(
    `select id, username, state, skip_reason, current_step, next_send_at, replied_at, last_error
       from public.campaign_leads where campaign_id = $1 order by username`,
    [campaignId],
  )
  return rows
}

export async function logsOf(campaignId: string) {
  const { rows } = await adminDb().query<{
    target_username: string
    step: number
    status: string
    message_sent: string
    error: string | null
  }>(
    `select target_username, step, status, message_sent, error from public.dm_logs
      where campaign_id = $1 order by created_at`,
    [campaignId],
  )
  return rows
}

export async function accountRow(accountId: string) {
  const { rows } = await adminDb().query<{
    status: string
    paused_until: Date | null
    flag_reason: string | null
    trust_score: string
    last_login_at: Date | null
    platform_user_id: string | null
    requests_pending: number
    last_synced_at: Date | null
  }>('select * from public.social_accounts where id = $1', [accountId])
  const row = rows[0]
  if (!row) throw new Error('no account')
  return row
}

export async function notificationsOf(userId: string) {
  const { rows } = await adminDb().query<{
    type: string
    title: string
    message: string
    metadata: Record<string, unknown>
  }>(
    'select type, title, message, metadata from public.notifications where user_id = $1 order by created_at',
    [userId],
  )
  return rows
}

/** OAuth tokens of an X developer app for one sandbox account (stack/sandbox/x/test-support.ts). */
export interface OfficialGrant {
  clientId: string
  clientSecret: string
  access_token: string
  refresh_token?: string
  expires_in: number
  scope: string
}

/** An official X account, as the connect callback creates it: X API tokens sealed, no cookies, active. */
export async function createOfficialXAccount(
  userId: string,
  sandbox: XSandboxAccount,
  grant: OfficialGrant,
  options: AccountOptions = {},
): Promise<string> {
  const id = await insertAccount(
    userId,
    'twitter',
    sandbox.username,
    {
      connection: 'official',
      clientId: grant.clientId,
      clientSecret: grant.clientSecret,
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresAt: Date.now() + grant.expires_in * 1000,
      scopes: grant.scope.split(' '),
    },
    options,
  )
  await adminDb().query(
    `update public.social_accounts set connection = 'official', platform_user_id = $2 where id = $1`,
    [id, sandbox.id],
  )
  return id
}
