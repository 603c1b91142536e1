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
-- Duplicates are impossible: every queue has policy 'short' (one waiting job per singleton key),
-- and a campaign whose tick is still waiting or being worked gets no other.

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
  -- One expression without FROM, so the planner can inline it.
  select pg_catalog.timezone(schedule ->> 'timezone', at)::time >= (schedule ->> 'timeFrom')::time
     and pg_catalog.timezone(schedule ->> 'timezone', at)::time < (schedule ->> 'timeTo')::time
     and schedule -> 'activeDays' ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
           [pg_catalog.date_part('isodow', pg_catalog.timezone(schedule ->> 'timezone', at))::integer]
     and not (coalesce((schedule ->> 'randomDaysOff')::boolean, true)
              and internal.is_random_day_off(campaign_id, pg_catalog.timezone(schedule ->> 'timezone', at)::date))
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

create or replace function internal.job_defaults(p_queue text)
returns table (queue text, policy text, retry_limit integer, retry_delay integer, retry_backoff boolean, expire_in interval,
               retention interval)
language sql
stable
security definer
set search_path = ''
as $$
  -- The per-queue settings pg-boss's send() applies to a job that names none of its own.
  select q.name, q.policy, coalesce(q.retry_limit, 2),
         case when coalesce(q.retry_backoff, false) then greatest(coalesce(q.retry_delay, 0), 1) else coalesce(q.retry_delay, 0) end,
         coalesce(q.retry_backoff, false), coalesce(q.expire_seconds * interval '1 second', interval '15 minutes'),
         coalesce(q.retention_minutes * interval '1 minute', interval '14 days')
    from pgboss.queue q
   where q.name = p_queue
$$;
comment on function internal.job_defaults(text) is 'A pg-boss queue''s job settings (policy, retries, expiry, retention), as send() applies them.';

create or replace function internal.enqueue_job(p_queue text, p_data jsonb, p_singleton_key text, p_start_after timestamptz default now())
returns uuid
language sql
security definer
set search_path = ''
as $$
  -- As pg-boss's send(): the queue's settings apply; a waiting job with the same singleton key
  -- makes this a no-op (returns null).
  insert into pgboss.job (name, data, singleton_key, start_after, policy, retry_limit, retry_delay, retry_backoff,
                          expire_in, keep_until)
  select d.queue, p_data, p_singleton_key, p_start_after, d.policy, d.retry_limit, d.retry_delay, d.retry_backoff,
         d.expire_in, p_start_after + d.retention
    from internal.job_defaults(p_queue) d
  on conflict do nothing
  returning id
$$;
comment on function internal.enqueue_job(text, jsonb, text, timestamptz) is
  'Inserts one pg-boss job the way pg-boss''s send() does (queue settings, singleton key); null if an equal job is already waiting.';

create or replace function internal.enqueue_due_work()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  -- Which minute of the quarter hour (inbox syncs) and of ten minutes (completion checks) this is.
  epoch_minute constant bigint := floor(pg_catalog.date_part('epoch', t) / 60)::bigint;
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

  -- Local midnight: today's counter starts at zero (the caps already ignore a past day's count).
  update public.social_accounts a
     set messages_sent_today = 0, sent_today_on = pg_catalog.timezone(a.timezone, t)::date
   where a.messages_sent_today > 0 and a.sent_today_on < pg_catalog.timezone(a.timezone, t)::date;

  -- The first run of each local day per warming account: one warm-up phase per week since the
  -- warm-up started (the customer is told), and the day's warm-up step, queued to start in the
  -- local daytime (09:00 plus a per-account delay of up to 9 hours).
  with due as (
    select a.id, a.user_id, a.username, a.status, a.warmup_phase as old_phase, l.today,
           least(5, 1 + (l.today - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date) / 7) as phase,
           pg_catalog.timezone(a.timezone, l.today + interval '9 hours'
             + mod(pg_catalog.hashtext(a.id::text || l.today::text)::bigint + 2147483648, 540) * interval '1 minute') as start_at
      from public.social_accounts a
     cross join lateral (select pg_catalog.timezone(a.timezone, t)::date as today) l
     where a.warmup_phase < 5 and a.warmup_step_on is distinct from l.today
  ), stepped as (
    update public.social_accounts a
       set warmup_step_on = d.today, warmup_phase = greatest(a.warmup_phase, d.phase)
      from due d
     where a.id = d.id
    returning a.id, a.user_id, a.username, a.status, d.old_phase, a.warmup_phase as phase, d.today, d.start_at
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select s.user_id, 'warmup_phase_completed', 'Warm-up phase completed',
           case when s.phase = 5
             then format('@%s has finished warming up and can now send up to its full daily limit.', s.username)
             else format('@%s finished warm-up phase %s and can now send up to %s messages a day.',
                         s.username, s.old_phase, internal.warmup_daily_limit(s.phase)) end,
           jsonb_build_object('accountId', s.id, 'phase', s.phase)
      from stepped s
     where s.phase > s.old_phase
    returning 1
  ), queued as (
    insert into pgboss.job (name, data, singleton_key, start_after, policy, retry_limit, retry_delay, retry_backoff, expire_in, keep_until)
    select q.queue, jsonb_build_object('accountId', s.id), 'warmup:' || s.id || ':' || s.today,
           now() + greatest(interval '0', s.start_at - t), q.policy, q.retry_limit, q.retry_delay, q.retry_backoff, q.expire_in,
           now() + greatest(interval '0', s.start_at - t) + q.retention
      from stepped s cross join internal.job_defaults('warmup.step') q
     where s.status = 'active' and s.phase < 5
    on conflict do nothing
    returning 1
  )
  select (select count(*) from notified), (select count(*) from queued) into warmups_advanced, warmup_steps;

  -- Campaign ticks: one per account a minute, round-robin between its due campaigns (the one whose
  -- next send time passed first). A campaign with a tick still waiting or being worked gets none:
  -- the job is the lease. The runner sets next_action_at after each tick (its gap to the next send).
  with candidates as (
    select c.id, c.account_id, c.next_action_at
      from public.campaigns c
      join public.social_accounts a on a.id = c.account_id
      join public.platforms p on p.id = a.platform_id
     where c.status in ('queued', 'running', 'active')
       and coalesce(c.next_action_at, '-infinity'::timestamptz) <= t
       and a.status = 'active'
       and internal.campaign_window_open(c.id, c.schedule, t)
       and internal.campaign_sends_left_today(
             c.daily_message_limit, c.messages_sent_today, c.sent_today_on, c.schedule ->> 'timezone',
             a.daily_message_limit, a.messages_sent_today, a.sent_today_on, a.timezone,
             a.warmup_phase, p.daily_message_ceiling, t) > 0
       and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= t)
       -- One hashed set of unfinished ticks, not a probe per campaign: cheap whatever the statistics say.
       and ('campaign:' || c.id) not in (select j.singleton_key from pgboss.job j
                                          where j.name = 'campaign.tick' and j.state < 'completed' and j.singleton_key is not null)
  ), chosen as (
    select distinct on (x.account_id) x.id, x.account_id
      from candidates x
     order by x.account_id, x.next_action_at nulls first, x.id
  ), queued as (
    insert into pgboss.job (name, data, singleton_key, policy, retry_limit, retry_delay, retry_backoff, expire_in, keep_until)
    select q.queue, jsonb_build_object('campaignId', ch.id, 'accountId', ch.account_id), 'campaign:' || ch.id,
           q.policy, q.retry_limit, q.retry_delay, q.retry_backoff, q.expire_in, now() + q.retention
      from chosen ch cross join internal.job_defaults('campaign.tick') q
    on conflict do nothing
    returning (data ->> 'campaignId')::uuid as campaign_id
  ), started as (
    update public.campaigns c set status = 'running'
      from queued q
     where c.id = q.campaign_id and c.status = 'queued'
    returning 1
  )
  select count(*) into ticks from queued;

  -- Scraping runs, each leased for as long as the job may run; the runner sets the next run.
  with queued as (
    insert into pgboss.job (name, data, singleton_key, policy, retry_limit, retry_delay, retry_backoff, expire_in, keep_until)
    select q.queue, jsonb_build_object('scrapingCampaignId', s.id), 'scraping:' || s.id,
           q.policy, q.retry_limit, q.retry_delay, q.retry_backoff, q.expire_in, now() + q.retention
      from public.scraping_campaigns s
      join public.social_accounts a on a.id = s.account_id
     cross join internal.job_defaults('scrape.run') q
     where s.status = 'running' and (s.next_run_at is null or s.next_run_at <= t) and a.status = 'active'
    on conflict do nothing
    returning (data ->> 'scrapingCampaignId')::uuid as scraping_campaign_id, expire_in
  )
  update public.scraping_campaigns s
     set next_run_at = t + q.expire_in
    from queued q
   where s.id = q.scraping_campaign_id;
  get diagnostics scrape_runs = row_count;

  -- Inbox syncs: each active account in its own minute of the quarter hour.
  with queued as (
    insert into pgboss.job (name, data, singleton_key, policy, retry_limit, retry_delay, retry_backoff, expire_in, keep_until)
    select q.queue, jsonb_build_object('accountId', a.id), 'inbox:' || a.id,
           q.policy, q.retry_limit, q.retry_delay, q.retry_backoff, q.expire_in, now() + q.retention
      from public.social_accounts a
     cross join internal.job_defaults('inbox.sync') q
     where a.status = 'active'
       and mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 15) = mod(epoch_minute, 15)
    on conflict do nothing
    returning 1
  )
  select count(*) into inbox_syncs from queued;

  -- A running campaign whose account was removed cannot go on.
  with orphans as (
    update public.campaigns c
       set status = 'error', error_message = 'The campaign''s account was removed'
     where c.status in ('queued', 'running', 'active') and c.account_id is null
    returning c.id, c.user_id, c.name
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select o.user_id, 'campaign_failed', 'Campaign stopped', format('"%s" stopped because its account was removed.', o.name),
           jsonb_build_object('campaignId', o.id)
      from orphans o
    returning 1
  )
  select count(*) into orphaned from notified;

  -- Completed: nothing due now or later and nothing in flight. Each campaign is looked at in its
  -- own minute of ten, so a run probes a tenth of the running campaigns.
  with finished as (
    update public.campaigns c
       set status = 'completed'
     where c.status in ('queued', 'running', 'active')
       and mod(pg_catalog.hashtext(c.id::text)::bigint + 2147483648, 10) = mod(epoch_minute, 10)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at is not null)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.state = 'sending')
    returning c.id, c.user_id, c.name, c.messages_sent
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select f.user_id, 'campaign_completed', 'Campaign completed',
           format('"%s" has messaged all its leads (%s messages sent).', f.name, f.messages_sent),
           jsonb_build_object('campaignId', f.id)
      from finished f
    returning 1
  )
  select count(*) into completed from notified;

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
grant execute on function internal.enqueue_job(text, jsonb, text, timestamptz), internal.job_defaults(text) to service_role;
grant execute on function public.campaign_days_off(uuid, date, integer) to authenticated, service_role;
grant execute on function public.request_account_test(uuid) to authenticated, service_role;
