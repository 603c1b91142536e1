-- The dashboard's reads: the first screen's snapshot, the summary cards and today's overview.

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.dashboard_counts()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  workspace uuid := (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'));
begin
  return jsonb_build_object(
    'campaigns', (select count(*) from public.campaigns c where c.workspace_id = workspace),
    'leads', (select count(*) from public.lead_people),
    'accounts', (select count(*) from public.social_accounts a where a.workspace_id = workspace),
    'scraping', (select count(*) from public.scraping_campaigns s where s.workspace_id = workspace),
    'running', (select count(*) from public.campaigns c
                 where c.workspace_id = workspace and c.status in ('queued', 'running', 'active'))
             + (select count(*) from public.scraping_campaigns s
                 where s.workspace_id = workspace and s.status = 'running'));
end
$$;
comment on function public.dashboard_counts() is
  'The dashboard tab badges in one call: campaigns, leads (people), accounts, scraping campaigns, and running (DM + scraping) — the caller''s own rows.';
revoke execute on function public.dashboard_counts() from public, anon;

create or replace function public.dashboard_snapshot()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return (
    with me as (select (select auth.uid()) as id, (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) as workspace_id)
    select jsonb_build_object(
      'user_id', me.id,
      'summary', (select pg_catalog.to_jsonb(s) from public.dashboard_summary() s),
      'today', (select pg_catalog.to_jsonb(t) from public.todays_overview() t),
      'counts', public.dashboard_counts(),
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
                 'ai_personalization', c.ai_personalization, 'winner_after_sends', c.winner_after_sends,
                 'winner_chosen_at', c.winner_chosen_at,
                 'created_at', c.created_at, 'started_at', c.started_at, 'completed_at', c.completed_at,
                 'updated_at', c.updated_at,
                 'platform', (select jsonb_build_object('name', p.name, 'display_name', p.display_name)
                                from public.platforms p where p.id = c.platform_id),
                 'social_account', (select jsonb_build_object('id', a.id, 'username', a.username, 'status', a.status)
                                      from public.social_accounts a where a.id = c.account_id),
                 'scraping_campaign', (select jsonb_build_object('id', s.id, 'name', s.name)
                                         from public.scraping_campaigns s where s.id = c.scraping_campaign_id),
                 'figures', (select pg_catalog.to_jsonb(f) - 'campaign_id'))
               order by c.created_at desc)
          from public.campaigns c
          join public.campaign_figures() f on f.campaign_id = c.id
         where c.workspace_id = me.workspace_id), '[]'::jsonb))
      from me
  );
end
$$;
comment on function public.dashboard_snapshot() is
  'The dashboard''s first screen for the caller in one read: {user_id, summary (= dashboard_summary), today (= todays_overview), counts {campaigns, leads, accounts, scraping, running}, campaigns (the Campaigns tab''s list, newest first, each with its campaign_figures)}.';
revoke execute on function public.dashboard_snapshot() from public, anon;

create or replace function public.dashboard_summary()
returns table(messages_sent bigint, messages_sent_change numeric, delivery_rate numeric, delivery_rate_change numeric, active_accounts bigint, active_accounts_change bigint, active_campaigns bigint, active_campaigns_change bigint)
language plpgsql
stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Security definer: every read below names the workspace the caller may read (or none), so the
  -- tables' policies, which would ask the membership again for each table, are not needed.
  return query
    with me as (
      select (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) as workspace_id,
             (select internal.now()) as t,
             pg_catalog.timezone(coalesce((select p.timezone from public.user_profiles p where p.id = (select auth.uid())), 'UTC'),
                                 (select internal.now()))::date as today
    ), windows as (
      -- This week = today and the 6 days before; the week before = the 7 days before that.
      select coalesce(sum(s.sent) filter (where s.day > me.today - 7), 0) as sent_now,
             coalesce(sum(s.failed) filter (where s.day > me.today - 7), 0) as failed_now,
             coalesce(sum(s.sent) filter (where s.day <= me.today - 7), 0) as sent_before,
             coalesce(sum(s.failed) filter (where s.day <= me.today - 7), 0) as failed_before
        from me
        join public.campaign_daily_stats s on s.workspace_id = me.workspace_id and s.day > me.today - 14 and s.day <= me.today
    ), campaign_totals as (
      select coalesce(sum(c.messages_sent), 0)::bigint as sent,
             coalesce(sum(c.messages_failed), 0)::bigint as failed,
             count(*) filter (where c.status in ('queued', 'running', 'active')) as active,
             count(*) filter (where c.status in ('queued', 'running', 'active') and c.started_at >= me.t - interval '7 days') as new_active
        from me join public.campaigns c on c.workspace_id = me.workspace_id
    ), account_totals as (
      select count(*) filter (where a.status = 'active') as active,
             count(*) filter (where a.status = 'active' and a.created_at >= me.t - interval '7 days') as new_active
        from me join public.social_accounts a on a.workspace_id = me.workspace_id
    )
    select ct.sent,
           case when w.sent_before = 0 then (case when w.sent_now = 0 then 0 end)
                else round((w.sent_now - w.sent_before) * 100.0 / w.sent_before, 1) end,
           -- delivered of the messages whose outcome is known (unconfirmed ones wait for their check)
           internal.percent_or_none(ct.sent, ct.sent + ct.failed),
           case when w.sent_now + w.failed_now = 0 or w.sent_before + w.failed_before = 0 then null
                else round(w.sent_now * 100.0 / (w.sent_now + w.failed_now)
                           - w.sent_before * 100.0 / (w.sent_before + w.failed_before), 1) end,
           at.active, at.new_active,
           ct.active, ct.new_active
      from windows w, campaign_totals ct, account_totals at;
end
$$;
comment on function public.dashboard_summary() is
  'The four stat cards. messages_sent: all time, change = % of this week (today and the 6 days before, as each campaign counts days) vs the 7 days before (null without a baseline). delivery_rate: sent / (sent + failed) % as campaign_figures counts it (unconfirmed sends and refused leads left out; null before any outcome is known); change in points between the two weeks. active_accounts / active_campaigns: now, change = how many of them are new in the last 7 days.';
revoke execute on function public.dashboard_summary() from public, anon;

create or replace function public.todays_overview()
returns table(day date, timezone text, sent_today bigint, replies_today bigint, replies_today_estimate bigint)
language plpgsql
stable security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  -- Asked once here: in the query each of the three counts would ask again. Security definer: the
  -- counts name this workspace, so the tables' policies need not ask the membership once more each.
  readable_workspace uuid := internal.active_workspace_with_role('{owner,admin,editor,viewer}');
  now_at timestamp with time zone := internal.now();
begin
  return query
    with me as (
      select p.timezone, pg_catalog.timezone(p.timezone, now_at)::date as day
        from public.user_profiles p where p.id = (select auth.uid())
    ), bounds as (
      select me.*, pg_catalog.timezone(me.timezone, me.day::timestamp) as starts,
             pg_catalog.timezone(me.timezone, (me.day + 1)::timestamp) as ends
        from me
    )
    select b.day, b.timezone,
           (select count(*) from public.dm_logs l
             where l.workspace_id = readable_workspace and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends),
           (select count(*) from public.campaign_leads l
             where l.workspace_id = readable_workspace and l.replied_at >= b.starts and l.replied_at < b.ends),
           (select floor(count(*) * 0.15)::bigint from public.dm_logs l
             where l.workspace_id = readable_workspace and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends)
      from bounds b;
end
$$;
comment on function public.todays_overview() is
  'Sidebar "Today''s Overview": messages sent and replies received today in the customer''s time zone, plus the estimate the original brief asked for (15% of sent, floored).';
revoke execute on function public.todays_overview() from public, anon;
