-- What the dashboard reads besides plain tables: the summary cards, today's overview, the combined
-- lead view (campaign and scraped leads in one pageable list), the account-limit check of spec §6,
-- and campaign and scraping statistics. All run with the caller's rights, so row-level security
-- decides what they see; each also filters by (select auth.uid()) so the owner indexes are used.

-- Views ----------------------------------------------------------------------------------------
-- The lead view runs with its owner's rights and filters by (select auth.uid()) itself, outside the
-- UNION ALL: PostgreSQL cannot merge-append the two branches in collected_at order when row-level
-- security quals sit inside them, and would sort every lead of the customer for each page. Campaign
-- names are scalar subqueries: a page of 20 looks up 20 names, a count looks up none.

create view public.lead_view
with (security_invoker = false, security_barrier = false)
as
select leads.*
  from (
    select l.id,
           'campaign'::text as source,
           l.user_id,
           l.campaign_id,
           coalesce((select c.name from public.campaigns c where c.id = l.campaign_id), 'Unknown Campaign') as campaign_name,
           l.username,
           coalesce(nullif(l.profile_data ->> 'display_name', ''), nullif(l.profile_data ->> 'full_name', ''), l.username) as display_name,
           nullif(l.profile_data ->> 'email', '') as email,
           coalesce(nullif(l.profile_data ->> 'company', ''), nullif(l.profile_data ->> 'business', '')) as company,
           coalesce(nullif(l.profile_data ->> 'title', ''), nullif(l.profile_data ->> 'job_title', '')) as title,
           upper(left(l.username, 1)) as avatar,
           case when l.replied_at is not null then 'replied' else l.state end as status,
           l.collected_at as last_activity,
           l.collected_at
      from public.campaign_leads l
    union all
    select s.id,
           'scraping'::text,
           s.user_id,
           s.scraping_campaign_id,
           coalesce((select sc.name from public.scraping_campaigns sc where sc.id = s.scraping_campaign_id), 'Unknown Scraping Campaign'),
           s.username,
           coalesce(nullif(s.profile_data ->> 'display_name', ''), nullif(s.profile_data ->> 'full_name', ''), s.username),
           nullif(s.profile_data ->> 'email', ''),
           coalesce(nullif(s.profile_data ->> 'company', ''), nullif(s.profile_data ->> 'business', '')),
           coalesce(nullif(s.profile_data ->> 'title', ''), nullif(s.profile_data ->> 'job_title', '')),
           upper(left(s.username, 1)),
           case when s.is_filtered then 'filtered' else 'active' end,
           s.collected_at,
           s.collected_at
      from public.scraping_campaign_leads s
  ) leads
 where leads.user_id = (select auth.uid());

comment on view public.lead_view is
  'The Leads tab: the caller''s campaign leads and scraped leads in one list (spec §3 combined lead view). Page it with order=collected_at.desc, limit/offset and count=exact. Shows only the caller''s rows (it filters by auth.uid() itself).';
comment on column public.lead_view.source is 'campaign (a DM campaign lead) or scraping (a scraped lead).';
comment on column public.lead_view.status is
  'Campaign leads: pending, sending, sent, failed, uncertain, skipped or replied. Scraped leads: active or filtered.';

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.dashboard_summary()
returns table (
  messages_sent bigint,
  messages_sent_change numeric,
  delivery_rate numeric,
  delivery_rate_change numeric,
  active_accounts bigint,
  active_accounts_change bigint,
  active_campaigns bigint,
  active_campaigns_change bigint
)
language sql
stable
set search_path = ''
as $$
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
    from windows w, campaign_totals ct, account_totals at
$$;
comment on function public.dashboard_summary() is
  'The four stat cards. messages_sent: all time, change = % of this week (today and the 6 days before, as each campaign counts days) vs the 7 days before (null without a baseline). delivery_rate: sent / attempts %, change in points between the two weeks. active_accounts / active_campaigns: now, change = how many of them are new in the last 7 days.';

create or replace function public.todays_overview()
returns table (day date, timezone text, sent_today bigint, replies_today bigint, replies_today_estimate bigint)
language sql
stable
set search_path = ''
as $$
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
    from bounds b
$$;
comment on function public.todays_overview() is
  'Sidebar "Today''s Overview": messages sent and replies received today in the customer''s time zone, plus the spec''s estimate (15% of sent, floored).';

create or replace function public.check_account_limit()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  current_count integer;
  allowed integer;
  plan text;
  status text;
  message text;
begin
  if me is null then
    raise exception 'User not authenticated' using errcode = '42501';
  end if;
  select count(*) into current_count from public.social_accounts a where a.user_id = me;
  -- The limit itself is computed by the same helper the insert trigger enforces.
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, status
    from internal.account_limit(me) l;
  if current_count >= allowed then
    message := case
      when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
      when status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
      else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
    end;
  end if;
  return jsonb_build_object('canAddAccount', current_count < allowed, 'currentCount', current_count,
    'limit', allowed, 'planType', plan, 'error', message);
end
$$;
comment on function public.check_account_limit() is
  'Spec §6 account-limit check for the caller: {canAddAccount, currentCount, limit, planType, error}. Free plan (no active or trialing subscription) allows 1 account.';

create or replace function public.campaign_stats(p_campaign_id uuid, p_days integer default 30)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  campaign public.campaigns;
  tz text;
  days integer := least(greatest(coalesce(p_days, 30), 1), 365);
  leads jsonb;
  per_day jsonb;
begin
  select * into campaign from public.campaigns c where c.id = p_campaign_id and c.user_id = (select auth.uid());
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'P0002';
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

  return jsonb_build_object(
    'campaignId', campaign.id,
    'status', campaign.status,
    'totalLeads', leads -> 'total',
    'leads', leads,
    'messagesSent', campaign.messages_sent,
    'totalAttempts', campaign.total_attempts,
    'responses', campaign.response_count,
    'replyRate', case when campaign.messages_sent = 0 then 0
                      else round(campaign.response_count * 100.0 / campaign.messages_sent, 1) end,
    'deliveryRate', case when campaign.total_attempts = 0 then 0
                         else round(campaign.messages_sent * 100.0 / campaign.total_attempts, 1) end,
    'progress', case when (leads ->> 'total')::int = 0 then 0
                     else round((leads ->> 'contacted')::int * 100.0 / (leads ->> 'total')::int, 1) end,
    'sentToday', case when campaign.sent_today_on = pg_catalog.timezone(tz, (select internal.now()))::date
                      then campaign.messages_sent_today else 0 end,
    'daysOff', (select coalesce(jsonb_agg(d), '[]'::jsonb) from public.campaign_days_off(campaign.id, null, 14) d),
    'perDay', per_day);
end
$$;
comment on function public.campaign_stats(uuid, integer) is
  'DM campaign detail figures: lead counts by state, sent, attempts, responses, reply and delivery rates (%), progress (% of leads contacted), the next 14 days'' days off, and per-day sent/failed/replies for the last p_days days (campaign time zone).';

create or replace function public.scraping_campaign_stats(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
  tz text;
  totals record;
  sources jsonb;
  per_day jsonb;
  recent jsonb;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.user_id = (select auth.uid());
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'P0002';
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
$$;
comment on function public.scraping_campaign_stats(uuid) is
  'Scraping campaign analytics: collected, valid, filtered, successRate (valid / collected %), collectionRate (valid / target %), qualityScore (% of valid leads with a bio), averagePerHour (collected per hour between first and last collection, at least one hour), sources with count and % of collected, per-day counts, the 10 most recent collections.';

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.lead_view from anon, authenticated;
grant select on public.lead_view to authenticated, service_role;
revoke execute on function public.dashboard_summary(), public.todays_overview(), public.check_account_limit(),
  public.campaign_stats(uuid, integer), public.scraping_campaign_stats(uuid) from public, anon;
grant execute on function public.dashboard_summary(), public.todays_overview(), public.check_account_limit(),
  public.campaign_stats(uuid, integer), public.scraping_campaign_stats(uuid) to authenticated, service_role;
-- The account-limit check reads the caller's subscriptions through this helper.
grant execute on function internal.account_limit(uuid) to authenticated, service_role;
