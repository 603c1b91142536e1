-- What the admin tab's detail drawers show (View Details on a user, Monitor on a campaign, Manage on
-- a social account), and the one change Manage makes: pausing or resuming an account's sending.
-- For the admin edge function alone: security definer, executable by the service role only.

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.admin_user_detail(p_user_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id,
    'email', u.email,
    'fullName', coalesce(p.full_name, u.raw_user_meta_data ->> 'full_name'),
    'businessName', p.business_name,
    'isAdmin', coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
    'status', internal.admin_user_status(u.banned_until, u.last_sign_in_at),
    'subscriptionStatus', coalesce(p.subscription_status, 'none'),
    'subscriptionPlan', coalesce(p.subscription_plan, 'free'),
    'onboardingCompleted', coalesce(p.onboarding_completed, false),
    'createdAt', u.created_at,
    'lastSignInAt', u.last_sign_in_at,
    'subscriptions', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', s.id, 'status', s.status, 'planType', s.plan_type, 'billingPeriod', s.billing_period,
               'accountsPurchased', s.accounts_purchased, 'currentPeriodStart', s.current_period_start,
               'currentPeriodEnd', s.current_period_end, 'cancelAtPeriodEnd', s.cancel_at_period_end,
               'trialEnd', s.trial_end, 'createdAt', s.created_at) order by s.created_at desc)
        from public.subscriptions s where s.user_id = u.id), '[]'::jsonb),
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', a.id, 'username', a.username, 'platform_name', pl.name, 'status', a.status,
               'warmup_phase', a.warmup_phase, 'trust_score', a.trust_score, 'last_login', a.last_login_at)
             order by a.created_at desc)
        from public.social_accounts a join public.platforms pl on pl.id = a.platform_id where a.user_id = u.id), '[]'::jsonb),
    'campaigns', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', c.id, 'name', c.name, 'status', c.status, 'messages_sent', c.messages_sent,
               'target_count', c.target_count, 'response_count', c.response_count, 'started_at', c.started_at)
             order by c.created_at desc)
        from public.campaigns c where c.user_id = u.id), '[]'::jsonb),
    'payments', coalesce((
      select jsonb_agg(x order by x.created_at desc)
        from (select py.id, py.amount, py.currency, py.status, py.description, py.created_at
                from public.payments py where py.user_id = u.id order by py.created_at desc limit 5) x), '[]'::jsonb))
    from auth.users u
    left join public.user_profiles p on p.id = u.id
   where u.id = p_user_id and u.deleted_at is null
$$;
comment on function public.admin_user_detail(uuid) is
  'Admin View Details: a user''s profile, subscriptions, social accounts, campaigns and 5 latest payments. Null for an unknown user.';

create or replace function public.admin_campaign_detail(p_campaign_id uuid, p_messages integer default 20)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id,
    'name', c.name,
    'status', c.status,
    'userEmail', u.email,
    'accountUsername', a.username,
    'platformName', pl.name,
    'targetCount', c.target_count,
    'dailyMessageLimit', c.daily_message_limit,
    'messagesSent', c.messages_sent,
    'messagesFailed', c.messages_failed,
    'totalAttempts', c.total_attempts,
    'responseCount', c.response_count,
    'messagesSentToday', case when c.sent_today_on = (now() at time zone coalesce(c.schedule ->> 'timezone', 'UTC'))::date
                              then c.messages_sent_today else 0 end,
    'errorMessage', c.error_message,
    'schedule', c.schedule,
    'createdAt', c.created_at,
    'startedAt', c.started_at,
    'pausedAt', c.paused_at,
    'completedAt', c.completed_at,
    'updatedAt', c.updated_at,
    'nextActionAt', c.next_action_at,
    'leads', (
      select jsonb_build_object(
        'total', count(*),
        'pending', count(*) filter (where l.state = 'pending'),
        'inFlight', count(*) filter (where l.state in ('sending', 'uncertain')),
        'contacted', count(*) filter (where l.state = 'sent' or l.last_sent_at is not null),
        'replied', count(*) filter (where l.replied_at is not null),
        'failed', count(*) filter (where l.state = 'failed'),
        'skipped', count(*) filter (where l.state = 'skipped'))
        from public.campaign_leads l where l.campaign_id = c.id),
    'recentMessages', coalesce((
      select jsonb_agg(x order by x.sent_at desc)
        from (select d.id, d.status, d.target_username, d.message_sent, d.message_type, d.step, d.error, d.sent_at
                from public.dm_logs d where d.campaign_id = c.id
               order by d.sent_at desc limit least(greatest(coalesce(p_messages, 20), 1), 100)) x), '[]'::jsonb))
    from public.campaigns c
    join auth.users u on u.id = c.user_id
    join public.platforms pl on pl.id = c.platform_id
    left join public.social_accounts a on a.id = c.account_id
   where c.id = p_campaign_id
$$;
comment on function public.admin_campaign_detail(uuid, integer) is
  'Admin Monitor: a campaign''s figures, lead progress by state and its latest message log entries. Null for an unknown campaign.';

create or replace function public.admin_social_account_detail(p_account_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', a.id,
    'username', a.username,
    'platform_name', pl.name,
    'platformDisplayName', pl.display_name,
    'userEmail', u.email,
    'status', a.status,
    'flagReason', a.flag_reason,
    'pausedUntil', a.paused_until,
    'warmupPhase', a.warmup_phase,
    'warmupStartedAt', a.warmup_started_at,
    'trustScore', a.trust_score,
    'dailyMessageLimit', a.daily_message_limit,
    'messagesSentToday', case when a.sent_today_on = (now() at time zone a.timezone)::date then a.messages_sent_today else 0 end,
    'requestsPending', a.requests_pending,
    'lastLogin', a.last_login_at,
    'lastSyncedAt', a.last_synced_at,
    'lastTestedAt', a.last_tested_at,
    'createdAt', a.created_at,
    'campaigns', coalesce((
      select jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name, 'status', c.status, 'messages_sent', c.messages_sent)
             order by c.created_at desc)
        from public.campaigns c where c.account_id = a.id), '[]'::jsonb),
    'recentMessages', coalesce((
      select jsonb_agg(x order by x.sent_at desc)
        from (select d.id, d.status, d.target_username, d.error, d.sent_at
                from public.dm_logs d where d.account_id = a.id order by d.sent_at desc limit 10) x), '[]'::jsonb))
    from public.social_accounts a
    join public.platforms pl on pl.id = a.platform_id
    join auth.users u on u.id = a.user_id
   where a.id = p_account_id
$$;
comment on function public.admin_social_account_detail(uuid) is
  'Admin Manage: an account''s status, flag, pause, warm-up, trust, today''s sends, its campaigns and latest messages. Null for an unknown account.';

create or replace function public.admin_set_account_sending(p_account_id uuid, p_paused boolean, p_until timestamptz default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  current_status text;
begin
  select a.status into current_status from public.social_accounts a where a.id = p_account_id for update;
  if current_status is null then
    return 'not_found';
  end if;
  if p_paused then
    -- Only a usable (or flagged) account has sending to pause; paused_until null = until resumed
    -- (the scheduler only lifts pauses whose time has come).
    if current_status not in ('active', 'flagged', 'paused') then
      return 'not_allowed';
    end if;
    update public.social_accounts set status = 'paused', paused_until = p_until where id = p_account_id;
    return 'paused';
  end if;
  if current_status not in ('paused', 'flagged') then
    return 'not_allowed';
  end if;
  update public.social_accounts set status = 'active', paused_until = null, flag_reason = null where id = p_account_id;
  return 'resumed';
end
$$;
comment on function public.admin_set_account_sending(uuid, boolean, timestamptz) is
  'Admin Manage: pauses an active or flagged account (until p_until, or until resumed) or resumes a paused or flagged one. Returns paused, resumed, not_found or not_allowed.';

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function public.admin_user_detail(uuid), public.admin_campaign_detail(uuid, integer),
  public.admin_social_account_detail(uuid), public.admin_set_account_sending(uuid, boolean, timestamptz)
  from public, anon, authenticated;
grant execute on function public.admin_user_detail(uuid), public.admin_campaign_detail(uuid, integer),
  public.admin_social_account_detail(uuid), public.admin_set_account_sending(uuid, boolean, timestamptz)
  to service_role;
