-- The scheduler: what pg_cron runs every minute to queue due work for the runner.

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.drop_waiting_jobs(p_queues text[], p_field text, p_ids uuid[], p_remove boolean)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Only jobs no runner holds yet ('created', 'retry'); a running job re-checks its row itself.
  if p_remove then
    delete from pgboss.job j
     where j.name = any (p_queues) and j.state in ('created', 'retry')
       and j.data ->> p_field = any (p_ids::text[]);
  else
    update pgboss.job j
       set state = 'cancelled', completed_on = now()
     where j.name = any (p_queues) and j.state in ('created', 'retry')
       and j.data ->> p_field = any (p_ids::text[]);
  end if;
  get diagnostics affected = row_count;
  return affected;
end
$$;
comment on function internal.drop_waiting_jobs(text[], text, uuid[], boolean) is
  'Cancels (or, with p_remove, deletes) the waiting jobs of those queues whose data names one of p_ids under p_field. Active jobs are left to finish: they re-check their row.';

create or replace function internal.enqueue_due_work()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  -- At most this many campaign ticks a run, the longest-waiting first. A minute after a deploy or an
  -- outage finds every campaign due at once (4,400 at 10,000 campaigns), more than a fleet of runners
  -- takes in a minute, and each queued job costs about 50 microseconds (pg-boss's 18 indexes and two
  -- foreign keys); queueing them over a few minutes keeps the run inside its 250 ms. Steady state at
  -- 100 DMs a day is one tick per account every 14.4 minutes: this cap is 14,400 such accounts, and
  -- then it is raised with the fleet (the run's summary says when it queued the cap). A test lowers
  -- it with `set local reachflow.tick_cap`.
  tick_cap constant integer := coalesce(nullif(pg_catalog.current_setting('reachflow.tick_cap', true), '')::integer, 1000);
  unconfirmed integer;
  resumed integer;
  warmups_advanced integer;
  warmup_steps integer;
  ticks integer;
  scrape_runs integer;
  inbox_syncs integer;
  orphaned integer;
  completed integer;
  summary jsonb;
begin
  -- One function per concern, in this order: an account resumed or starting a new day gets its tick
  -- in this very run, and campaigns are checked for an end after the ticks.
  unconfirmed := internal.scheduler_mark_unconfirmed_sends();
  resumed := internal.scheduler_resume_paused_accounts(t);
  perform internal.scheduler_reset_daily_counts(t);
  select w.advanced, w.steps into warmups_advanced, warmup_steps from internal.scheduler_step_warmups(t) w;
  ticks := internal.scheduler_queue_campaign_ticks(t, tick_cap);
  scrape_runs := internal.scheduler_queue_scrape_runs(t);
  inbox_syncs := internal.scheduler_queue_inbox_syncs(t);
  orphaned := internal.scheduler_stop_orphaned_campaigns();
  completed := internal.scheduler_complete_campaigns(t);
  perform internal.scheduler_expire_oauth_requests(t);

  summary := jsonb_build_object('at', t, 'campaignTicks', ticks, 'tickCapReached', ticks >= tick_cap,
    'scrapeRuns', scrape_runs, 'inboxSyncs', inbox_syncs,
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
  'Run by pg_cron every minute: queues due campaign ticks, scraping runs, inbox syncs (internal.inbox_syncs_due) and warm-up steps (not for platform actions paused after a site change), and does the daily bookkeeping. Returns what it did; each concern is one internal.scheduler_* function.';

create or replace function internal.enqueue_job(p_queue text, p_data jsonb, p_singleton_key text, p_start_after timestamp with time zone default now())
returns uuid
language sql
security definer
set search_path = ''
as $$
  select e.id
    from internal.enqueue_jobs(p_queue, jsonb_build_array(
           jsonb_build_object('data', p_data, 'singletonKey', p_singleton_key, 'startAfter', p_start_after))) e
$$;
comment on function internal.enqueue_job(text, jsonb, text, timestamp with time zone) is
  'Inserts one pg-boss job the way pg-boss''s send() does (queue settings, singleton key); null if an equal job is already waiting.';

create or replace function internal.enqueue_jobs(p_queue text, p_jobs jsonb)
returns table(id uuid, data jsonb, start_after timestamp with time zone, expire_seconds integer)
language sql
security definer
set search_path = ''
as $$
  -- As pg-boss 12's insert(): each job takes the queue's settings (policy, retries, expiry,
  -- deletion, retention from its start); a job whose singleton key is already waiting is skipped.
  -- p_jobs: [{data, singletonKey, startAfter?}].
  insert into pgboss.job as j (name, data, singleton_key, start_after, policy, retry_limit, retry_delay, retry_backoff,
                               retry_delay_max, expire_seconds, deletion_seconds, keep_until, dead_letter, heartbeat_seconds)
  select q.name, e.value -> 'data', e.value ->> 'singletonKey', s.start_after, q.policy, q.retry_limit, q.retry_delay,
         q.retry_backoff, q.retry_delay_max, q.expire_seconds, q.deletion_seconds,
         s.start_after + q.retention_seconds * interval '1 second', q.dead_letter, q.heartbeat_seconds
    from pgboss.queue q
   cross join jsonb_array_elements(coalesce(p_jobs, '[]'::jsonb)) e
   cross join lateral (select coalesce((e.value ->> 'startAfter')::timestamptz, now()) as start_after) s
   where q.name = p_queue
  on conflict do nothing
  returning j.id, j.data, j.start_after, j.expire_seconds
$$;
comment on function internal.enqueue_jobs(text, jsonb) is
  'Inserts pg-boss jobs the way pg-boss 12''s insert() does ([{data, singletonKey, startAfter?}]); returns the ones queued (equal waiting jobs are skipped).';

create or replace function internal.enqueue_platform_canaries()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  settings record;
  queued integer := 0;
begin
  -- A run nobody finished within 15 minutes died with its job: say so, and let the next one go.
  update public.platform_canary_runs r
     set status = 'error', error = 'The canary job did not finish (the runner stopped or the job expired).',
         finished_at = t
   where r.status in ('queued', 'running') and r.created_at < t - interval '15 minutes';

  for settings in select s.* from public.platform_canary_settings s order by s.platform loop
    -- Every few minutes; every minute while something on the platform is paused, to resume soon.
    continue when exists (select 1 from public.platform_canary_runs r
                           where r.platform = settings.platform and r.trigger <> 'try'
                             and (r.status in ('queued', 'running')
                                  or r.created_at > t - case when exists (select 1 from public.platform_action_pauses pa
                                                                           where pa.platform = settings.platform)
                                                              then interval '1 minute' - interval '5 seconds'
                                                              else make_interval(mins => settings.every_minutes) - interval '5 seconds' end));
    if internal.queue_canary_run(settings.platform, 'schedule', null, null) is not null then
      queued := queued + 1;
    end if;
  end loop;

  -- 30 days of history; drafts nobody published or tried for 30 days go too.
  delete from public.platform_canary_runs r where r.created_at < t - interval '30 days';
  delete from public.platform_packs p
   where p.source = 'operator' and p.created_at < now() - interval '30 days'
     and not exists (select 1 from public.platform_pack_publications pub where pub.pack_id = p.id)
     and not exists (select 1 from public.platform_canary_runs r where r.pack_id = p.id);
  return queued;
end
$$;
comment on function internal.enqueue_platform_canaries() is
  'Run by pg_cron every minute: queues each platform''s canary when due (every_minutes, or every minute while paused) and prunes 30-day-old runs.';

create or replace function internal.scheduler_complete_campaigns(p_at timestamp with time zone)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Completed: nothing due now or later and nothing in flight (a send still being checked, state
  -- uncertain, may yet be found not sent and put back due). Each campaign is looked at in its own
  -- minute of ten, so a run probes a tenth of the running campaigns.
  with finished as (
    update public.campaigns c
       set status = 'completed'
     where c.status in ('queued', 'running', 'active')
       and mod(pg_catalog.hashtext(c.id::text)::bigint + 2147483648, 10) = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 10)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at is not null)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.state in ('sending', 'uncertain'))
    returning c.id, c.workspace_id, c.user_id, c.name, c.messages_sent
  ), notified as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select f.workspace_id, f.user_id, 'campaign_completed', 'Campaign completed',
           format('"%s" has messaged all its leads (%s messages sent).', f.name, f.messages_sent),
           jsonb_build_object('campaignId', f.id)
      from finished f
    returning 1
  )
  select count(*) into affected from notified;
  return affected;
end
$$;
comment on function internal.scheduler_complete_campaigns(timestamp with time zone) is
  'The scheduler''s completion check: a campaign with nothing due, later or in flight is completed and its customer told, each campaign in its own minute of ten. Returns how many.';

create or replace function internal.scheduler_expire_oauth_requests(p_at timestamp with time zone)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- OAuth connects started and never finished: their sealed app keys and code verifiers go once
  -- they can no longer be used (each on the clock it was stamped with)
  delete from public.x_oauth_requests r where r.expires_at <= now();
  delete from internal.instagram_oauth_states s where s.expires_at <= p_at;
end
$$;
comment on function internal.scheduler_expire_oauth_requests(timestamp with time zone) is
  'The scheduler''s cleanup of OAuth connects started and never finished (sealed app keys, code verifiers) once they have expired.';

create or replace function internal.scheduler_mark_unconfirmed_sends()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Sends the runner started but never confirmed within 30 minutes may have gone out: uncertain.
  update public.campaign_leads l
     set state = 'uncertain', last_error = coalesce(l.last_error, 'The send was not confirmed within 30 minutes')
   where l.state = 'sending' and l.updated_at < now() - interval '30 minutes';
  get diagnostics affected = row_count;
  return affected;
end
$$;
comment on function internal.scheduler_mark_unconfirmed_sends() is
  'The scheduler''s check of sends the runner started and never confirmed within 30 minutes: uncertain. Returns how many.';

create or replace function internal.scheduler_queue_campaign_ticks(p_at timestamp with time zone, p_tick_cap integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  ticks integer;
begin
  -- Campaign ticks: one per account a minute, round-robin between its due campaigns (the one whose
  -- next send time passed first). A campaign with a tick still waiting or being worked gets none:
  -- the job is the lease. The runner sets next_action_at after each tick (its gap to the next send).
  with candidates as (
    select c.id, c.account_id, c.next_action_at
      from public.campaigns c
      join public.social_accounts a on a.id = c.account_id
     where c.status in ('queued', 'running', 'active')
       and coalesce(c.next_action_at, '-infinity'::timestamptz) <= p_at
       and a.status = 'active'
       and internal.campaign_window_open(c.id, c.schedule, p_at)
       -- The platform as a subquery, not a third join: on a low row estimate for the due campaigns
       -- the planner joined every platform to every due campaign first and merged that with all
       -- accounts (2 million pairs, 390 ms); this way only campaigns in their window look it up.
       and internal.campaign_sends_left_today(c, a, (select p from public.platforms p where p.id = a.platform_id), p_at) > 0
       and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= p_at)
       -- Not while sending on the platform is paused after a site change (its leads stay due).
       and a.platform_id not in (select p.id from public.platform_action_pauses pa join public.platforms p on p.name = pa.platform
                                  where pa.action in ('send', 'session'))
       -- Not in a workspace without a plan (the few such workspaces as one hashed set).
       and c.workspace_id not in (select w.id from public.workspaces w where not internal.workspace_sends(w))
       -- One hashed set of unfinished ticks, not a probe per campaign: cheap whatever the statistics say.
       and ('campaign:' || c.id) not in (select j.singleton_key from pgboss.job j
                                          where j.name = 'campaign.tick' and j.state < 'completed' and j.singleton_key is not null)
  ), chosen as (
    select distinct on (x.account_id) x.id, x.account_id, x.next_action_at
      from candidates x
     order by x.account_id, x.next_action_at nulls first, x.id
  ), capped as (
    select ch.id, ch.account_id from chosen ch order by ch.next_action_at nulls first, ch.id limit p_tick_cap
  ), queued as (
    select (e.data ->> 'campaignId')::uuid as campaign_id
      from internal.enqueue_jobs('campaign.tick', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('campaignId', ch.id, 'accountId', ch.account_id),
                                                 'singletonKey', 'campaign:' || ch.id))
               from capped ch)) e
  ), started as (
    update public.campaigns c set status = 'running'
      from queued q
     where c.id = q.campaign_id and c.status = 'queued'
    returning 1
  )
  select count(*) into ticks from queued;
  return ticks;
end
$$;
comment on function internal.scheduler_queue_campaign_ticks(timestamp with time zone, integer) is
  'The scheduler''s campaign ticks: one per account, round-robin between its due campaigns, at most p_tick_cap, none while sending on the platform is paused or in a workspace without a plan (internal.workspace_sends). Returns how many it queued.';

create or replace function internal.scheduler_queue_inbox_syncs(p_at timestamp with time zone)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Inbox syncs: every few minutes for an account in use, every half hour for an idle one
  -- (internal.inbox_syncs_due).
  with queued as (
    select e.id
      from internal.enqueue_jobs('inbox.sync', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', d.account_id),
                                                 'singletonKey', 'inbox:' || d.account_id))
               from internal.inbox_syncs_due(p_at) d
               join public.social_accounts a on a.id = d.account_id
              where a.platform_id not in (select p.id from public.platform_action_pauses pa join public.platforms p on p.name = pa.platform
                                           where pa.action in ('inbox', 'session')))) e
  )
  select count(*) into affected from queued;
  return affected;
end
$$;
comment on function internal.scheduler_queue_inbox_syncs(timestamp with time zone) is
  'The scheduler''s inbox syncs (internal.inbox_syncs_due), none while reading the inbox on the platform is paused. Returns how many it queued.';

create or replace function internal.scheduler_queue_scrape_runs(p_at timestamp with time zone)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Scraping runs, each leased for as long as the job may run; the runner sets the next run.
  with queued as (
    select (e.data ->> 'scrapingCampaignId')::uuid as scraping_campaign_id, e.expire_seconds
      from internal.enqueue_jobs('scrape.run', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('scrapingCampaignId', s.id),
                                                 'singletonKey', 'scraping:' || s.id))
               from public.scraping_campaigns s
               join public.social_accounts a on a.id = s.account_id
              where s.status = 'running' and (s.next_run_at is null or s.next_run_at <= p_at) and a.status = 'active'
                and a.platform_id not in (select p.id from public.platform_action_pauses pa join public.platforms p on p.name = pa.platform
                                           where pa.action in ('scrape', 'session')))) e
  )
  update public.scraping_campaigns s
     set next_run_at = p_at + q.expire_seconds * interval '1 second'
    from queued q
   where s.id = q.scraping_campaign_id;
  get diagnostics affected = row_count;
  return affected;
end
$$;
comment on function internal.scheduler_queue_scrape_runs(timestamp with time zone) is
  'The scheduler''s scraping runs, each leased for as long as its job may run, none while scraping on the platform is paused. Returns how many it queued.';

create or replace function internal.scheduler_reset_daily_counts(p_at timestamp with time zone)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Local midnight: today's counter starts at zero (the caps already ignore a past day's count).
  update public.social_accounts a
     set messages_sent_today = 0, sent_today_on = pg_catalog.timezone(a.timezone, p_at)::date
   where a.messages_sent_today > 0 and a.sent_today_on < pg_catalog.timezone(a.timezone, p_at)::date;
end
$$;
comment on function internal.scheduler_reset_daily_counts(timestamp with time zone) is
  'The scheduler''s local midnight: an account''s count of messages sent today starts again at zero.';

create or replace function internal.scheduler_resume_paused_accounts(p_at timestamp with time zone)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Circuit breaker: a paused account sends again once its pause is over.
  update public.social_accounts a
     set status = 'active', paused_until = null
   where a.status = 'paused' and a.paused_until <= p_at;
  get diagnostics affected = row_count;
  return affected;
end
$$;
comment on function internal.scheduler_resume_paused_accounts(timestamp with time zone) is
  'The scheduler''s circuit breaker: a paused account is active again once its pause is over. Returns how many.';

create or replace function internal.scheduler_step_warmups(p_at timestamp with time zone, out advanced integer, out steps integer)
returns record
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- The first run of each local day per warming account: one warm-up phase per week since the
  -- warm-up started (the customer is told), and the day's warm-up step, queued to start in the
  -- local daytime (09:00 plus a per-account delay of up to 9 hours).
  with due as (
    select a.id, a.user_id, a.username, a.status, a.warmup_phase as old_phase, l.today,
           least(5, 1 + (l.today - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date) / 7) as phase,
           pg_catalog.timezone(a.timezone, l.today + interval '9 hours'
             + mod(pg_catalog.hashtext(a.id::text || l.today::text)::bigint + 2147483648, 540) * interval '1 minute') as start_at
      from public.social_accounts a
     cross join lateral (select pg_catalog.timezone(a.timezone, p_at)::date as today) l
     -- an official account has no browser to warm up: the API's own limits pace it
     where a.warmup_phase < 5 and a.connection = 'browser' and a.warmup_step_on is distinct from l.today
  ), stepped as (
    update public.social_accounts a
       set warmup_step_on = d.today, warmup_phase = greatest(a.warmup_phase, d.phase)
      from due d
     where a.id = d.id
    returning a.id, a.workspace_id, a.user_id, a.username, a.status, d.old_phase, a.warmup_phase as phase, d.today, d.start_at
  ), notified as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select s.workspace_id, s.user_id, 'warmup_phase_completed', 'Warm-up phase completed',
           case when s.phase = 5
             then format('@%s has finished warming up and can now send up to its full daily limit.', s.username)
             else format('@%s finished warm-up phase %s and can now send up to %s messages a day.',
                         s.username, s.old_phase, internal.warmup_daily_limit(s.phase)) end,
           jsonb_build_object('accountId', s.id, 'phase', s.phase)
      from stepped s
     where s.phase > s.old_phase
    returning 1
  ), queued as (
    select e.id
      from internal.enqueue_jobs('warmup.step', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', s.id),
                                                 'singletonKey', 'warmup:' || s.id || ':' || s.today,
                                                 'startAfter', now() + greatest(interval '0', s.start_at - p_at)))
               from stepped s
              where s.status = 'active' and s.phase < 5)) e
  )
  select (select count(*) from notified), (select count(*) from queued) into advanced, steps;
end
$$;
comment on function internal.scheduler_step_warmups(timestamp with time zone) is
  'The scheduler''s first run of each local day per warming browser account: its warm-up phase (the customer told) and the day''s warm-up step. Returns the phases advanced and the steps queued.';

create or replace function internal.scheduler_stop_orphaned_campaigns()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- A running campaign whose account was removed cannot go on.
  with orphans as (
    update public.campaigns c
       set status = 'error', error_message = 'The campaign''s account was removed'
     where c.status in ('queued', 'running', 'active') and c.account_id is null
    returning c.id, c.workspace_id, c.user_id, c.name
  ), notified as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select o.workspace_id, o.user_id, 'campaign_failed', 'Campaign stopped', format('"%s" stopped because its account was removed.', o.name),
           jsonb_build_object('campaignId', o.id)
      from orphans o
    returning 1
  )
  select count(*) into affected from notified;
  return affected;
end
$$;
comment on function internal.scheduler_stop_orphaned_campaigns() is
  'The scheduler''s stop of campaigns whose account was removed: error, and the customer told. Returns how many.';

-- Grants ------------------------------------------------------------------------------------------

revoke execute on function internal.drop_waiting_jobs(text[], text, uuid[], boolean) from public;

revoke execute on function internal.enqueue_due_work() from public;
grant execute on function internal.enqueue_due_work() to service_role;

revoke execute on function internal.enqueue_job(text, jsonb, text, timestamp with time zone) from public;
grant execute on function internal.enqueue_job(text, jsonb, text, timestamp with time zone) to service_role;

revoke execute on function internal.enqueue_jobs(text, jsonb) from public;
grant execute on function internal.enqueue_jobs(text, jsonb) to service_role;

revoke execute on function internal.enqueue_platform_canaries() from public;
grant execute on function internal.enqueue_platform_canaries() to service_role;

revoke execute on function internal.scheduler_complete_campaigns(timestamp with time zone) from public;
revoke execute on function internal.scheduler_expire_oauth_requests(timestamp with time zone) from public;
revoke execute on function internal.scheduler_mark_unconfirmed_sends() from public;
revoke execute on function internal.scheduler_queue_campaign_ticks(timestamp with time zone, integer) from public;
revoke execute on function internal.scheduler_queue_inbox_syncs(timestamp with time zone) from public;
revoke execute on function internal.scheduler_queue_scrape_runs(timestamp with time zone) from public;
revoke execute on function internal.scheduler_reset_daily_counts(timestamp with time zone) from public;
revoke execute on function internal.scheduler_resume_paused_accounts(timestamp with time zone) from public;
revoke execute on function internal.scheduler_step_warmups(timestamp with time zone) from public;
revoke execute on function internal.scheduler_stop_orphaned_campaigns() from public;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.admin_delete_job(p_job_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  job record;
begin
  select j.name as queue, j.state::text as state into job from pgboss.job j
   where j.id = p_job_id and j.name not like '\_\_pgboss%' for update;
  if not found then
    return jsonb_build_object('outcome', 'not_found');
  elsif job.state <> 'failed' then
    return jsonb_build_object('outcome', 'not_failed', 'queue', job.queue);
  end if;
  delete from pgboss.job j where j.name = job.queue and j.id = p_job_id and j.state = 'failed';
  return jsonb_build_object('outcome', 'deleted', 'queue', job.queue);
end
$$;
comment on function public.admin_delete_job(uuid) is
  'Admin Delete on the Retries tab: removes a failed job (pg-boss deleteJob()). {outcome: deleted | not_found | not_failed, queue}.';
revoke execute on function public.admin_delete_job(uuid) from public, anon, authenticated;

create or replace function public.admin_failed_jobs(p_limit integer default 100)
returns table(id uuid, queue text, failed_at timestamp with time zone, attempts integer, max_attempts integer, error text, data jsonb)
language sql
stable security definer
set search_path = ''
as $$
  select j.id, j.name, j.completed_on,
         j.retry_count + case when j.started_on is not null then 1 else 0 end,
         coalesce(q.retry_limit, 2) + 1 + internal.admin_manual_retries(),
         coalesce(j.output ->> 'message', j.output -> 'value' ->> 'message', j.output::text), j.data
    from pgboss.job j
    left join pgboss.queue q on q.name = j.name
   where j.state = 'failed' and j.name not like '\_\_pgboss%'
   order by j.completed_on desc nulls last
   limit least(greatest(coalesce(p_limit, 100), 1), 500)
$$;
comment on function public.admin_failed_jobs(integer) is
  'Admin Retries table: failed jobs, newest first. attempts = runs the job had; max_attempts = the queue''s automatic attempts plus internal.admin_manual_retries().';
revoke execute on function public.admin_failed_jobs(integer) from public, anon, authenticated;

create or replace function public.admin_retry_job(p_job_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  job record;
  outcome text;
begin
  select j.name as queue, j.state, j.retry_count + case when j.started_on is not null then 1 else 0 end as attempts,
         coalesce(q.retry_limit, 2) + 1 + internal.admin_manual_retries() as max_attempts
    into job
    from pgboss.job j
    left join pgboss.queue q on q.name = j.name
   where j.id = p_job_id and j.name not like '\_\_pgboss%'
     for update of j;
  if not found then
    return jsonb_build_object('outcome', 'not_found');
  end if;
  if job.state <> 'failed' then
    outcome := 'not_failed';
  elsif job.attempts >= job.max_attempts then
    outcome := 'max_attempts';
  else
    -- Exactly pg-boss 10's retry(): back to 'retry' with one more attempt allowed; its start_after
    -- has passed, so the next fetch takes it.
    update pgboss.job j set state = 'retry', retry_limit = j.retry_limit + 1
     where j.name = job.queue and j.id = p_job_id and j.state = 'failed';
    outcome := 'retried';
  end if;
  return jsonb_build_object('outcome', outcome, 'queue', job.queue, 'attempts', job.attempts, 'maxAttempts', job.max_attempts);
end
$$;
comment on function public.admin_retry_job(uuid) is
  'Admin Retry: requeues a failed job as pg-boss retry() does. {outcome: retried | not_found | not_failed | max_attempts, queue, attempts, maxAttempts}.';
revoke execute on function public.admin_retry_job(uuid) from public, anon, authenticated;
