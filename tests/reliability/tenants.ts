// The people of the isolation probes: A, who has a row in every customer table (made through the
// product API where the product makes it, as the runner or Stripe would otherwise), and the
// intruders: B, a customer with a little data of their own; a member with each role of another
// workspace, which A does not belong to (and none of them belongs to A's); and a member of A's
// workspace who was removed while their token stays valid. A's texts carry a canary so a leak is
// visible in any response, whatever its shape.
import { randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import { anonKey, api } from '../../stack/gateway/test/helpers.ts'
import { customer, db, givePlan, invoke, xCookies } from '../functions/helpers.ts'

export type Customer = Awaited<ReturnType<typeof customer>>

/** Someone who must see nothing of A's workspace, and the workspaces whose rows are theirs to see. */
export interface Intruder extends Customer {
  label: string
  workspaceIds: string[]
}

export interface Victim extends Customer {
  canary: string
  accountId: string
  scrapingId: string
  campaignId: string
  listId: string
  avatarPath: string
}

/** A PNG header and a few bytes: enough for the avatars bucket, which checks the declared type. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex')

export async function uploadAvatar(who: Customer, path: string, bytes: Buffer = PNG) {
  return fetch(`${api}/storage/v1/object/avatars/${path}`, {
    method: 'POST',
    headers: {
      apikey: anonKey,
      Authorization: `Bearer ${who.session.access_token}`,
      'Content-Type': 'image/png',
      'x-upsert': 'true',
    },
    body: new Uint8Array(bytes),
  })
}

export async function victim(): Promise<Victim> {
  const canary = `CANARY-A-${randomBytes(6).toString('hex')}`
  const a = await customer('victim')
  await givePlan(a.id, 5)
  const profile = await a.sb
    .from('user_profiles')
    .update({ full_name: `${canary} name`, business_name: canary })
    .eq('id', a.id)
  expect(profile.error).toBeNull()

  const account = await invoke(a.sb, 'api/social-accounts', 'POST', {
    platform: 'twitter',
    username: `victim_${randomBytes(3).toString('hex')}`,
    authData: { cookies: xCookies(), chatPasscode: '4711' },
    proxyUrl: null,
  })
  expect(account.status, JSON.stringify(account.body)).toBe(201)
  const accountId = account.body.id as string
  await db().query(`update public.social_accounts set status = 'active', warmup_phase = 5 where id = $1`, [
    accountId,
  ])

  const scraping = await invoke(a.sb, 'api/scraping-campaigns', 'POST', {
    name: `${canary} scraping`,
    account_id: accountId,
    sources: { type: 'keyword', value: 'saas' },
    target_count: 3,
    filters: { min_followers: 0, max_followers: null },
  })
  expect(scraping.status, JSON.stringify(scraping.body)).toBe(201)
  const scrapingId = scraping.body.id as string
  const start = await invoke(a.sb, `api/scraping-campaigns/${scrapingId}/start`, 'POST')
  expect(start.status, JSON.stringify(start.body)).toBe(200)
  // What the runner writes while scraping: leads (the list members follow by trigger).
  await db().query(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, username, profile_data)
     select $1, u, jsonb_build_object('bio', $2::text) from unnest(array['lead_ann', 'lead_ben', 'lead_cat']) u`,
    [scrapingId, canary],
  )

  const campaign = await invoke(a.sb, 'api/v2/campaigns', 'POST', {
    name: `${canary} campaign`,
    account_id: accountId,
    platform: 'twitter',
    scraping_campaign_id: scrapingId,
    sequences: { messages: [`Hi {username} ${canary}`, '', ''] },
    schedule: { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00', activeDays: ['monday'] },
    run_immediately: false,
    target_count: 50,
  })
  expect(campaign.status, JSON.stringify(campaign.body)).toBe(201)
  const campaignId = campaign.body.id as string

  const list = await invoke(a.sb, 'api/lead-lists', 'POST', { name: `${canary} list` })
  expect(list.status).toBe(201)

  // What the runner writes when it sends one message, and what Stripe's webhook stores.
  await db().query(
    `with lead as (select id, username from public.campaign_leads where campaign_id = $1 order by username limit 1),
          ledger as (insert into public.contact_ledger (user_id, platform, target_username, campaign_id, account_id)
                     select $2, 'twitter', username, $1, $3 from lead),
          variant as (insert into public.message_variants (campaign_id, step, kind, slot, template)
                      values ($1, 0, 'opening', 0, $4) returning id)
     insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, user_id, step, message_type, status,
                                 target_username, message_sent, variant_id, variant_index)
     select $1, lead.id, $3, $2, 0, 'initial', 'sent', lead.username, $4, variant.id, 0 from lead, variant`,
    [campaignId, a.id, accountId, `Hi ${canary}`],
  )
  // What the inbox sync stores when that person replies, and a "Check now" of the account.
  await db().query(
    `select internal.record_inbox_thread($1, l.username, null, 'victim-thread', true, true,
              jsonb_build_array(jsonb_build_object('id', 'victim-reply', 'text', $2::text, 'direction', 'incoming',
                                                   'at', now())))
       from public.campaign_leads l where l.campaign_id = $3 order by l.username limit 1`,
    [accountId, `Reply ${canary}`, campaignId],
  )
  const check = await a.sb.rpc('request_inbox_check', { p_account_id: accountId })
  expect(check.error).toBeNull()
  // The conversation assigned to A, with an internal note (the activity log gets the assignment).
  const thread = await db().query<{ id: string }>(
    'select id from public.inbox_threads where account_id = $1',
    [accountId],
  )
  const threadId = thread.rows[0]?.id ?? ''
  expect((await a.sb.rpc('assign_thread', { p_thread_id: threadId, p_member: a.id })).error).toBeNull()
  expect(
    (await a.sb.from('inbox_thread_notes').insert({ thread_id: threadId, body: `Note ${canary}` })).error,
  ).toBeNull()
  await db().query(
    `insert into public.do_not_contact (user_id, platform, target_username, reason) values ($1, 'twitter', 'stop_me', $2);
     `.trim(),
    [a.id, canary],
  )
  await db().query(
    `insert into public.opt_out_settings (user_id, anywhere, at_start) values ($1, $2, '{stop}')`,
    [a.id, [`word ${canary.replace(/[^a-z0-9]/gi, '')}`.slice(0, 40)]],
  )
  await db().query(
    `insert into public.notifications (user_id, type, title, message) values ($1, 'campaign_started', $2, $2)`,
    [a.id, canary],
  )
  // An X API connect in progress (its state hash, sealed verifier and app keys): service role only.
  await db().query(
    `insert into public.x_oauth_requests (user_id, state_hash, key_id, sealed, redirect_uri, expires_at)
     values ($1, encode(sha256(convert_to($2, 'utf8')), 'hex'), 'local1', 'local1:' || encode(convert_to($2, 'utf8'), 'base64'),
             'https://app.reachflow.test/connect/x/callback', now() + interval '10 minutes')`,
    [a.id, canary],
  )
  // An official Instagram account as the connect callback adds it, automations the customer made
  // on it, one answer the runner recorded and one follow-up waiting.
  const official = await db().query<{ account: { id: string } }>(
    `select public.create_instagram_official_account($1, $2, $3, 'k1', 'k1:c2VhbGVk', now() + interval '60 days') as account`,
    [
      a.id,
      `victim_ig_${randomBytes(3).toString('hex')}`,
      `1784${Date.now()}${randomBytes(2).readUInt16BE()}`,
    ],
  )
  const automation = await a.sb
    .from('instagram_automations')
    .insert({
      account_id: official.rows[0]?.account.id ?? '',
      name: `${canary} automation`,
      trigger: 'comment_keyword',
      keywords: ['guide'],
      reply_text: canary,
    })
    .select('id')
    .single()
  expect(automation.error).toBeNull()
  await db().query(`select internal.begin_instagram_automation_run($1, 'comment:1', '2001', $2)`, [
    automation.data?.id,
    canary.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
  ])
  // A DM automation with a follow-up, whose answer went out and whose follow-up waits its delay.
  const withFollowup = await a.sb
    .from('instagram_automations')
    .insert({
      account_id: official.rows[0]?.account.id ?? '',
      name: `${canary} follow-up`,
      trigger: 'dm_keyword',
      keywords: ['price'],
      reply_text: canary,
      followup_text: `Still there? ${canary}`,
      followup_delay_minutes: 60,
    })
    .select('id')
    .single()
  expect(withFollowup.error).toBeNull()
  await db().query(
    `with run as (select internal.begin_instagram_automation_run($1, 'message:victim-mid', '2002', 'victim_dm') as id)
     select internal.finish_instagram_automation_run(run.id, 'sent', null, 'victim-answer-mid', null),
            internal.schedule_instagram_followup(run.id)
       from run`,
    [withFollowup.data?.id],
  )
  // One X API read the runner counted against the account's developer app (what the card prices).
  await db().query(
    `insert into public.x_api_usage (account_id, user_id, day, kind, unit_key)
     values ($1, $2, current_date, 'own_read', $3)`,
    [accountId, a.id, canary.slice(0, 100)],
  )
  // What one AI call books against the daily budget of the customer's personal workspace (their id).
  await db().query(`select public.ai_reserve($1, $1, 120)`, [a.id])
  await db().query(
    `insert into public.payments (user_id, subscription_id, amount, currency, status, payment_type, description,
                                  stripe_invoice_id)
     select $1::uuid, id, 4900, 'usd', 'succeeded', 'subscription', $2, 'in_' || replace($1::text, '-', '')
       from public.subscriptions where user_id = $1::uuid limit 1`,
    [a.id, canary],
  )

  // A pending invitation to A's workspace (the e-mail is the function's; the row is the RPC's).
  const invited = await a.sb.rpc('invite_member', {
    p_workspace_id: a.id,
    p_email: `invitee-${randomBytes(4).toString('hex')}@example.com`,
    p_role: 'viewer',
  })
  expect(invited.error).toBeNull()

  const avatarPath = `${a.id}/avatar.png`
  const upload = await uploadAvatar(a, avatarPath)
  expect(upload.status, await upload.clone().text()).toBe(200)

  return { ...a, canary, accountId, scrapingId, campaignId, listId: list.body.id as string, avatarPath }
}

/** The attacker: signed in, with a profile, an account and a lead list of their own. */
export async function attacker(): Promise<Intruder> {
  const b = await customer('attacker')
  const list = await invoke(b.sb, 'api/lead-lists', 'POST', { name: 'attacker list' })
  expect(list.status).toBe(201)
  return { ...b, label: 'B, another customer', workspaceIds: [b.id] }
}

/** The roles a member of another workspace may hold (workspace_role). */
export const ROLES = ['owner', 'admin', 'editor', 'agent', 'viewer'] as const

/**
 * Another workspace, which A is not a member of, with one member per role; its owner made it and
 * a lead list in it, and each member works in it (their active workspace). Members are added as
 * the invitation's acceptance adds them (one membership row), without the e-mail round trip.
 */
export async function otherWorkspaceMembers(): Promise<Intruder[]> {
  const owner = await customer('ws-owner')
  const created = await owner.sb.rpc('create_workspace', { p_name: 'Another client' })
  expect(created.error).toBeNull()
  const workspaceId = String(created.data)
  const list = await invoke(owner.sb, 'api/lead-lists', 'POST', { name: 'other workspace list' })
  expect(list.status, JSON.stringify(list.body)).toBe(201)
  const members = await Promise.all(ROLES.slice(1).map((role) => customer(`ws-${role}`)))
  await Promise.all(
    members.map(async (member, i) => {
      await db().query(
        'insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)',
        [workspaceId, member.id, ROLES[i + 1]],
      )
      const switched = await member.sb.rpc('set_active_workspace', { p_workspace_id: workspaceId })
      expect(switched.error).toBeNull()
    }),
  )
  return [owner, ...members].map((who, i) => ({
    ...who,
    label: `${ROLES[i]} of another workspace`,
    workspaceIds: [who.id, workspaceId],
  }))
}

/** A member of A's workspace (an editor, working in it), whom `removeFromVictim` removes later. */
export async function victimMember(a: Victim): Promise<Intruder> {
  const member = await customer('ws-removed')
  await db().query(
    "insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'editor')",
    [a.id, member.id],
  )
  const switched = await member.sb.rpc('set_active_workspace', { p_workspace_id: a.id })
  expect(switched.error).toBeNull()
  return { ...member, label: 'removed member of A', workspaceIds: [member.id] }
}

/** Removes the member from A's workspace; their access token is not touched (it stays valid). */
export async function removeFromVictim(a: Victim, member: Intruder): Promise<void> {
  await db().query('delete from public.workspace_members where workspace_id = $1 and user_id = $2', [
    a.id,
    member.id,
  ])
}
