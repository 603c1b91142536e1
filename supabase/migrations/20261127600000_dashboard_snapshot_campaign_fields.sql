-- The dashboard's first screen builds its campaign cards from dashboard_snapshot's campaign rows,
-- which lacked ai_personalization, winner_after_sends and winner_chosen_at: the Campaigns tab's own
-- read (and web's Campaign type) has them, so a card opened from the first screen showed AI writing
-- off and no winner rule until the list was read again. The rows now carry the three columns.
-- Written by `npm run db:diff` from supabase/schemas/75_dashboard.sql.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.dashboard_snapshot()
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return (
    with me as (select (select auth.uid()) as id)
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
                 'leads', coalesce(f.leads, 0), 'contacted', coalesce(f.contacted, 0),
                 'replied', coalesce(f.replied, 0))
               order by c.created_at desc)
          from public.campaigns c
          left join public.campaign_card_figures() f on f.campaign_id = c.id
         where c.user_id = me.id), '[]'::jsonb))
      from me
  );
end
$function$;
