-- Everything the dashboard shows before the first interaction, in one round trip: the stat cards,
-- today's overview, the four tab badges (and whether anything runs) and the campaign cards with
-- their figures. Before this the first render waited for ten requests (six counts, two RPCs, the
-- campaign list and its figures), which a browser sends six at a time and the gateway serves one by
-- one; the separate reads stay for refreshes and polling. Runs with the caller's rights: row-level
-- security and the same auth.uid() filters as the reads it combines decide what it sees.

create or replace function public.dashboard_snapshot()
returns jsonb
language sql
stable
set search_path = ''
as $$
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
$$;
comment on function public.dashboard_snapshot() is
  'The dashboard''s first screen for the caller in one read: {user_id, summary (= dashboard_summary), today (= todays_overview), counts {campaigns, leads, accounts, scraping, running}, campaigns (the Campaigns tab''s list, newest first, with leads / contacted / replied)}.';

revoke execute on function public.dashboard_snapshot() from public, anon;
grant execute on function public.dashboard_snapshot() to authenticated, service_role;
