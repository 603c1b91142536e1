-- The read RPCs the dashboard and the api function call on every visit and poll, from
-- `language sql` to `language plpgsql` with the same query. Postgres before 18 plans a SQL function
-- that cannot be inlined (these set search_path) afresh on every call; PL/pgSQL keeps its plans for
-- the connection's life, and the gateway's connections are pooled. dashboard_snapshot went from
-- 7-10 ms to 2-4 ms a call (docs/benchmarks.md). `use_column`: a name that is both a column and an
-- output column means the column, as it did in SQL.

create or replace function public.dashboard_snapshot()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return (
    with me as (select (select auth.uid()) as id)
    select jsonb_build_object(
      'user_id', me.id,
      'summary', (select pg_catalog.to_jsonb(s) from public.dashboard_summary() s),
      'today', (select pg_catalog.to_jsonb(t) from public.todays_overview() t),
      'counts', jsonb_build_object(
        'campaigns', (select count(*) from public.campaigns c where c.user_id = me.id),
        'leads', (select count(*) from public.lead_view),
        'accounts', (select count(*) from public.social_accounts a where a.user_id = me.id),
        'scraping', (select count(*) from public.scraping_campaigns s where s.user_id = me.id),
        'running', (select count(*) from public.campaigns c
                     where c.user_id = me.id and c.status in ('queued', 'running', 'active'))
                 + (select count(*) from public.scraping_campaigns s
                     where s.user_id = me.id and s.status = 'running')),
      -- The same columns as the Campaigns tab's list read (web/src/features/campaigns/api/get-campaigns.ts).
      'campaigns', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'id', c.id, 'name', c.name, 'status', c.status, 'industry', c.industry, 'stage', c.stage,
                 'account_id', c.account_id, 'scraping_campaign_id', c.scraping_campaign_id,
                 'messages_sent', c.messages_sent, 'messages_failed', c.messages_failed,
                 'total_attempts', c.total_attempts, 'response_count', c.response_count,
                 'daily_message_limit', c.daily_message_limit, 'target_count', c.target_count,
                 'message_template', c.message_template, 'sequences', c.sequences, 'schedule', c.schedule,
                 'run_immediately', c.run_immediately, 'error_message', c.error_message,
                 'created_at', c.created_at, 'started_at', c.started_at, 'completed_at', c.completed_at,
                 'updated_at', c.updated_at,
                 'platform', (select jsonb_build_object('name', p.name, 'display_name', p.display_name)
                                from public.platforms p where p.id = c.platform_id),
                 'social_account', (select jsonb_build_object('id', a.id, 'username', a.username, 'status', a.status)
                                      from public.social_accounts a where a.id = c.account_id),
                 'scraping_campaign', (select jsonb_build_object('id', s.id, 'name', s.name)
                                         from public.scraping_campaigns s where s.id = c.scraping_campaign_id),
                 'leads', coalesce(f.leads, 0), 'contacted', coalesce(f.contacted, 0),
                 'replied', coalesce(f.replied, 0))
               order by c.created_at desc)
          from public.campaigns c
          left join public.campaign_card_figures() f on f.campaign_id = c.id
         where c.user_id = me.id), '[]'::jsonb))
      from me
  );
end
$$;

create or replace function public.dashboard_summary()
returns table (messages_sent bigint, messages_sent_change numeric, delivery_rate numeric, delivery_rate_change numeric, active_accounts bigint, active_accounts_change bigint, active_campaigns bigint, active_campaigns_change bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with me as (
      select (select auth.uid()) as id,
             (select internal.now()) as t,
             pg_catalog.timezone(coalesce((select p.timezone from public.user_profiles p where p.id = (select auth.uid())), 'UTC'),
                                 (select internal.now()))::date as today
    ), windows as (
      -- This week = today and the 6 days before; the week before = the 7 days before that.
      select coalesce(sum(s.sent) filter (where s.day > me.today - 7), 0) as sent_now,
             coalesce(sum(s.attempts) filter (where s.day > me.today - 7), 0) as attempts_now,
             coalesce(sum(s.sent) filter (where s.day <= me.today - 7), 0) as sent_before,
             coalesce(sum(s.attempts) filter (where s.day <= me.today - 7), 0) as attempts_before
        from me
        join public.campaign_daily_stats s on s.user_id = me.id and s.day > me.today - 14 and s.day <= me.today
    ), campaign_totals as (
      select coalesce(sum(c.messages_sent), 0)::bigint as sent,
             coalesce(sum(c.total_attempts), 0)::bigint as attempts,
             count(*) filter (where c.status in ('queued', 'running', 'active')) as active,
             count(*) filter (where c.status in ('queued', 'running', 'active') and c.started_at >= me.t - interval '7 days') as new_active
        from me join public.campaigns c on c.user_id = me.id
    ), account_totals as (
      select count(*) filter (where a.status = 'active') as active,
             count(*) filter (where a.status = 'active' and a.created_at >= me.t - interval '7 days') as new_active
        from me join public.social_accounts a on a.user_id = me.id
    )
    select ct.sent,
           case when w.sent_before = 0 then (case when w.sent_now = 0 then 0 end)
                else round((w.sent_now - w.sent_before) * 100.0 / w.sent_before, 1) end,
           case when ct.attempts = 0 then 0 else round(ct.sent * 100.0 / ct.attempts, 1) end,
           case when w.attempts_now = 0 or w.attempts_before = 0 then null
                else round(w.sent_now * 100.0 / w.attempts_now - w.sent_before * 100.0 / w.attempts_before, 1) end,
           at.active, at.new_active,
           ct.active, ct.new_active
      from windows w, campaign_totals ct, account_totals at;
end
$$;

create or replace function public.todays_overview()
returns table (day date, timezone text, sent_today bigint, replies_today bigint, replies_today_estimate bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with me as (
      select p.id, p.timezone, pg_catalog.timezone(p.timezone, (select internal.now()))::date as day
        from public.user_profiles p where p.id = (select auth.uid())
    ), bounds as (
      select me.*, pg_catalog.timezone(me.timezone, me.day::timestamp) as starts,
             pg_catalog.timezone(me.timezone, (me.day + 1)::timestamp) as ends
        from me
    )
    select b.day, b.timezone,
           (select count(*) from public.dm_logs l
             where l.user_id = b.id and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends),
           (select count(*) from public.campaign_leads l
             where l.user_id = b.id and l.replied_at >= b.starts and l.replied_at < b.ends),
           (select floor(count(*) * 0.15)::bigint from public.dm_logs l
             where l.user_id = b.id and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends)
      from bounds b;
end
$$;

create or replace function public.campaign_card_figures()
returns table (campaign_id uuid, leads bigint, contacted bigint, replied bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select l.campaign_id,
           count(*),
           count(*) filter (where l.last_sent_at is not null),
           count(*) filter (where l.replied_at is not null)
      from public.campaign_leads l
     where l.user_id = (select auth.uid())
     group by l.campaign_id;
end
$$;

create or replace function public.campaign_lead_counts()
returns table (campaign_id uuid, leads bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select l.campaign_id, count(*) from public.campaign_leads l
     where l.user_id = (select auth.uid())
     group by l.campaign_id;
end
$$;

create or replace function public.account_daily_usage()
returns table (account_id uuid, platform text, username text, status text, timezone text, local_day date, sent_today integer, account_limit integer, warmup_limit integer, platform_limit integer, campaign_limit integer, sending_campaigns integer, daily_cap integer, remaining_today integer)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with accounts as (
      select a.*, p.name as platform_name, p.daily_message_ceiling,
             pg_catalog.timezone(a.timezone, internal.now())::date as today
        from public.social_accounts a
        join public.platforms p on p.id = a.platform_id
       where a.user_id = (select auth.uid())
    ), campaigns as (
      select c.account_id,
             sum(c.daily_message_limit)::integer as total_limit,
             sum(greatest(0, c.daily_message_limit
               - case when c.sent_today_on = pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date
                      then c.messages_sent_today else 0 end))::integer as left_today,
             count(*)::integer as sending
        from public.campaigns c
       where c.user_id = (select auth.uid()) and c.status in ('queued', 'running', 'active')
       group by c.account_id
    ), figures as (
      select a.id, a.platform_name, a.username, a.status, a.timezone, a.today,
             case when a.sent_today_on = a.today then a.messages_sent_today else 0 end as sent,
             a.daily_message_limit, internal.warmup_daily_limit(a.warmup_phase) as warmup,
             a.daily_message_ceiling, c.total_limit, c.left_today, coalesce(c.sending, 0) as sending,
             a.created_at
        from accounts a left join campaigns c on c.account_id = a.id
    )
    -- least() ignores nulls: a warmed-up account has no warm-up cap, an account without a sending
    -- campaign no campaign cap.
    select f.id, f.platform_name, f.username, f.status, f.timezone, f.today, f.sent,
           f.daily_message_limit, f.warmup, f.daily_message_ceiling, f.total_limit, f.sending,
           least(f.daily_message_limit, f.warmup, f.daily_message_ceiling, f.total_limit),
           greatest(0, least(least(f.daily_message_limit, f.warmup, f.daily_message_ceiling) - f.sent, f.left_today))
      from figures f
     order by f.created_at desc;
end
$$;

create or replace function public.scraping_collection_per_hour(p_scraping_campaign_id uuid, p_hours integer default 48)
returns table (hour timestamp with time zone, collected bigint, valid bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with bounds as (
      select pg_catalog.date_trunc('hour', internal.now()) as last_hour,
             least(greatest(coalesce(p_hours, 48), 1), 24 * 14) as hours
    ), calendar as (
      select pg_catalog.generate_series(b.last_hour - (b.hours - 1) * interval '1 hour', b.last_hour, interval '1 hour') as hour
        from bounds b
    )
    select c.hour,
           count(l.id),
           count(l.id) filter (where not l.is_filtered)
      from calendar c
      left join public.scraping_campaign_leads l
        on l.scraping_campaign_id = p_scraping_campaign_id
       and l.user_id = (select auth.uid())
       and l.collected_at >= c.hour and l.collected_at < c.hour + interval '1 hour'
     group by c.hour
     order by c.hour;
end
$$;
