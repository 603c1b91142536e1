-- The scheduler: pg_cron runs internal.enqueue_due_work() every minute. It decides in SQL, by the
-- test-aware clock internal.now(), what the runner must do next and inserts pg-boss jobs:
--   campaign.tick  per DM campaign whose window is open now in its time zone, on an active day that
--                  is not one of its random days off, with a due lead, under every cap (campaign
--                  daily limit, account limit, warm-up limit, platform ceiling); one per account a
--                  minute, round-robin between an account's campaigns;
--   scrape.run     per running scraping campaign whose next run is due;
--   inbox.sync     per active account, each account every 15 minutes (spread over the quarter hour);
--   warmup.step    per warming account once a day, queued at local midnight for a daytime start.
-- It also resets daily counters and advances warm-up at local midnight, resumes accounts whose
-- pause ended, marks sends never confirmed as uncertain, and completes finished campaigns.
-- Duplicates are impossible: every queue has policy 'short' (one waiting job per singleton key)
-- and a campaign gets a lease (next_action_at) when its tick is queued.

-- Helper functions -----------------------------------------------------------------------------
-- The per-row helpers below have no SET search_path on purpose: the planner inlines such SQL
-- functions into the scheduler's query (10,000 campaigns a minute). Every name in them is
-- schema-qualified, and they run with the caller's rights.

create or replace function internal.warmup_daily_limit(phase integer)
returns integer
language sql
immutable
as $$
  select case phase when 1 then 10 when 2 then 20 when 3 then 35 when 4 then 50 end
$$;
comment on function internal.warmup_daily_limit(integer) is
  'DMs a day an account may send in a warm-up phase (1: 10, 2: 20, 3: 35, 4: 50); null once warmed up (phase 5).';

create or replace function internal.is_random_day_off(campaign_id uuid, day date)
returns boolean
language sql
immutable
as $$
  -- A stable pseudo-random draw per campaign and date: about one day in seven is off.
  select mod(pg_catalog.abs(('x' || pg_catalog.left(pg_catalog.md5(campaign_id::text || ':' || day::text), 7))::bit(28)::integer), 7) = 0
$$;
comment on function internal.is_random_day_off(uuid, date) is
  'True on the campaign''s random days off: deterministic per campaign and date, about one active day in seven.';

create or replace function internal.campaign_window_open(campaign_id uuid, schedule jsonb, at timestamptz)
returns boolean
language sql
stable
as $$
  select (local_ts)::time >= (schedule ->> 'timeFrom')::time
     and (local_ts)::time < (schedule ->> 'timeTo')::time
     and schedule -> 'activeDays' ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
           [pg_catalog.date_part('isodow', local_ts)::integer]
     and not (coalesce((schedule ->> 'randomDaysOff')::boolean, true)
              and internal.is_random_day_off(campaign_id, (local_ts)::date))
    from (select pg_catalog.timezone(schedule ->> 'timezone', at) as local_ts) l
$$;
comment on function internal.campaign_window_open(uuid, jsonb, timestamptz) is
  'True when the schedule''s window (timeFrom inclusive, timeTo exclusive) is open at that instant in the schedule''s time zone, on an active day that is not a random day off.';

create or replace function internal.campaign_sends_left_today(
  campaign_limit integer, campaign_sent integer, campaign_sent_on date, campaign_tz text,
  account_limit integer, account_sent integer, account_sent_on date, account_tz text,
  warmup_phase integer, platform_ceiling integer, at timestamptz)
returns integer
language sql
stable
as $$
  select least(
    campaign_limit
      - case when campaign_sent_on = pg_catalog.timezone(campaign_tz, at)::date then campaign_sent else 0 end,
    least(account_limit, coalesce(internal.warmup_daily_limit(warmup_phase), platform_ceiling), platform_ceiling)
      - case when account_sent_on = pg_catalog.timezone(account_tz, at)::date then account_sent else 0 end)
$$;
comment on function internal.campaign_sends_left_today(integer, integer, date, text, integer, integer, date, text, integer, integer, timestamptz) is
  'How many more DMs a campaign may send today: the lowest of its daily limit, the account''s limit, the warm-up limit and the platform ceiling, minus what went out today (each in its own time zone).';

create or replace function internal.sends_left_today(p_campaign_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select greatest(0, internal.campaign_sends_left_today(
           c.daily_message_limit, c.messages_sent_today, c.sent_today_on, c.schedule ->> 'timezone',
           a.daily_message_limit, a.messages_sent_today, a.sent_today_on, a.timezone,
           a.warmup_phase, p.daily_message_ceiling, internal.now()))
    from public.campaigns c
    join public.social_accounts a on a.id = c.account_id
    join public.platforms p on p.id = a.platform_id
   where c.id = p_campaign_id
$$;
comment on function internal.sends_left_today(uuid) is
  'For the runner, right before a send: DMs the campaign may still send today under every cap (0 when none; null without an account).';

create or replace function internal.enqueue_job(p_queue text, p_data jsonb, p_singleton_key text, p_start_after timestamptz default now())
returns uuid
language sql
security definer
set search_path = ''
as $$
  -- As pg-boss's insertJob: the queue's policy, retry and expiry settings apply; a waiting job with
  -- the same singleton key makes this a no-op (returns null).
  insert into pgboss.job (name, data, singleton_key, start_after, policy, retry_limit, retry_delay, retry_backoff,
                          expire_in, keep_until, dead_letter)
  select q.name, p_data, p_singleton_key, p_start_after, q.policy, coalesce(q.retry_limit, 2),
         case when coalesce(q.retry_backoff, false) then greatest(coalesce(q.retry_delay, 0), 1) else coalesce(q.retry_delay, 0) end,
         coalesce(q.retry_backoff, false), coalesce(q.expire_seconds * interval '1 second', interval '15 minutes'),
         p_start_after + coalesce(q.retention_minutes * interval '1 minute', interval '14 days'), q.dead_letter
    from pgboss.queue q
   where q.name = p_queue
  on conflict do nothing
  returning id
$$;
comment on function internal.enqueue_job(text, jsonb, text, timestamptz) is
  'Inserts one pg-boss job the way pg-boss''s send() does (queue defaults, singleton key); null if an equal job is already waiting.';

create or replace function internal.enqueue_due_work()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  tick_queue pgboss.queue;
  unconfirmed integer;
  resumed integer;
  warmups_advanced integer;
  warmup_steps integer;
  ticks integer;
  scrape_runs integer;
  inbox_syncs integer;
  completed integer;
  orphaned integer;
  summary jsonb;
begin
  -- Sends the runner started but never confirmed within 30 minutes may have gone out: uncertain.
  update public.campaign_leads l
     set state = 'uncertain', last_error = coalesce(l.last_error, 'The send was not confirmed within 30 minutes')
   where l.state = 'sending' and l.updated_at < now() - interval '30 minutes';
  get diagnostics unconfirmed = row_count;

  -- Circuit breaker: a paused account sends again once its pause is over.
  update public.social_accounts a
     set status = 'active', paused_until = null
   where a.status = 'paused' and a.paused_until <= t;
  get diagnostics resumed = row_count;

  -- Local midnight: today's counters start at zero (the caps already ignore a past day's count).
  update public.social_accounts a
     set messages_sent_today = 0, sent_today_on = pg_catalog.timezone(a.timezone, t)::date
   where a.messages_sent_today > 0 and a.sent_today_on < pg_catalog.timezone(a.timezone, t)::date;
  update public.campaigns c
     set messages_sent_today = 0, sent_today_on = pg_catalog.timezone(c.schedule ->> 'timezone', t)::date
   where c.messages_sent_today > 0 and c.sent_today_on < pg_catalog.timezone(c.schedule ->> 'timezone', t)::date;

  -- Warm-up: one phase per local week since the warm-up started; tell the customer at each step.
  with advanced as (
    update public.social_accounts a
       set warmup_phase = w.phase
      from (select x.id, x.warmup_phase as old_phase,
                   least(5, 1 + (pg_catalog.timezone(x.timezone, t)::date - pg_catalog.timezone(x.timezone, x.warmup_started_at)::date) / 7) as phase
              from public.social_accounts x
             where x.warmup_phase < 5) w
     where a.id = w.id and w.phase > w.old_phase
    returning a.id, a.user_id, a.username, w.old_phase, a.warmup_phase
  )
  select count(n.id) into warmups_advanced from (
    select internal.notify(v.user_id, 'warmup_phase_completed', 'Warm-up phase completed',
             case when v.warmup_phase = 5
               then format('@%s has finished warming up and can now send up to its full daily limit.', v.username)
               else format('@%s finished warm-up phase %s and can now send up to %s messages a day.',
                           v.username, v.old_phase, internal.warmup_daily_limit(v.warmup_phase)) end,
             jsonb_build_object('accountId', v.id, 'phase', v.warmup_phase)) as id
      from advanced v) n;

  -- One warm-up step per warming account and local day, queued at midnight to start in the daytime
  -- (09:00 plus a per-account delay of up to 9 hours, local time).
  with due as (
    select a.id, pg_catalog.timezone(a.timezone, t)::date as today,
           pg_catalog.timezone(a.timezone, pg_catalog.timezone(a.timezone, t)::date + interval '9 hours'
             + mod(pg_catalog.abs(pg_catalog.hashtext(a.id::text || pg_catalog.timezone(a.timezone, t)::date::text))::bigint, 540) * interval '1 minute') as start_at
      from public.social_accounts a
     where a.status = 'active' and a.warmup_phase < 5
       and a.warmup_step_on is distinct from pg_catalog.timezone(a.timezone, t)::date
  ), queued as (
    select d.id, d.today,
           internal.enqueue_job('warmup.step', jsonb_build_object('accountId', d.id),
             'warmup:' || d.id || ':' || d.today, now() + greatest(interval '0', d.start_at - t)) as job_id
      from due d
  )
  update public.social_accounts a set warmup_step_on = q.today
    from queued q where a.id = q.id;
  get diagnostics warmup_steps = row_count;

  -- Campaign ticks.
  select * into tick_queue from pgboss.queue q where q.name = 'campaign.tick';
  with candidates as (
    select c.id, c.account_id, c.last_enqueued_at
      from public.campaigns c
      join public.social_accounts a on a.id = c.account_id
      join public.platforms p on p.id = a.platform_id
     where c.status in ('queued', 'running', 'active')
       and (c.next_action_at is null or c.next_action_at <= t)
       and a.status = 'active'
       and internal.campaign_window_open(c.id, c.schedule, t)
       and internal.campaign_sends_left_today(
             c.daily_message_limit, c.messages_sent_today, c.sent_today_on, c.schedule ->> 'timezone',
             a.daily_message_limit, a.messages_sent_today, a.sent_today_on, a.timezone,
             a.warmup_phase, p.daily_message_ceiling, t) > 0
       and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= t)
  ), chosen as (
    select distinct on (x.account_id) x.id, x.account_id
      from candidates x
     order by x.account_id, x.last_enqueued_at nulls first, x.id
  ), queued as (
    insert into pgboss.job (name, data, singleton_key, policy, retry_limit, retry_delay, retry_backoff, expire_in, keep_until)
    select tick_queue.name, jsonb_build_object('campaignId', ch.id, 'accountId', ch.account_id), 'campaign:' || ch.id,
           tick_queue.policy, coalesce(tick_queue.retry_limit, 0), coalesce(tick_queue.retry_delay, 0),
           coalesce(tick_queue.retry_backoff, false),
           coalesce(tick_queue.expire_seconds * interval '1 second', interval '15 minutes'),
           now() + coalesce(tick_queue.retention_minutes * interval '1 minute', interval '14 days')
      from chosen ch
    on conflict do nothing
    returning (data ->> 'campaignId')::uuid as campaign_id
  )
  update public.campaigns c
     set last_enqueued_at = t,
         -- A lease as long as the job may run; the runner replaces it with the gap to the next send.
         next_action_at = t + coalesce(tick_queue.expire_seconds * interval '1 second', interval '15 minutes'),
         status = case when c.status = 'queued' then 'running' else c.status end
    from queued q
   where c.id = q.campaign_id;
  get diagnostics ticks = row_count;

  -- Scraping runs.
  with due as (
    select s.id
      from public.scraping_campaigns s
      join public.social_accounts a on a.id = s.account_id
     where s.status = 'running' and (s.next_run_at is null or s.next_run_at <= t) and a.status = 'active'
  ), queued as (
    select d.id, internal.enqueue_job('scrape.run', jsonb_build_object('scrapingCampaignId', d.id), 'scraping:' || d.id) as job_id
      from due d
  )
  update public.scraping_campaigns s
     set next_run_at = t + interval '30 minutes'
    from queued q
   where s.id = q.id and q.job_id is not null;
  get diagnostics scrape_runs = row_count;

  -- Inbox syncs: each active account in its own minute of the quarter hour.
  select count(job_id) into inbox_syncs from (
    select internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', a.id), 'inbox:' || a.id) as job_id
      from public.social_accounts a
     where a.status = 'active'
       and mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 15) = mod((pg_catalog.date_part('epoch', t) / 60)::bigint, 15)
  ) s;

  -- A running campaign whose account was removed cannot go on.
  with orphans as (
    update public.campaigns c
       set status = 'error', error_message = 'The campaign''s account was removed'
     where c.status in ('queued', 'running', 'active') and c.account_id is null
    returning c.id, c.user_id, c.name
  )
  select count(internal.notify(o.user_id, 'campaign_failed', 'Campaign stopped',
           format('"%s" stopped because its account was removed.', o.name), jsonb_build_object('campaignId', o.id)))
    into orphaned from orphans o;

  -- Completed: nothing due now or later and nothing in flight.
  with finished as (
    update public.campaigns c
       set status = 'completed'
     where c.status in ('queued', 'running', 'active')
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at is not null)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.state = 'sending')
    returning c.id, c.user_id, c.name, c.messages_sent
  )
  select count(internal.notify(f.user_id, 'campaign_completed', 'Campaign completed',
           format('"%s" has messaged all its leads (%s messages sent).', f.name, f.messages_sent),
           jsonb_build_object('campaignId', f.id)))
    into completed from finished f;

  summary := jsonb_build_object('at', t, 'campaignTicks', ticks, 'scrapeRuns', scrape_runs, 'inboxSyncs', inbox_syncs,
    'warmupSteps', warmup_steps, 'warmupsAdvanced', warmups_advanced, 'accountsResumed', resumed,
    'sendsUnconfirmed', unconfirmed, 'campaignsCompleted', completed, 'campaignsOrphaned', orphaned);
  -- The admin Logs tab shows the minutes in which the scheduler did something.
  if ticks + scrape_runs + inbox_syncs + warmup_steps + warmups_advanced + resumed + unconfirmed + completed + orphaned > 0 then
    insert into public.system_logs (level, service, message, metadata)
    values ('info', 'scheduler',
            format('Queued %s campaign ticks, %s scraping runs, %s inbox syncs, %s warm-up steps', ticks, scrape_runs,
                   inbox_syncs, warmup_steps),
            summary);
  end if;
  return summary;
end
$$;
comment on function internal.enqueue_due_work() is
  'Run by pg_cron every minute: queues due campaign ticks, scraping runs, inbox syncs and warm-up steps, and does the daily bookkeeping. Returns what it did.';

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.campaign_days_off(p_campaign_id uuid, p_from date default null, p_days integer default 28)
returns setof date
language sql
stable
set search_path = ''
as $$
  select d::date
    from public.campaigns c
   cross join lateral pg_catalog.generate_series(
           coalesce(p_from, pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date),
           coalesce(p_from, pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date)
             + (least(greatest(coalesce(p_days, 28), 1), 366) - 1),
           interval '1 day') d
   where c.id = p_campaign_id
     and coalesce((c.schedule ->> 'randomDaysOff')::boolean, true)
     and c.schedule -> 'activeDays' ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
           [pg_catalog.date_part('isodow', d)::integer]
     and internal.is_random_day_off(c.id, d::date)
   order by 1
$$;
comment on function public.campaign_days_off(uuid, date, integer) is
  'The campaign''s random days off (active days it will not send) from p_from (default: today in its time zone) for p_days days (1-366). Under RLS: only the owner''s campaigns.';

create or replace function public.request_account_test(p_account_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  job_id uuid;
begin
  if (select auth.role()) is distinct from 'service_role'
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.user_id = (select auth.uid())) then
    raise exception 'Account not found' using errcode = 'P0002';
  end if;
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', p_account_id), 'account:' || p_account_id);
  return job_id;
end
$$;
comment on function public.request_account_test(uuid) is
  'Queues an account.test job for one of the caller''s accounts (the service role: any account). Returns the job id, or null when a test is already waiting.';

-- Schedule -------------------------------------------------------------------------------------

-- On hosted Supabase pg_cron lives in pg_catalog and postgres is granted the cron schema.
create extension if not exists pg_cron with schema pg_catalog;
grant usage on schema cron to postgres;
grant all privileges on all tables in schema cron to postgres;

select cron.schedule('reachflow-enqueue-due-work', '* * * * *', 'select internal.enqueue_due_work()');
-- Housekeeping: pg_cron's run history and the system log keep two weeks.
select cron.schedule('reachflow-purge-history', '17 3 * * *',
  $$delete from cron.job_run_details where end_time < now() - interval '14 days';
    delete from public.system_logs where created_at < now() - interval '14 days'$$);

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke execute on function public.campaign_days_off(uuid, date, integer) from public, anon;
revoke execute on function public.request_account_test(uuid) from public, anon;
grant execute on function internal.warmup_daily_limit(integer), internal.is_random_day_off(uuid, date),
  internal.campaign_window_open(uuid, jsonb, timestamptz) to authenticated, service_role, reachflow_runner;
grant execute on function internal.sends_left_today(uuid) to service_role, reachflow_runner;
grant execute on function internal.enqueue_due_work() to service_role;
grant execute on function public.campaign_days_off(uuid, date, integer) to authenticated, service_role;
grant execute on function public.request_account_test(uuid) to authenticated, service_role;
