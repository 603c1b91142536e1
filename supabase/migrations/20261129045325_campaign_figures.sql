-- Campaign figures by one definition. The card read "Total Leads 25", the details "Target count 24"
-- and progress counted against yet another whole, and a rate with nothing sent read 0 %. Now
-- public.campaign_figures is the one place each figure is defined (target, not deliverable,
-- eligible, contacted, replied, delivered, not delivered, and the rates), and the card
-- (dashboard_snapshot), the details (campaign_stats) and the dashboard's delivery rate read it; a
-- rate whose whole is 0 is null (shown "—"). campaign_card_figures, replaced, is dropped.

SET local check_function_bodies = off;

DROP FUNCTION "public"."campaign_card_figures"();

CREATE OR REPLACE FUNCTION internal.percent_or_none (
  p_part  numeric,
  p_whole numeric
)
  RETURNS numeric
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select case when p_whole > 0 then round(p_part * 100.0 / p_whole, 1) end
$function$;

CREATE OR REPLACE FUNCTION public.campaign_figures (
  p_campaign_id uuid DEFAULT NULL::uuid
)
  RETURNS TABLE (
    campaign_id     uuid,
    target          bigint,
    not_deliverable bigint,
    eligible        bigint,
    contacted       bigint,
    replied         bigint,
    delivered       bigint,
    not_delivered   bigint,
    unconfirmed     bigint,
    delivery_rate   numeric,
    progress        numeric,
    reply_rate      numeric
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  -- The one definition of each campaign figure (the card, the details, the dashboard read it;
  -- domain/campaign-figures.ts names them): every lead the campaign took is its target; a lead
  -- skipped before anything went out (refused by the platform: closed inbox, verified senders
  -- only, cannot be messaged; do-not-contact; opted out) is not deliverable; the rest are eligible
  -- (= campaigns.target_count, kept by triggers with internal.is_campaign_target).
  return query
    select c.id, l.target, l.target - l.eligible, l.eligible, l.contacted, l.replied,
           c.messages_sent::bigint, c.messages_failed::bigint,
           (c.total_attempts - c.messages_sent - c.messages_failed)::bigint,
           internal.percent_or_none(c.messages_sent, c.messages_sent + c.messages_failed),
           internal.percent_or_none(l.contacted, l.eligible),
           internal.percent_or_none(l.replied, c.messages_sent)
      from public.campaigns c
     cross join lateral (
       select count(*) as target,
              count(*) filter (where internal.is_campaign_target(cl.state, cl.last_sent_at)) as eligible,
              count(*) filter (where cl.last_sent_at is not null) as contacted,
              count(*) filter (where cl.replied_at is not null) as replied
         from public.campaign_leads cl where cl.campaign_id = c.id) l
     where c.user_id = (select auth.uid())
       and (p_campaign_id is null or c.id = p_campaign_id);
end
$function$;

REVOKE ALL ON FUNCTION "public"."campaign_figures"(uuid) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.campaign_stats (
  p_campaign_id uuid,
  p_days        integer DEFAULT 30
)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
declare
  campaign public.campaigns;
  tz text;
  days integer := least(greatest(coalesce(p_days, 30), 1), 365);
  leads jsonb;
  figures record;
  per_day jsonb;
begin
  select * into campaign from public.campaigns c where c.id = p_campaign_id and c.user_id = (select auth.uid());
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  tz := campaign.schedule ->> 'timezone';

  select jsonb_build_object(
           'total', count(*),
           'pending', count(*) filter (where l.state = 'pending'),
           'contacted', count(*) filter (where l.last_sent_at is not null),
           'skipped', count(*) filter (where l.state = 'skipped'),
           'failed', count(*) filter (where l.state = 'failed'),
           'uncertain', count(*) filter (where l.state = 'uncertain'),
           'replied', count(*) filter (where l.replied_at is not null))
    into leads
    from public.campaign_leads l where l.campaign_id = campaign.id;

  with calendar as (
    select d::date as day
      from pg_catalog.generate_series(pg_catalog.timezone(tz, (select internal.now()))::date - (days - 1),
                                      pg_catalog.timezone(tz, (select internal.now()))::date, interval '1 day') d
  )
  select jsonb_agg(jsonb_build_object('date', c.day, 'sent', coalesce(s.sent, 0), 'failed', coalesce(s.failed, 0),
                                      'uncertain', coalesce(s.uncertain, 0), 'replies', coalesce(s.replies, 0)) order by c.day)
    into per_day
    from calendar c
    left join public.campaign_daily_stats s on s.campaign_id = campaign.id and s.day = c.day;

  select * into figures from public.campaign_figures(campaign.id);

  return jsonb_build_object(
    'campaignId', campaign.id,
    'status', campaign.status,
    'totalLeads', figures.target,
    'notDeliverable', figures.not_deliverable,
    'leads', leads,
    'messagesSent', figures.delivered,
    'totalAttempts', campaign.total_attempts,
    'responses', figures.replied,
    'replyRate', figures.reply_rate,
    'messagesFailed', figures.not_delivered,
    'messagesUncertain', figures.unconfirmed,
    'eligible', figures.eligible,
    'deliveryRate', figures.delivery_rate,
    'progress', figures.progress,
    'sentToday', case when campaign.sent_today_on = pg_catalog.timezone(tz, (select internal.now()))::date
                      then campaign.messages_sent_today else 0 end,
    'daysOff', (select coalesce(jsonb_agg(d), '[]'::jsonb) from public.campaign_days_off(campaign.id, null, 14) d),
    'perDay', per_day);
end
$function$;

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
                 'figures', (select pg_catalog.to_jsonb(f) - 'campaign_id'))
               order by c.created_at desc)
          from public.campaigns c
          join public.campaign_figures() f on f.campaign_id = c.id
         where c.user_id = me.id), '[]'::jsonb))
      from me
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.dashboard_summary()
  RETURNS TABLE (
    messages_sent           bigint,
    messages_sent_change    numeric,
    delivery_rate           numeric,
    delivery_rate_change    numeric,
    active_accounts         bigint,
    active_accounts_change  bigint,
    active_campaigns        bigint,
    active_campaigns_change bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
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
             coalesce(sum(s.failed) filter (where s.day > me.today - 7), 0) as failed_now,
             coalesce(sum(s.sent) filter (where s.day <= me.today - 7), 0) as sent_before,
             coalesce(sum(s.failed) filter (where s.day <= me.today - 7), 0) as failed_before
        from me
        join public.campaign_daily_stats s on s.user_id = me.id and s.day > me.today - 14 and s.day <= me.today
    ), campaign_totals as (
      select coalesce(sum(c.messages_sent), 0)::bigint as sent,
             coalesce(sum(c.messages_failed), 0)::bigint as failed,
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
           -- delivered of the messages whose outcome is known (unconfirmed ones wait for their check)
           internal.percent_or_none(ct.sent, ct.sent + ct.failed),
           case when w.sent_now + w.failed_now = 0 or w.sent_before + w.failed_before = 0 then null
                else round(w.sent_now * 100.0 / (w.sent_now + w.failed_now)
                           - w.sent_before * 100.0 / (w.sent_before + w.failed_before), 1) end,
           at.active, at.new_active,
           ct.active, ct.new_active
      from windows w, campaign_totals ct, account_totals at;
end
$function$;

COMMENT ON FUNCTION "internal"."percent_or_none"(numeric, numeric) IS 'A figure''s rate in percent with one decimal; null (shown "—") when there is nothing to divide by, so a rate before any send is no 0 %.';

COMMENT ON FUNCTION "public"."campaign_figures"(uuid) IS 'Each DM campaign of the caller (or the one asked for), its figures by one definition: target (its leads), not_deliverable (skipped before anything went out), eligible (target - not deliverable), contacted (sent at least once), replied, delivered (messages confirmed sent, follow-ups included), not_delivered (failed now), unconfirmed, delivery_rate (delivered / (delivered + not delivered)), progress (contacted / eligible), reply_rate (replied / delivered); a rate is null while its whole is 0.';

COMMENT ON FUNCTION "public"."campaign_stats"(uuid, integer) IS 'DM campaign detail figures, those of campaign_figures under their screen names: totalLeads (target), notDeliverable, target (eligible), messagesSent (delivered), messagesFailed (not delivered), messagesUncertain, responses (replied), replyRate, deliveryRate, progress (null rates while nothing to divide by); lead counts by state, attempts, sent today, the next 14 days'' days off, and per-day sent/failed/replies for the last p_days days (campaign time zone).';

COMMENT ON FUNCTION "public"."dashboard_snapshot"() IS 'The dashboard''s first screen for the caller in one read: {user_id, summary (= dashboard_summary), today (= todays_overview), counts {campaigns, leads, accounts, scraping, running}, campaigns (the Campaigns tab''s list, newest first, each with its campaign_figures)}.';

COMMENT ON FUNCTION "public"."dashboard_summary"() IS 'The four stat cards. messages_sent: all time, change = % of this week (today and the 6 days before, as each campaign counts days) vs the 7 days before (null without a baseline). delivery_rate: sent / (sent + failed) % as campaign_figures counts it (unconfirmed sends and refused leads left out; null before any outcome is known); change in points between the two weeks. active_accounts / active_campaigns: now, change = how many of them are new in the last 7 days.';

REVOKE ALL ON FUNCTION "internal"."is_campaign_target"(text, timestamp WITH time zone) FROM "authenticated";

GRANT EXECUTE ON FUNCTION "internal"."is_campaign_target"(text, timestamp WITH time zone) TO "authenticated";

REVOKE ALL ON FUNCTION "internal"."is_campaign_target"(text, timestamp WITH time zone) FROM "service_role";

GRANT EXECUTE ON FUNCTION "internal"."is_campaign_target"(text, timestamp WITH time zone) TO "service_role";

REVOKE ALL ON FUNCTION "internal"."percent_or_none"(numeric, numeric) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."percent_or_none"(numeric, numeric) TO "authenticated", "service_role";

GRANT EXECUTE ON FUNCTION "public"."campaign_figures"(uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."campaign_figures"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."campaign_figures"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."campaign_figures"(uuid) TO "service_role";
