-- The admin tab's view of customers (spec §2 "Admin dashboard", §3 admin entities): the overview
-- figures and recent activity, users with their subscriptions, DM campaigns, social accounts, the
-- detail views behind View Details / Monitor / Manage, and pausing or resuming an account's sending.
-- For the admin edge function alone: security definer, executable by the service role only.

-- Helper functions -----------------------------------------------------------------------------

create or replace function internal.admin_user_status(p_banned_until timestamptz, p_last_sign_in_at timestamptz)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when p_banned_until > now() then 'suspended'
    when p_last_sign_in_at > now() - interval '30 days' then 'active'
    else 'inactive'
  end
$$;
comment on function internal.admin_user_status(timestamptz, timestamptz) is
  'A user''s status on the admin tab: suspended (banned), active (signed in within 30 days) or inactive.';

-- RPCs: overview -------------------------------------------------------------------------------

create or replace function public.admin_dashboard_stats()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'users', (
      select jsonb_build_object(
        'total', count(*),
        'active', count(*) filter (where internal.admin_user_status(u.banned_until, u.last_sign_in_at) = 'active'),
        'trial', count(*) filter (where p.subscription_status = 'trialing'),
        'paid', count(*) filter (where p.subscription_status in ('active', 'past_due')))
        from auth.users u left join public.user_profiles p on p.id = u.id
       where u.deleted_at is null),
    'campaigns', (
      select jsonb_build_object(
        'total', count(*),
        'active', count(*) filter (where c.status in ('queued', 'running', 'active')),
        'paused', count(*) filter (where c.status = 'paused'),
        'completed', count(*) filter (where c.status = 'completed'))
        from public.campaigns c),
    'accounts', (
      select jsonb_build_object(
        'total', count(*),
        'verified', count(*) filter (where a.status = 'active'),
        'warming', count(*) filter (where a.warmup_phase < 5 and a.status in ('active', 'paused', 'testing')),
        'flagged', count(*) filter (where a.status = 'flagged'))
        from public.social_accounts a),
    'system', (
      select jsonb_build_object(
        'uptime', coalesce((select max(h.uptime_seconds) from public.runner_heartbeats h
                             where internal.runner_process_status(h.status, h.last_seen_at) = 'running'), 0),
        'activeWorkers', (select count(*) from public.runner_heartbeats h
                           where internal.runner_process_status(h.status, h.last_seen_at) = 'running'),
        'errorRate', coalesce((
          select round(100.0 * count(*) filter (where j.state = 'failed') / nullif(count(*), 0), 1)
            from pgboss.job j
           where j.state in ('completed', 'failed') and j.completed_on > now() - interval '24 hours'
             and j.name not like '\_\_pgboss%'), 0))))
$$;
comment on function public.admin_dashboard_stats() is
  'Admin Overview cards: users (active = signed in within 30 days; trial and paid from the profile''s subscription), DM campaigns, social accounts (verified = active, warming = phase < 5, flagged), and the system (longest runner uptime in s, live runners, % of jobs failed in 24 h).';

create or replace function public.admin_recent_activity(p_limit integer default 5)
returns table (id text, description text, "timestamp" timestamptz, type text, status text)
language sql
stable
security definer
set search_path = ''
as $$
  with lim as (select least(greatest(coalesce(p_limit, 5), 1), 50) as n),
  events (id, description, at, type, status) as (
    (select 'user:' || u.id, 'New user signed up: ' || u.email, u.created_at, 'user', 'success'
       from auth.users u where u.deleted_at is null order by u.created_at desc limit (select n from lim))
    union all
    (select 'subscription:' || s.id || ':' || s.status, u.email || ' ' || case s.status
              when 'trialing' then 'started a ' || s.plan_type || ' trial'
              when 'active' then 'subscribed to ' || s.plan_type
              when 'past_due' then 'has a ' || s.plan_type || ' payment past due'
              when 'canceled' then 'canceled ' || s.plan_type
              else 'has an incomplete ' || s.plan_type || ' checkout' end,
            case s.status when 'canceled' then coalesce(s.canceled_at, s.updated_at) when 'past_due' then s.updated_at
                          else s.created_at end,
            'subscription',
            case s.status when 'active' then 'success' when 'trialing' then 'pending' when 'past_due' then 'warning' else 'inactive' end
       from public.subscriptions s join auth.users u on u.id = s.user_id
      order by s.updated_at desc limit (select n from lim))
    union all
    (select 'campaign:' || c.id || ':' || c.status, 'Campaign "' || c.name || '" ' || case c.status
              when 'completed' then 'completed'
              when 'paused' then 'paused'
              when 'error' then 'stopped with an error' || coalesce(': ' || c.error_message, '')
              when 'failed' then 'failed' || coalesce(': ' || c.error_message, '')
              when 'draft' then 'created'
              else 'started' end,
            coalesce(case c.status when 'completed' then c.completed_at when 'paused' then c.paused_at
                                   when 'draft' then c.created_at when 'error' then c.updated_at when 'failed' then c.updated_at
                                   else c.started_at end, c.updated_at),
            'campaign', c.status
       from public.campaigns c order by c.updated_at desc limit (select n from lim))
    union all
    -- Accounts: when one was connected, or when the system stopped it (flag, pause, sign-in failure).
    (select 'account:' || a.id || ':' || a.status, '@' || a.username || ' (' || p.display_name || ') ' || case a.status
              when 'flagged' then 'was flagged' || coalesce(': ' || a.flag_reason, '')
              when 'paused' then 'was paused'
              when 'error' then 'could not sign in'
              when 'inactive' then 'was switched off'
              else 'was connected' end,
            case when a.status in ('flagged', 'paused', 'error', 'inactive') then a.updated_at else a.created_at end, 'account',
            case a.status when 'flagged' then 'warning' when 'paused' then 'paused' when 'error' then 'error'
                          when 'inactive' then 'inactive' else 'success' end
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      order by a.updated_at desc limit (select n from lim))
    union all
    (select 'job:' || j.id, 'Job ' || j.name || ' failed' || coalesce(': ' || coalesce(j.output ->> 'message', j.output -> 'value' ->> 'message'), ''),
            j.completed_on, 'job', 'failed'
       from pgboss.job j where j.state = 'failed' and j.name not like '\_\_pgboss%'
      order by j.completed_on desc limit (select n from lim))
    union all
    (select 'command:' || c.id, initcap(c.command) || ' requested for runner ' || coalesce(c.runner_id, 'all runners'),
            c.created_at, 'system', case c.status when 'done' then 'completed' else c.status end
       from public.runner_commands c order by c.created_at desc limit (select n from lim))
    union all
    (select 'log:' || l.id, initcap(l.service) || ': ' || l.message, l.created_at, 'system', 'error'
       from public.system_logs l where l.level = 'error' order by l.created_at desc limit (select n from lim))
  )
  select e.id, e.description, e.at, e.type, e.status
    from events e where e.at is not null order by e.at desc limit (select n from lim)
$$;
comment on function public.admin_recent_activity(integer) is
  'Admin Recent Activity: the newest sign-ups, subscription changes, campaign and account changes, failed jobs, runner commands and error logs.';

-- RPCs: lists ----------------------------------------------------------------------------------

create or replace function public.admin_users(p_limit integer default 500)
returns table (id uuid, email text, subscription_status text, account_count integer, campaign_count integer, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.id, u.email::text, coalesce(p.subscription_status, 'none'),
         (select count(*)::integer from public.social_accounts a where a.user_id = u.id),
         (select count(*)::integer from public.campaigns c where c.user_id = u.id),
         internal.admin_user_status(u.banned_until, u.last_sign_in_at)
    from auth.users u
    left join public.user_profiles p on p.id = u.id
   where u.deleted_at is null
   order by u.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_users(integer) is 'Admin Users table: newest first, with subscription status and account and campaign counts.';

create or replace function public.admin_campaigns(p_limit integer default 500)
returns table (id uuid, name text, user_email text, status text, messages_sent integer, target_count integer,
               response_count integer, started_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.name, u.email::text, c.status, c.messages_sent, c.target_count, c.response_count, c.started_at
    from public.campaigns c
    join auth.users u on u.id = c.user_id
   order by c.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_campaigns(integer) is 'Admin Campaigns table: every customer''s DM campaigns, newest first.';

create or replace function public.admin_social_accounts(p_limit integer default 500)
returns table (id uuid, username text, platform_name text, user_email text, status text, warmup_phase integer,
               trust_score numeric, last_login timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select a.id, a.username, p.name, u.email::text, a.status, a.warmup_phase, a.trust_score, a.last_login_at
    from public.social_accounts a
    join public.platforms p on p.id = a.platform_id
    join auth.users u on u.id = a.user_id
   order by a.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_social_accounts(integer) is 'Admin Accounts table: every connected account with warm-up phase and trust score, newest first.';

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function internal.admin_user_status(timestamptz, timestamptz) from public;
revoke execute on function public.admin_dashboard_stats(), public.admin_recent_activity(integer), public.admin_users(integer),
  public.admin_campaigns(integer), public.admin_social_accounts(integer)
  from public, anon, authenticated;
grant execute on function public.admin_dashboard_stats(), public.admin_recent_activity(integer), public.admin_users(integer),
  public.admin_campaigns(integer), public.admin_social_accounts(integer)
  to service_role;
