-- Figures that add up: every figure the dashboard, the campaign cards and details and the admin tab
-- show is the count of the rows it names (docs/database.md, "Figures and what they count").
--  * A DM campaign's target count was the daily limit (or 100) the create call carried, so a source
--    of 40 leads read "Target count 50" and the admin "4/50". It is now the people the campaign will
--    message or has messaged: its leads not skipped, plus skipped ones it had already messaged (a
--    follow-up stopped by do-not-contact). Kept by triggers on campaign_leads; writes from outside
--    are ignored, as for the other counters.
--  * The delivery rate counted an unconfirmed send (still being checked) as a failure: 2 sent and 1
--    in flight read 66.7 % with nothing failed. It is now delivered / (delivered + not delivered),
--    unconfirmed sends left out until their check says which; messages_failed counts the messages
--    whose log says not delivered now (a retry that went out no longer counts as failed).
--  * Progress (% contacted) is of the target, so skipped leads no longer hold a finished campaign
--    below 100 %; the admin tab's "Sent / Target" becomes contacted / target (messages sent include
--    follow-ups, so they could pass the target).
--  * A retried send that crossed midnight moved its daily figures between the wrong days.

-- Tables ---------------------------------------------------------------------------------------

alter table public.campaigns drop constraint campaigns_target_count_check;
alter table public.campaigns alter column target_count set default 0;
alter table public.campaigns add constraint campaigns_target_count_check check (target_count >= 0);
comment on column public.campaigns.target_count is
  'People the campaign will message or has messaged: leads not skipped, plus skipped ones already messaged. Kept by triggers; written values are ignored.';
comment on column public.campaigns.messages_failed is 'Messages whose log says not delivered now (failed or error); a retry that went out leaves this count.';
comment on column public.campaigns.total_attempts is
  'Messages logged (one per lead and step; a retry reuses its row): sent + failed + unconfirmed. The delivery rate leaves the unconfirmed out.';

-- Helper functions -----------------------------------------------------------------------------

create or replace function internal.is_campaign_target(p_state text, p_last_sent_at timestamptz)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_state <> 'skipped' or p_last_sent_at is not null
$$;
comment on function internal.is_campaign_target(text, timestamptz) is
  'Whether a campaign lead counts in its campaign''s target: not skipped, or skipped after it was messaged.';

-- Triggers -------------------------------------------------------------------------------------

create or replace function internal.count_campaign_targets()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.campaigns c set target_count = c.target_count + x.n
      from (select r.campaign_id, count(*) as n from added r
             where internal.is_campaign_target(r.state, r.last_sent_at) group by 1) x
     where c.id = x.campaign_id;
  elsif tg_op = 'DELETE' then
    update public.campaigns c set target_count = greatest(0, c.target_count - x.n)
      from (select r.campaign_id, count(*) as n from removed r
             where internal.is_campaign_target(r.state, r.last_sent_at) group by 1) x
     where c.id = x.campaign_id;
  else
    update public.campaigns c
       set target_count = greatest(0, c.target_count
                                      + case when internal.is_campaign_target(new.state, new.last_sent_at) then 1 else -1 end)
     where c.id = new.campaign_id;
  end if;
  return null;
end
$$;
comment on function internal.count_campaign_targets() is
  'AFTER INSERT/DELETE (per statement) and UPDATE (per lead whose membership changed) on campaign_leads: keeps campaigns.target_count.';

create trigger campaign_leads_count_targets_insert
  after insert on public.campaign_leads
  referencing new table as added
  for each statement execute function internal.count_campaign_targets();
create trigger campaign_leads_count_targets_delete
  after delete on public.campaign_leads
  referencing old table as removed
  for each statement execute function internal.count_campaign_targets();
create trigger campaign_leads_count_targets_update
  after update of state, last_sent_at on public.campaign_leads
  for each row
  -- internal.is_campaign_target spelled out: a WHEN runs with the rights of whoever updates the lead
  when ((old.state <> 'skipped' or old.last_sent_at is not null) is distinct from (new.state <> 'skipped' or new.last_sent_at is not null))
  execute function internal.count_campaign_targets();

create or replace function internal.keep_campaign_target()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- only count_campaign_targets (a trigger's own update, one level down) sets it
  if tg_op = 'INSERT' then
    new.target_count := 0;
  elsif pg_catalog.pg_trigger_depth() = 1 then
    new.target_count := old.target_count;
  end if;
  return new;
end
$$;
comment on function internal.keep_campaign_target() is
  'BEFORE INSERT/UPDATE of target_count on campaigns: the counter starts at 0 and changes only through count_campaign_targets.';

create trigger campaigns_keep_target
  before insert or update of target_count on public.campaigns
  for each row execute function internal.keep_campaign_target();

revoke execute on function internal.is_campaign_target(text, timestamptz), internal.count_campaign_targets(),
  internal.keep_campaign_target() from public;

-- Counters (as in 20261122000600 and 20261122000650; the changed lines are commented) -------------

create or replace function internal.count_dm_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was_sent boolean := tg_op = 'UPDATE' and old.status = 'sent';
  was_failed boolean := tg_op = 'UPDATE' and old.status in ('failed', 'error');
  counts_today boolean := tg_op = 'INSERT' and new.status in ('sent', 'uncertain');
  platform_name text;
begin
  update public.campaigns c
     set total_attempts = c.total_attempts + case when tg_op = 'INSERT' then 1 else 0 end,
         messages_sent = c.messages_sent + case when new.status = 'sent' and not was_sent then 1 else 0 end,
         -- the messages whose log says not delivered now: a retry that leaves failed takes it back
         messages_failed = c.messages_failed + case when new.status in ('failed', 'error') and not was_failed then 1 else 0 end
                                             - case when was_failed and new.status not in ('failed', 'error') then 1 else 0 end,
         -- Today's counter (in the schedule's zone) counts anything that may have gone out.
         messages_sent_today = case
           when not counts_today then c.messages_sent_today
           when c.sent_today_on = (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then c.messages_sent_today + 1
           when c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then 1
           else c.messages_sent_today end,
         sent_today_on = case
           when counts_today and (c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date)
             then (new.sent_at at time zone (c.schedule ->> 'timezone'))::date
           else c.sent_today_on end
   where c.id = new.campaign_id;

  if counts_today and new.account_id is not null then
    update public.social_accounts a
       set messages_sent_today = case
             when a.sent_today_on = (new.sent_at at time zone a.timezone)::date then a.messages_sent_today + 1
             when a.sent_today_on is null or a.sent_today_on < (new.sent_at at time zone a.timezone)::date then 1
             else a.messages_sent_today end,
           sent_today_on = greatest(a.sent_today_on, (new.sent_at at time zone a.timezone)::date)
     where a.id = new.account_id;
  end if;

  if new.status in ('sent', 'uncertain') then
    select p.name into platform_name
      from public.campaigns c join public.platforms p on p.id = c.platform_id where c.id = new.campaign_id;
    insert into public.contact_ledger (user_id, platform, target_username, first_contacted_at, campaign_id, account_id)
    values (new.user_id, platform_name, new.target_username, new.sent_at, new.campaign_id, new.account_id)
    on conflict do nothing;
  end if;
  return null;
end
$$;
comment on function internal.count_dm_log() is
  'AFTER INSERT/UPDATE of status on dm_logs: campaign counters (messages_failed = logs failed or error now), today''s counters of campaign and account, and the contact ledger.';

create or replace function internal.count_daily_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, attempts, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date, 1,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set attempts = s.attempts + 1,
           sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  else
    -- A resolved send (uncertain -> sent or failed) moves between columns: out of the day it was
    -- counted on (old.sent_at), into the day of its new time (a retry stamps the time it went out).
    update public.campaign_daily_stats s
       set sent = s.sent - (old.status = 'sent')::int,
           failed = greatest(0, s.failed - (old.status in ('failed', 'error'))::int),
           uncertain = greatest(0, s.uncertain - (old.status = 'uncertain')::int)
      from public.campaigns c
     where c.id = new.campaign_id and s.campaign_id = c.id
       and s.day = pg_catalog.timezone(c.schedule ->> 'timezone', old.sent_at)::date;
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  end if;
  return null;
end
$$;
comment on function internal.count_daily_message() is
  'AFTER INSERT/UPDATE of status on dm_logs: moves the log''s day figures (attempts on the day it was logged; sent, failed, uncertain on the day of its sent_at).';

-- The counters as the rows say, for campaigns that ran before ------------------------------------

update public.campaigns c
   set messages_failed = x.failed
  from (select d.campaign_id, count(*) filter (where d.status in ('failed', 'error')) as failed
          from public.dm_logs d group by 1) x
 where c.id = x.campaign_id and c.messages_failed is distinct from x.failed;
update public.campaigns c set messages_failed = 0
 where c.messages_failed <> 0 and not exists (select 1 from public.dm_logs d where d.campaign_id = c.id);
-- a direct update at depth 1 is ignored by keep_campaign_target: set it from one level down
create temporary table campaign_targets on commit drop as
select c.id, count(l.id) filter (where internal.is_campaign_target(l.state, l.last_sent_at)) as n
  from public.campaigns c left join public.campaign_leads l on l.campaign_id = c.id
 group by c.id;
alter table public.campaigns disable trigger campaigns_keep_target;
update public.campaigns c set target_count = t.n from campaign_targets t where t.id = c.id and c.target_count <> t.n;
alter table public.campaigns enable trigger campaigns_keep_target;

-- Reads (as in 20261122001300 and 20261123400000; only the delivery rate, progress and target changed)

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
    'messagesFailed', campaign.messages_failed,
    'messagesUncertain', campaign.total_attempts - campaign.messages_sent - campaign.messages_failed,
    'target', campaign.target_count,
    -- of the messages whose outcome is known: an unconfirmed one is neither delivered nor failed yet
    'deliveryRate', case when campaign.messages_sent + campaign.messages_failed = 0 then 0
                         else round(campaign.messages_sent * 100.0 / (campaign.messages_sent + campaign.messages_failed), 1) end,
    'progress', case when campaign.target_count = 0 then 0
                     else round((leads ->> 'contacted')::int * 100.0 / campaign.target_count, 1) end,
    'sentToday', case when campaign.sent_today_on = pg_catalog.timezone(tz, (select internal.now()))::date
                      then campaign.messages_sent_today else 0 end,
    'daysOff', (select coalesce(jsonb_agg(d), '[]'::jsonb) from public.campaign_days_off(campaign.id, null, 14) d),
    'perDay', per_day);
end
$$;
comment on function public.campaign_stats(uuid, integer) is
  'DM campaign detail figures: lead counts by state, sent, failed (not delivered now), unconfirmed, attempts, responses, target (people it will message), reply rate (responses / sent), delivery rate (sent / (sent + failed), unconfirmed left out), progress (% of the target contacted), the next 14 days'' days off, and per-day sent/failed/replies for the last p_days days (campaign time zone).';

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
           case when ct.sent + ct.failed = 0 then 0 else round(ct.sent * 100.0 / (ct.sent + ct.failed), 1) end,
           case when w.sent_now + w.failed_now = 0 or w.sent_before + w.failed_before = 0 then null
                else round(w.sent_now * 100.0 / (w.sent_now + w.failed_now)
                           - w.sent_before * 100.0 / (w.sent_before + w.failed_before), 1) end,
           at.active, at.new_active,
           ct.active, ct.new_active
      from windows w, campaign_totals ct, account_totals at;
end
$$;

comment on function public.dashboard_summary() is
  'The four stat cards. messages_sent: all time, change = % of this week (today and the 6 days before, as each campaign counts days) vs the 7 days before (null without a baseline). delivery_rate: sent / (sent + failed) %, unconfirmed sends left out; change in points between the two weeks. active_accounts / active_campaigns: now, change = how many of them are new in the last 7 days.';

-- Admin: contacted / target (people) instead of messages sent / the create call's number ---------------

drop function public.admin_campaigns(integer);
create function public.admin_campaigns(p_limit integer default 500)
returns table (id uuid, name text, user_email text, status text, messages_sent integer, contacted integer,
               target_count integer, response_count integer, started_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.name, u.email::text, c.status, c.messages_sent,
         (select count(*)::integer from public.campaign_leads l where l.campaign_id = c.id and l.last_sent_at is not null),
         c.target_count, c.response_count, c.started_at
    from public.campaigns c
    join auth.users u on u.id = c.user_id
   order by c.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_campaigns(integer) is
  'Admin Campaigns table: every customer''s DM campaigns, newest first, with messages sent, people contacted and the target (people it will message).';
revoke execute on function public.admin_campaigns(integer) from public, anon, authenticated;
grant execute on function public.admin_campaigns(integer) to service_role;
