-- Workspaces (issue 44): the RPCs and the lead views that scoped by user_id = auth.uid() scope by
-- the caller's active workspace. Reads ask internal.active_workspace_with_role (the roles that may
-- read: nothing otherwise, as the policies); writes ask internal.require_active_role, which refuses
-- with 42501 'You are not a member of this workspace.' / 'Your role in this workspace does not allow
-- this.' The lead views are replaced in place (their comments, grants and triggers stay).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.require_active_role (
  p_roles public.workspace_role[]
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  workspace uuid := internal.active_workspace_of(auth.uid());
  caller_role public.workspace_role := internal.workspace_role(workspace);
begin
  if caller_role is null then
    raise exception 'You are not a member of this workspace.' using errcode = '42501';
  end if;
  if not caller_role = any (p_roles) then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  return workspace;
end
$function$;

CREATE OR REPLACE FUNCTION public.account_daily_usage()
  RETURNS TABLE (
    account_id        uuid,
    platform          text,
    username          text,
    status            text,
    timezone          text,
    local_day         date,
    sent_today        integer,
    account_limit     integer,
    warmup_limit      integer,
    platform_limit    integer,
    campaign_limit    integer,
    sending_campaigns integer,
    daily_cap         integer,
    remaining_today   integer,
    account_cap       integer,
    cap_reason        text,
    warmup_day        integer,
    answers_today     integer
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return query
    with campaigns as (
      -- What each sending campaign may still send today, each already held to its account's caps:
      -- their sum, held to the account's caps again, is what the account can still send.
      select c.account_id,
             sum(c.daily_message_limit)::integer as total_limit,
             sum(internal.campaign_sends_left_today(c, a, p, internal.now()))::integer as left_today,
             count(*)::integer as sending
        from public.campaigns c
        join public.social_accounts a on a.id = c.account_id
        join public.platforms p on p.id = a.platform_id
       where c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) and c.status in ('queued', 'running', 'active')
       group by c.account_id
    )
    -- least() ignores nulls: a warmed-up account has no warm-up cap, an account without a sending
    -- campaign no campaign cap.
    select a.id, p.name, a.username, a.status, a.timezone, pg_catalog.timezone(a.timezone, internal.now())::date,
           internal.account_sent_today(a, internal.now()),
           a.daily_message_limit, internal.warmup_daily_limit(a.warmup_phase), p.daily_message_ceiling,
           c.total_limit, coalesce(c.sending, 0),
           least(internal.account_daily_cap(a, p), c.total_limit),
           least(internal.account_sends_left_today(a, p, internal.now()), c.left_today),
           internal.account_daily_cap(a, p),
           internal.account_cap_reason(a, p),
           case when a.warmup_phase < 5
                then pg_catalog.timezone(a.timezone, internal.now())::date - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date + 1 end,
           (select count(*)::integer from public.inbox_messages m
             where m.account_id = a.id and m.origin = 'reachflow' and m.status in ('sent', 'uncertain')
               and pg_catalog.timezone(a.timezone, m.sent_at)::date = pg_catalog.timezone(a.timezone, internal.now())::date)
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id
      left join campaigns c on c.account_id = a.id
     where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
     order by a.created_at desc;
end
$function$;

CREATE OR REPLACE FUNCTION public.add_do_not_contact (
  p_entries jsonb
)
  RETURNS TABLE (
    entry           integer,
    platform        text,
    target_username text,
    outcome         text,
    error           text
  )
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
-- p_entries: [{platform, username, reason?}] (at most 5000). One row back per entry, in order:
-- added | already (on the list before) | duplicate (repeated in this batch, merged) | invalid (error).
#variable_conflict use_column
declare
  me uuid := (select auth.uid());
begin
  if me is null then
    raise exception 'User not authenticated' using errcode = '42501';
  end if;
  perform internal.require_active_role('{owner,admin,editor}');
  if jsonb_typeof(p_entries) is distinct from 'array' then
    raise exception 'Entries must be a list of {platform, username}.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_entries) > 5000 then
    raise exception 'At most 5,000 people per import: split the file.' using errcode = '22023';
  end if;
  return query
  with raw as (
    select e.ordinality::integer as pos,
           lower(btrim(coalesce(e.value ->> 'platform', ''))) as platform_in,
           ltrim(btrim(coalesce(e.value ->> 'username', '')), '@') as username,
           nullif(btrim(coalesce(e.value ->> 'reason', '')), '') as reason
      from jsonb_array_elements(p_entries) with ordinality e
  ), checked as (
    select r.pos, r.username, r.reason,
           case when r.platform_in = 'x' then 'twitter' else r.platform_in end as platform,
           case
             when r.platform_in = '' then 'Choose a platform: Twitter or Instagram.'
             when not exists (select 1 from public.platforms p
                               where p.name = case when r.platform_in = 'x' then 'twitter' else r.platform_in end
                                 and p.is_active and not p.coming_soon)
               then format('Unknown platform "%s": use Twitter or Instagram.', left(r.platform_in, 30))
             when r.username = '' then 'The username is empty.'
             when (r.platform_in in ('twitter', 'x')) and r.username !~ '^[A-Za-z0-9_]{1,15}$'
               then format('"%s" is not an X username (1-15 letters, digits or _).', left(r.username, 40))
             when r.platform_in = 'instagram' and r.username !~ '^[A-Za-z0-9._]{1,30}$'
               then format('"%s" is not an Instagram username (1-30 letters, digits, . or _).', left(r.username, 40))
             when char_length(coalesce(r.reason, '')) > 500 then 'The note is longer than 500 characters.'
           end as problem
      from raw r
  ), ranked as (
    select c.*, row_number() over (partition by c.platform, lower(c.username) order by c.pos) as nth
      from checked c where c.problem is null
  ), inserted as (
    insert into public.do_not_contact (user_id, platform, target_username, reason)
    select me, k.platform, k.username, coalesce(k.reason, 'manual')
      from ranked k where k.nth = 1
    on conflict do nothing
    returning lower(do_not_contact.target_username) as username_key, do_not_contact.platform as platform_key
  )
  select c.pos, c.platform, c.username,
         case when c.problem is not null then 'invalid'
              when k.nth > 1 then 'duplicate'
              when exists (select 1 from inserted i where i.platform_key = c.platform and i.username_key = lower(c.username))
                then 'added'
              else 'already' end,
         c.problem
    from checked c left join ranked k on k.pos = c.pos
   order by c.pos;
end
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
     where c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and (p_campaign_id is null or c.id = p_campaign_id);
end
$function$;

CREATE OR REPLACE FUNCTION public.campaign_lead_counts()
  RETURNS TABLE (
    campaign_id uuid,
    leads       bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return query
    select l.campaign_id, count(*) from public.campaign_leads l
     where l.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
     group by l.campaign_id;
end
$function$;

CREATE OR REPLACE FUNCTION public.campaign_sending_waits()
  RETURNS TABLE (
    campaign_id      uuid,
    account_username text,
    cause            text,
    cap              integer,
    resumes_at       timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- Campaigns with leads due that send nothing because a daily cap is used up (the scheduler queues
  -- no tick for them: internal.campaign_sends_left_today is 0). The account's cap is named first;
  -- sending resumes once every used-up cap's day has turned and the schedule's window is open.
  select w.id, w.username,
         case when w.account_left = 0 then w.account_reason else 'campaign' end,
         case when w.account_left = 0 then w.account_cap else w.campaign_cap end,
         internal.campaign_next_open_at(w.id, w.schedule, greatest(
           case when w.account_left = 0 then w.account_day_ends end,
           case when w.campaign_left = 0 then w.campaign_day_ends end))
    from (
      select c.id, c.schedule, a.username, c.daily_message_limit as campaign_cap,
             internal.account_sends_left_today(a, p, clock.t) as account_left,
             internal.account_daily_cap(a, p) as account_cap,
             internal.account_cap_reason(a, p) as account_reason,
             c.daily_message_limit
               - case when c.sent_today_on = pg_catalog.timezone(c.schedule ->> 'timezone', clock.t)::date
                      then c.messages_sent_today else 0 end as campaign_left,
             pg_catalog.timezone(a.timezone, (pg_catalog.timezone(a.timezone, clock.t)::date + 1)::timestamp) as account_day_ends,
             pg_catalog.timezone(c.schedule ->> 'timezone',
               (pg_catalog.timezone(c.schedule ->> 'timezone', clock.t)::date + 1)::timestamp) as campaign_day_ends
        from (select internal.now() as t) clock
        cross join public.campaigns c
        join public.social_accounts a on a.id = c.account_id
        join public.platforms p on p.id = a.platform_id
       where c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
         and c.status in ('queued', 'running', 'active')
         and a.status = 'active'
         and internal.campaign_sends_left_today(c, a, p, clock.t) = 0
         and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= clock.t)
    ) w
$function$;

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
  select * into campaign from public.campaigns c where c.id = p_campaign_id and c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'));
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

CREATE OR REPLACE FUNCTION public.dashboard_counts()
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.delete_campaign (
  p_campaign_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_campaign_id uuid;
begin
  select c.id into v_campaign_id from public.campaigns c
   where c.id = p_campaign_id and c.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if v_campaign_id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[v_campaign_id], true);
  delete from public.campaigns c where c.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.delete_scraping_campaign (
  p_scraping_campaign_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_campaign_id uuid;
  v_dm_campaign_name text;
begin
  select s.id into v_campaign_id from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if v_campaign_id is null then
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  -- A launched DM campaign keeps its lead source (the data model refuses to change it).
  select c.name into v_dm_campaign_name from public.campaigns c
   where c.scraping_campaign_id = v_campaign_id and c.status <> 'draft'
   order by c.created_at limit 1;
  if v_dm_campaign_name is not null then
    raise exception 'This scraping campaign is the lead source of the DM campaign "%": delete that campaign first',
      v_dm_campaign_name using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[v_campaign_id], true);
  delete from public.scraping_campaigns s where s.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.delete_social_account (
  p_account_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_account_id uuid;
  scraping_ids uuid[];
begin
  select a.id into v_account_id from public.social_accounts a
   where a.id = p_account_id and a.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if v_account_id is null then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  select coalesce(array_agg(s.id), '{}') into scraping_ids
    from public.scraping_campaigns s where s.account_id = v_account_id;
  perform internal.drop_waiting_jobs(array['account.test', 'inbox.sync', 'warmup.step', 'campaign.tick'],
                                     'accountId', array[v_account_id], true);
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', scraping_ids, true);
  -- Its campaigns are paused, not stranded: each says why and what to do; the lists
  -- offer no Resume while a campaign has no account.
  update public.scraping_campaigns s
     set status = case when s.status = 'running' then 'paused' else s.status end,
         error_message = 'Its account was deleted. Create a new scraping campaign with another account.'
   where s.id = any (scraping_ids) and s.status <> 'completed';
  update public.campaigns c
     set status = case when c.status in ('queued', 'running', 'active') then 'paused' else c.status end,
         error_message = 'Its account was deleted. Choose another account in the campaign to send again.'
   where c.account_id = v_account_id and c.status not in ('completed', 'failed');
  -- its alerts have nothing left to fix ("Change details and retry" deletes a failed attempt)
  update public.notifications n
     set read = true,
         read_at = coalesce(n.read_at, now()),
         metadata = n.metadata || jsonb_build_object('resolvedAt', internal.now(), 'resolution', 'deleted')
   where n.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
     and n.type = 'account_flagged'
     and n.metadata ->> 'accountId' = v_account_id::text
     and not n.metadata ? 'resolvedAt';
  delete from public.social_accounts a where a.id = v_account_id;
  return jsonb_build_object('id', v_account_id, 'deleted', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.do_not_contact_entries (
  p_search   text    DEFAULT NULL::text,
  p_platform text    DEFAULT NULL::text,
  p_limit    integer DEFAULT 50,
  p_offset   integer DEFAULT 0
)
  RETURNS TABLE (
    id              uuid,
    platform        text,
    target_username text,
    reason          text,
    created_at      timestamp with time zone,
    skipped_leads   bigint,
    total           bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  term text := btrim(coalesce(p_search, ''));
  -- one ILIKE pattern per column, wildcards in the term taken literally; null: no search
  in_username text;
  in_reason text;
begin
  -- security definer, reading only the active workspace's rows (workspace_id below): under RLS the
  -- planner may not use an index for ILIKE (not leakproof) ahead of the policy, so the trigram
  -- indexes went unused. A search is a few words: a longer one (70,000 characters took 6.9 s over
  -- 5,000 rows) is refused before anything is read.
  if char_length(term) > 100 then
    raise exception 'Search for at most 100 characters.' using errcode = '22023';
  end if;
  if term <> '' then
    in_username := '%' || replace(replace(replace(ltrim(term, '@'), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    in_reason := '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  return query
  with page as (
    select d.*, count(*) over () as total
      from public.do_not_contact d
     where d.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and (p_platform is null or d.platform = p_platform)
       and (in_username is null or d.target_username ilike in_username or d.reason ilike in_reason)
     order by d.created_at desc, lower(d.target_username), d.id
     limit least(greatest(coalesce(p_limit, 50), 1), 10000) offset greatest(coalesce(p_offset, 0), 0)
  )
  select p.id, p.platform, p.target_username, p.reason, p.created_at,
         (select count(*) from public.campaign_leads l
           join public.campaigns c on c.id = l.campaign_id
           join public.platforms pl on pl.id = c.platform_id
          where l.user_id = p.user_id and l.skip_reason = 'do_not_contact'
            and lower(l.username) = lower(p.target_username) and pl.name = p.platform),
         p.total
    from page p
   order by p.created_at desc, lower(p.target_username), p.id;
end
$function$;

CREATE OR REPLACE FUNCTION public.do_not_contact_overview()
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  select jsonb_build_object(
    'entries', (select count(*) from public.do_not_contact d where d.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))),
    'skippedLeads', (select count(*) from public.campaign_leads l
                      where l.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) and l.skip_reason = 'do_not_contact'),
    'words', coalesce(
      (select jsonb_build_object('anywhere', to_jsonb(s.anywhere), 'atStart', to_jsonb(s.at_start), 'custom', true)
         from public.opt_out_settings s where s.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))),
      jsonb_build_object('anywhere', '["unsubscribe"]'::jsonb, 'atStart', '["stop"]'::jsonb, 'custom', false)))
$function$;

CREATE OR REPLACE FUNCTION public.inbox_overview()
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  select jsonb_build_object(
    'unread', (select count(*) from public.inbox_threads t where t.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,agent}')) and t.unread_count > 0),
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'username', a.username, 'platform', p.name, 'status', a.status,
                                          'connection', a.connection, 'last_synced_at', a.last_synced_at,
                                          'check_requested_at', r.requested_at)
                       order by a.username)
        from public.social_accounts a
        join public.platforms p on p.id = a.platform_id
        left join public.inbox_check_requests r on r.account_id = a.id
       where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,agent}'))), '[]'::jsonb))
$function$;

CREATE OR REPLACE FUNCTION public.instagram_automation_results()
  RETURNS TABLE (
    automation_id         uuid,
    triggered             integer,
    sent                  integer,
    refused               integer,
    failed                integer,
    replied               integer,
    conversations_started integer,
    refusals              jsonb,
    last_triggered_at     timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- Security definer because "replied" and "started" read what people wrote (the webhook events,
  -- which no customer reads); every row is the caller's own automation.
  with runs as (
    select r.*, a.platform_user_id as instagram_id
      from public.instagram_automation_runs r
      join public.instagram_automations au on au.id = r.automation_id
      join public.social_accounts a on a.id = r.account_id
     where au.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
  ),
  judged as (
    select r.automation_id, r.status, r.reason, r.created_at,
           -- the person wrote to the account after the automation's answer
           r.status = 'sent' and exists (
             select 1 from internal.instagram_webhook_events e
              where e.instagram_account_id = r.instagram_id
                and e.kind = any (array['message', 'story_reply', 'story_mention'])
                and (e.payload -> 'sender' ->> 'id') = r.person_id
                and e.occurred_at > r.created_at
                and e.event_key <> r.trigger_key) as replied,
           -- the answer was the account's first DM exchange with this person: nothing they wrote
           -- before (other than what triggered it) and no earlier automation DM to them
           r.status = 'sent' and not exists (
             select 1 from internal.instagram_webhook_events e
              where e.instagram_account_id = r.instagram_id
                and e.kind = any (array['message', 'story_reply', 'story_mention'])
                and (e.payload -> 'sender' ->> 'id') = r.person_id
                and e.occurred_at < r.created_at
                and e.event_key <> r.trigger_key)
           and not exists (
             select 1 from public.instagram_automation_runs p
              where p.account_id = r.account_id and p.person_id = r.person_id and p.status = 'sent'
                and (p.created_at, p.id) < (r.created_at, r.id)) as started
      from runs r
  )
  select au.id,
         count(j.status)::integer,
         (count(*) filter (where j.status = 'sent'))::integer,
         (count(*) filter (where j.status = 'refused'))::integer,
         (count(*) filter (where j.status = 'failed'))::integer,
         (count(*) filter (where j.replied))::integer,
         (count(*) filter (where j.started))::integer,
         coalesce((select jsonb_agg(jsonb_build_object('reason', x.reason, 'count', x.n) order by x.n desc, x.reason)
                     from (select k.reason, count(*)::integer as n from judged k
                            where k.automation_id = au.id and k.status in ('refused', 'failed') and k.reason is not null
                            group by k.reason order by count(*) desc, k.reason limit 5) x), '[]'::jsonb),
         max(j.created_at)
    from public.instagram_automations au
    left join judged j on j.automation_id = au.id
   where au.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
   group by au.id
$function$;

CREATE OR REPLACE FUNCTION public.instagram_followup_results()
  RETURNS TABLE (
    automation_id uuid,
    waiting       integer,
    sent          integer,
    skipped       integer,
    not_sent      integer,
    reasons       jsonb
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- Beside instagram_automation_results, but as the caller: the follow-ups are theirs to read (RLS).
  select au.id,
         (count(*) filter (where f.status in ('scheduled', 'sending')))::integer,
         (count(*) filter (where f.status = 'sent'))::integer,
         (count(*) filter (where f.status = 'skipped'))::integer,
         (count(*) filter (where f.status in ('refused', 'failed', 'cancelled')))::integer,
         coalesce((select jsonb_agg(jsonb_build_object('reason', x.reason, 'count', x.n) order by x.n desc, x.reason)
                     from (select k.reason, count(*)::integer as n from public.instagram_automation_followups k
                            where k.automation_id = au.id and k.status in ('refused', 'failed', 'cancelled')
                              and k.reason is not null
                            group by k.reason order by count(*) desc, k.reason limit 5) x), '[]'::jsonb)
    from public.instagram_automations au
    join public.instagram_automation_followups f on f.automation_id = au.id
   where au.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
   group by au.id
$function$;

CREATE OR REPLACE FUNCTION public.instagram_official_facts()
  RETURNS TABLE (
    account_id         uuid,
    last_received_at   timestamp with time zone,
    received_this_week integer,
    last_webhook_at    timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- what is true for an account whose messages arrive by Meta's webhook: no browser syncs it, so
  -- its card shows what arrived and when Meta last delivered, not a sync time or browser limits
  select a.id,
         (select max(m.sent_at) from public.inbox_messages m
           where m.account_id = a.id and m.direction = 'incoming'),
         (select count(*)::integer from public.inbox_messages m
           where m.account_id = a.id and m.direction = 'incoming'
             and m.sent_at > internal.now() - interval '7 days'),
         (select max(e.last_received_at) from internal.instagram_webhook_events e
           where e.instagram_account_id = a.platform_user_id)
    from public.social_accounts a
    join public.platforms p on p.id = a.platform_id
   where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) and a.connection = 'official' and p.name = 'instagram'
   order by a.created_at desc
$function$;

CREATE OR REPLACE FUNCTION public.mark_inbox_thread_read (
  p_thread_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not exists (select 1 from public.inbox_threads t where t.id = p_thread_id and t.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}'))) then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
  update public.inbox_messages m set read_at = internal.now()
   where m.thread_id = p_thread_id and m.direction = 'incoming' and m.read_at is null;
  perform internal.refresh_inbox_thread(p_thread_id);
end
$function$;

CREATE OR REPLACE FUNCTION public.pause_campaign (
  p_campaign_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  campaign public.campaigns;
begin
  select * into campaign from public.campaigns c
   where c.id = p_campaign_id and c.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status in ('queued', 'running', 'active') then
    update public.campaigns c set status = 'paused' where c.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running campaign can be paused (this one is %)', campaign.status using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$function$;

CREATE OR REPLACE FUNCTION public.pause_scraping_campaign (
  p_scraping_campaign_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  campaign public.scraping_campaigns;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if campaign.id is null then
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status = 'running' then
    update public.scraping_campaigns s set status = 'paused' where s.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running scraping campaign can be paused (this one is %)', campaign.status
      using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$function$;

CREATE OR REPLACE FUNCTION public.platform_notices()
  RETURNS TABLE (
    platform       text,
    platform_label text,
    action         text,
    paused_since   timestamp with time zone,
    title          text,
    message        text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- Only the pauses of platforms the caller has an account on; nothing about steps or pages.
  select pa.platform, internal.platform_label(pa.platform), pa.action, pa.paused_at, n.title, n.message
    from public.platform_action_pauses pa
   cross join internal.platform_action_notice(pa.platform, pa.action, false) n
   where exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
                  where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}')) and p.name = pa.platform)
   order by pa.paused_at, pa.platform, pa.action
$function$;

CREATE OR REPLACE FUNCTION public.queue_inbox_reply (
  p_thread_id uuid,
  p_body      text
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  thread public.inbox_threads;
  account public.social_accounts;
  text_to_send text := pg_catalog.btrim(coalesce(p_body, ''));
  message_id uuid;
  refusal text;
begin
  select * into thread from public.inbox_threads t where t.id = p_thread_id and t.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}'));
  if thread.id is null then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
  if text_to_send = '' then
    raise exception 'Write a message first.' using errcode = '22023';
  end if;
  if char_length(text_to_send) > 2000 then
    raise exception 'Keep the message under 2,000 characters (it has %).', char_length(text_to_send) using errcode = '22023';
  end if;
  select * into account from public.social_accounts a where a.id = thread.account_id;
  if account.status is distinct from 'active' then
    raise exception '@% is %, so it cannot send. Fix it in Social Accounts, then answer again.',
      account.username, coalesce(account.status, 'gone') using errcode = 'PT409';
  end if;
  -- Instagram refuses an answer 7 days after the person's last message: the customer learns it now
  if account.connection = 'official'
     and exists (select 1 from public.platforms p where p.id = account.platform_id and p.name = 'instagram') then
    refusal := internal.instagram_answer_refusal(thread.id);
    if refusal is not null then
      raise exception '%', refusal using errcode = 'PT409';
    end if;
  end if;
  insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
  values (thread.id, thread.user_id, thread.account_id, 'outgoing', text_to_send, 'reachflow', 'queued',
          'reply:' || gen_random_uuid())
  returning id into message_id;
  perform internal.refresh_inbox_thread(thread.id);
  -- the account's inbox.sync sends queued answers first; one waiting sync per account is enough
  perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', thread.account_id), 'inbox:' || thread.account_id);
  return message_id;
end
$function$;

CREATE OR REPLACE FUNCTION public.request_account_test (
  p_account_id uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  job_id uuid;
begin
  if (select auth.role()) is distinct from 'service_role'
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', p_account_id), 'account:' || p_account_id);
  return job_id;
end
$function$;

CREATE OR REPLACE FUNCTION public.request_inbox_check (
  p_account_id uuid DEFAULT NULL::uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  me uuid := (select auth.uid());
  workspace uuid := internal.require_active_role('{owner,admin,editor,agent}');
  t constant timestamptz := internal.now();
  v_account uuid;
  last_request timestamptz;
  queued integer := 0;
  limited integer := 0;
  wait_seconds integer := 0;
begin
  if p_account_id is not null
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.workspace_id = workspace) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  -- id order: two calls for several accounts take the row locks in the same order (no deadlock)
  for v_account in
    select a.id
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id
     where a.workspace_id = workspace and a.status = 'active' and (p_account_id is null or a.id = p_account_id)
       -- Instagram's webhooks bring an official Instagram account's messages as they are sent
       and not (a.connection = 'official' and p.name = 'instagram')
     order by a.id
       for update of a
  loop
    insert into public.inbox_check_requests as r (account_id, user_id, requested_at)
    values (v_account, me, t)
    on conflict (account_id) do update set requested_at = excluded.requested_at
     where r.requested_at <= t - interval '1 minute';
    if found then
      perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', v_account), 'inbox:' || v_account);
      queued := queued + 1;
    else
      select r.requested_at into last_request from public.inbox_check_requests r where r.account_id = v_account;
      limited := limited + 1;
      -- a call that started just before the winning one committed waits from the winner's time
      wait_seconds := greatest(wait_seconds,
        least(60, greatest(1, ceil(extract(epoch from last_request + interval '1 minute' - t))::integer)));
    end if;
  end loop;
  if queued = 0 and limited = 0 then
    raise exception 'No active account to check. Connect or fix an account in Social Accounts.' using errcode = 'PT409';
  end if;
  if queued = 0 then
    raise exception 'Checked less than a minute ago. Try again in % s.', wait_seconds using errcode = 'PT429';
  end if;
  return jsonb_build_object('queued', queued, 'limited', limited, 'retry_after_seconds', wait_seconds);
end
$function$;

CREATE OR REPLACE FUNCTION public.retry_inbox_reply (
  p_message_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  message public.inbox_messages;
  refusal text;
begin
  select * into message from public.inbox_messages m
   where m.id = p_message_id and m.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}')) and m.origin = 'reachflow';
  if message.id is null then
    raise exception 'Message not found' using errcode = 'PT404';
  end if;
  -- only an answer known not to have gone out may be sent again
  if message.status <> 'failed' then
    raise exception 'Only a failed message can be sent again.' using errcode = 'PT409';
  end if;
  if not exists (select 1 from public.social_accounts a where a.id = message.account_id and a.status = 'active') then
    raise exception 'The account is not active, so it cannot send. Fix it in Social Accounts first.' using errcode = 'PT409';
  end if;
  -- an official Instagram answer whose 7 days are over would only be refused again
  if exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
              where a.id = message.account_id and a.connection = 'official' and p.name = 'instagram') then
    refusal := internal.instagram_answer_refusal(message.thread_id);
    if refusal is not null then
      raise exception '%', refusal using errcode = 'PT409';
    end if;
  end if;
  update public.inbox_messages m set status = 'queued', error = null where m.id = message.id;
  perform internal.refresh_inbox_thread(message.thread_id);
  perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', message.account_id), 'inbox:' || message.account_id);
end
$function$;

CREATE OR REPLACE FUNCTION public.scraping_campaign_stats (
  p_scraping_campaign_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
declare
  campaign public.scraping_campaigns;
  tz text;
  totals record;
  sources jsonb;
  per_day jsonb;
  recent jsonb;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'));
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  select p.timezone into tz from public.user_profiles p where p.id = campaign.user_id;
  tz := coalesce(tz, 'UTC');

  select count(*) as collected,
         count(*) filter (where not l.is_filtered) as valid,
         count(*) filter (where not l.is_filtered and coalesce(l.profile_data ->> 'bio', '') <> '') as valid_with_bio,
         min(l.collected_at) as first_at,
         max(l.collected_at) as last_at
    into totals
    from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id;

  select coalesce(jsonb_agg(jsonb_build_object('type', x.source_type, 'value', x.source_value, 'count', x.n,
           'percentage', round(x.n * 100.0 / nullif(totals.collected, 0), 1)) order by x.n desc), '[]'::jsonb)
    into sources
    from (select l.source_type, l.source_value, count(*) as n
            from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           group by 1, 2) x;

  select coalesce(jsonb_agg(jsonb_build_object('date', x.day, 'collected', x.collected, 'valid', x.valid) order by x.day), '[]'::jsonb)
    into per_day
    from (select pg_catalog.timezone(tz, l.collected_at)::date as day, count(*) as collected,
                 count(*) filter (where not l.is_filtered) as valid
            from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           group by 1) x;

  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'username', x.username, 'sourceType', x.source_type,
           'sourceValue', x.source_value, 'isFiltered', x.is_filtered, 'filterReason', x.filter_reason,
           'collectedAt', x.collected_at) order by x.collected_at desc), '[]'::jsonb)
    into recent
    from (select l.* from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           order by l.collected_at desc limit 10) x;

  return jsonb_build_object(
    'scrapingCampaignId', campaign.id,
    'status', campaign.status,
    'targetCount', campaign.target_count,
    'collected', totals.collected,
    'valid', totals.valid,
    'filtered', totals.collected - totals.valid,
    'successRate', case when totals.collected = 0 then 0 else round(totals.valid * 100.0 / totals.collected, 1) end,
    'collectionRate', round(least(totals.valid, campaign.target_count) * 100.0 / campaign.target_count, 1),
    'qualityScore', case when totals.valid = 0 then 0 else round(totals.valid_with_bio * 100.0 / totals.valid, 1) end,
    'averagePerHour', case when totals.collected = 0 then 0
      else round(totals.collected / greatest(extract(epoch from totals.last_at - totals.first_at) / 3600.0, 1), 1) end,
    'firstCollectedAt', totals.first_at,
    'lastCollectedAt', totals.last_at,
    'sources', sources,
    'perDay', per_day,
    'recent', recent);
end
$function$;

CREATE OR REPLACE FUNCTION public.scraping_collection_per_hour (
  p_scraping_campaign_id uuid,
  p_hours                integer DEFAULT 48
)
  RETURNS TABLE (
    hour      timestamp with time zone,
    collected bigint,
    valid     bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
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
       and l.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and l.collected_at >= c.hour and l.collected_at < c.hour + interval '1 hour'
     group by c.hour
     order by c.hour;
end
$function$;

CREATE OR REPLACE FUNCTION public.set_inbox_thread_status (
  p_thread_id uuid,
  p_status    text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if p_status not in ('open', 'handled') then
    raise exception 'Status must be open or handled' using errcode = '22023';
  end if;
  update public.inbox_threads t
     set status = p_status, handled_at = case when p_status = 'handled' then internal.now() end
   where t.id = p_thread_id and t.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}'));
  if not found then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION public.start_scraping_campaign (
  p_scraping_campaign_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  campaign public.scraping_campaigns;
  account_ready boolean;
  job_id uuid;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if campaign.id is null then
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status = 'completed' then
    raise exception 'This scraping campaign has already completed' using errcode = 'PT409';
  end if;
  if campaign.account_id is null then
    raise exception 'This scraping campaign''s account was removed: create a new campaign with another account'
      using errcode = 'PT409';
  end if;
  if campaign.status in ('pending', 'paused') then
    update public.scraping_campaigns s set status = 'running' where s.id = campaign.id returning * into campaign;
  end if;
  -- The first run starts now rather than at the next scheduler minute; an account still being tested
  -- is left to the scheduler, which queues runs only for active accounts.
  select a.status = 'active' into account_ready from public.social_accounts a where a.id = campaign.account_id;
  if account_ready then
    job_id := internal.enqueue_job('scrape.run', jsonb_build_object('scrapingCampaignId', campaign.id),
                                   'scraping:' || campaign.id);
    if job_id is not null then
      update public.scraping_campaigns s set next_run_at = internal.now() + interval '30 minutes'
       where s.id = campaign.id returning * into campaign;
    end if;
  end if;
  return to_jsonb(campaign) || jsonb_build_object('run_job_id', job_id);
end
$function$;

CREATE OR REPLACE FUNCTION public.todays_overview()
  RETURNS TABLE (
    day                    date,
    timezone               text,
    sent_today             bigint,
    replies_today          bigint,
    replies_today_estimate bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return query
    with me as (
      select (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) as workspace_id, p.timezone, pg_catalog.timezone(p.timezone, (select internal.now()))::date as day
        from public.user_profiles p where p.id = (select auth.uid())
    ), bounds as (
      select me.*, pg_catalog.timezone(me.timezone, me.day::timestamp) as starts,
             pg_catalog.timezone(me.timezone, (me.day + 1)::timestamp) as ends
        from me
    )
    select b.day, b.timezone,
           (select count(*) from public.dm_logs l
             where l.workspace_id = b.workspace_id and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends),
           (select count(*) from public.campaign_leads l
             where l.workspace_id = b.workspace_id and l.replied_at >= b.starts and l.replied_at < b.ends),
           (select floor(count(*) * 0.15)::bigint from public.dm_logs l
             where l.workspace_id = b.workspace_id and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends)
      from bounds b;
end
$function$;

CREATE OR REPLACE FUNCTION public.x_api_usage_this_month()
  RETURNS TABLE (
    account_id uuid,
    kind       text,
    units      integer
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- X bills by UTC day; the month is the calendar month in UTC, as X's console shows it
  select u.account_id, u.kind, count(*)::integer
    from public.x_api_usage u
   where u.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
     and u.day >= pg_catalog.date_trunc('month', pg_catalog.timezone('UTC', internal.now()))::date
   group by u.account_id, u.kind
   order by u.account_id, u.kind
$function$;

CREATE OR REPLACE VIEW "public"."lead_people" WITH (security_invoker=false, security_barrier=false) AS  WITH rows AS (
         SELECT 'campaign'::text AS source,
            l.id,
            l.campaign_id,
            COALESCE(c.name, 'Unknown Campaign'::text) AS campaign_name,
            c.platform_id,
            l.username,
            l.profile_data,
                CASE
                    WHEN (l.replied_at IS NOT NULL) THEN 'replied'::text
                    ELSE l.state
                END AS status,
                CASE
                    WHEN (l.replied_at IS NOT NULL) THEN 0
                    ELSE 1
                END AS precedence,
            GREATEST(l.collected_at, COALESCE(l.last_sent_at, l.collected_at), COALESCE(l.replied_at, l.collected_at)) AS activity_at,
            l.collected_at
           FROM (public.campaign_leads l
             JOIN public.campaigns c ON ((c.id = l.campaign_id)))
          WHERE (l.workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role))
        UNION ALL
         SELECT 'scraping'::text AS text,
            s.id,
            s.scraping_campaign_id,
            COALESCE(sc.name, 'Unknown Scraping Campaign'::text) AS "coalesce",
            sc.platform_id,
            s.username,
            s.profile_data,
                CASE
                    WHEN s.is_filtered THEN 'filtered'::text
                    ELSE 'active'::text
                END AS "case",
            2,
            s.collected_at,
            s.collected_at
           FROM (public.scraping_campaign_leads s
             JOIN public.scraping_campaigns sc ON ((sc.id = s.scraping_campaign_id)))
          WHERE (s.workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role))
        ), people AS (
         SELECT r.platform_id,
            lower(r.username) AS person,
            (array_agg(r.id ORDER BY r.precedence, r.activity_at DESC, r.id))[1] AS id,
            (array_agg(r.source ORDER BY r.precedence, r.activity_at DESC, r.id))[1] AS source,
            (array_agg(r.campaign_id ORDER BY r.precedence, r.activity_at DESC, r.id))[1] AS campaign_id,
            (array_agg(r.campaign_name ORDER BY r.precedence, r.activity_at DESC, r.id))[1] AS campaign_name,
            (array_agg(r.username ORDER BY r.precedence, r.activity_at DESC, r.id))[1] AS username,
            (array_agg(r.status ORDER BY r.precedence, r.activity_at DESC, r.id))[1] AS status,
            (array_agg(COALESCE(NULLIF((r.profile_data ->> 'display_name'::text), ''::text), NULLIF((r.profile_data ->> 'full_name'::text), ''::text)) ORDER BY r.collected_at DESC) FILTER (WHERE (COALESCE(NULLIF((r.profile_data ->> 'display_name'::text), ''::text), NULLIF((r.profile_data ->> 'full_name'::text), ''::text)) IS NOT NULL)))[1] AS display_name,
            (array_agg(NULLIF((r.profile_data ->> 'email'::text), ''::text) ORDER BY r.collected_at DESC) FILTER (WHERE (NULLIF((r.profile_data ->> 'email'::text), ''::text) IS NOT NULL)))[1] AS email,
            (array_agg(COALESCE(NULLIF((r.profile_data ->> 'company'::text), ''::text), NULLIF((r.profile_data ->> 'business'::text), ''::text)) ORDER BY r.collected_at DESC) FILTER (WHERE (COALESCE(NULLIF((r.profile_data ->> 'company'::text), ''::text), NULLIF((r.profile_data ->> 'business'::text), ''::text)) IS NOT NULL)))[1] AS company,
            (array_agg(COALESCE(NULLIF((r.profile_data ->> 'title'::text), ''::text), NULLIF((r.profile_data ->> 'job_title'::text), ''::text)) ORDER BY r.collected_at DESC) FILTER (WHERE (COALESCE(NULLIF((r.profile_data ->> 'title'::text), ''::text), NULLIF((r.profile_data ->> 'job_title'::text), ''::text)) IS NOT NULL)))[1] AS title,
            array_agg(DISTINCT r.campaign_name) AS sources,
            array_agg(DISTINCT r.campaign_id) AS campaign_ids,
            (count(*))::integer AS source_count,
            max(r.activity_at) AS last_activity,
            max(r.collected_at) AS collected_at
           FROM rows r
          GROUP BY r.platform_id, (lower(r.username))
        )
 SELECT p.id,
    p.source,
    p.campaign_id,
    p.campaign_name,
    p.username,
    COALESCE(p.display_name, p.username) AS display_name,
    p.email,
    p.company,
    p.title,
    upper("left"(p.username, 1)) AS avatar,
    p.status,
    p.last_activity,
    p.collected_at,
    p.sources,
    p.campaign_ids,
    p.source_count,
    ( SELECT pl.name
           FROM public.platforms pl
          WHERE (pl.id = p.platform_id)) AS platform
   FROM people p;

REVOKE ALL ON TABLE "public"."lead_people" FROM "anon";

CREATE OR REPLACE VIEW "public"."lead_view" WITH (security_invoker=false, security_barrier=false) AS  SELECT leads.id,
    leads.source,
    leads.user_id,
    leads.campaign_id,
    leads.campaign_name,
    leads.username,
    leads.display_name,
    leads.email,
    leads.company,
    leads.title,
    leads.avatar,
    leads.status,
    leads.last_activity,
    leads.collected_at
   FROM ( SELECT l.id,
            'campaign'::text AS source,
            l.user_id,
            l.workspace_id,
            l.campaign_id,
            COALESCE(( SELECT c.name
                   FROM public.campaigns c
                  WHERE (c.id = l.campaign_id)), 'Unknown Campaign'::text) AS campaign_name,
            l.username,
            COALESCE(NULLIF((l.profile_data ->> 'display_name'::text), ''::text), NULLIF((l.profile_data ->> 'full_name'::text), ''::text), l.username) AS display_name,
            NULLIF((l.profile_data ->> 'email'::text), ''::text) AS email,
            COALESCE(NULLIF((l.profile_data ->> 'company'::text), ''::text), NULLIF((l.profile_data ->> 'business'::text), ''::text)) AS company,
            COALESCE(NULLIF((l.profile_data ->> 'title'::text), ''::text), NULLIF((l.profile_data ->> 'job_title'::text), ''::text)) AS title,
            upper("left"(l.username, 1)) AS avatar,
                CASE
                    WHEN (l.replied_at IS NOT NULL) THEN 'replied'::text
                    ELSE l.state
                END AS status,
            l.collected_at AS last_activity,
            l.collected_at
           FROM public.campaign_leads l
        UNION ALL
         SELECT s.id,
            'scraping'::text AS text,
            s.user_id,
            s.workspace_id,
            s.scraping_campaign_id,
            COALESCE(( SELECT sc.name
                   FROM public.scraping_campaigns sc
                  WHERE (sc.id = s.scraping_campaign_id)), 'Unknown Scraping Campaign'::text) AS "coalesce",
            s.username,
            COALESCE(NULLIF((s.profile_data ->> 'display_name'::text), ''::text), NULLIF((s.profile_data ->> 'full_name'::text), ''::text), s.username) AS "coalesce",
            NULLIF((s.profile_data ->> 'email'::text), ''::text) AS "nullif",
            COALESCE(NULLIF((s.profile_data ->> 'company'::text), ''::text), NULLIF((s.profile_data ->> 'business'::text), ''::text)) AS "coalesce",
            COALESCE(NULLIF((s.profile_data ->> 'title'::text), ''::text), NULLIF((s.profile_data ->> 'job_title'::text), ''::text)) AS "coalesce",
            upper("left"(s.username, 1)) AS upper,
                CASE
                    WHEN s.is_filtered THEN 'filtered'::text
                    ELSE 'active'::text
                END AS "case",
            s.collected_at,
            s.collected_at
           FROM public.scraping_campaign_leads s) leads
  WHERE (leads.workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role));

REVOKE ALL ON TABLE "public"."lead_view" FROM "anon";

COMMENT ON FUNCTION "internal"."require_active_role"(public.workspace_role[]) IS 'What a writing RPC asks first: the caller''s active workspace when their role there is one of p_roles; 42501 with the product''s words otherwise (not a member / role too low).';

COMMENT ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) IS 'A page of the caller''s do-not-contact list (security definer, reading only the caller''s active workspace''s rows), newest first (then by username): search (at most 100 characters, 22023 beyond) in username and reason through the trigram indexes, optional platform, with how many campaign leads each entry skipped and the total matching.';

COMMENT ON VIEW "public"."lead_people" IS 'The Leads tab: one row per person (platform + username) across the caller''s DM and scraped leads, with the latest status (replied wins, then DM states, then active/filtered), the sources (campaign names) and campaign_ids. Shows only the caller''s rows.';

COMMENT ON VIEW "public"."lead_view" IS 'The Leads tab: the caller''s campaign leads and scraped leads in one list (product.md §3). Page it with order=collected_at.desc, limit/offset and count=exact. Shows only the caller''s active workspace''s rows (it filters by internal.active_workspace_with_role itself).';

REVOKE ALL ON FUNCTION "internal"."require_active_role"(public.workspace_role[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."require_active_role"(public.workspace_role[]) TO "authenticated", "service_role";

REVOKE ALL ON TABLE "public"."lead_people" FROM "authenticated";

GRANT SELECT ON TABLE "public"."lead_people" TO "authenticated";

REVOKE ALL ON TABLE "public"."lead_people" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."lead_people" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."lead_people" TO "service_role";

REVOKE ALL ON TABLE "public"."lead_view" FROM "authenticated";

GRANT SELECT ON TABLE "public"."lead_view" TO "authenticated";

REVOKE ALL ON TABLE "public"."lead_view" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."lead_view" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."lead_view" TO "service_role";
