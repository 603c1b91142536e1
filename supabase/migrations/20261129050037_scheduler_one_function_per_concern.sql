-- The scheduler's one cron entry point, internal.enqueue_due_work, becomes a short function that
-- calls one internal.scheduler_* function per concern (unconfirmed sends, paused accounts resumed, the
-- daily counts reset, warm-ups, campaign ticks, scraping runs, inbox syncs, orphaned and completed
-- campaigns, expired OAuth connects), in the same order, on the same clock and in the same
-- transaction, with the same summary and log line. A change to one concern now re-emits only that
-- function. Written by `npm run db:diff` (pg-delta) from supabase/schemas; nothing by hand.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.enqueue_due_work()
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_complete_campaigns (
  p_at timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
    returning c.id, c.user_id, c.name, c.messages_sent
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select f.user_id, 'campaign_completed', 'Campaign completed',
           format('"%s" has messaged all its leads (%s messages sent).', f.name, f.messages_sent),
           jsonb_build_object('campaignId', f.id)
      from finished f
    returning 1
  )
  select count(*) into affected from notified;
  return affected;
end
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_expire_oauth_requests (
  p_at timestamp with time zone
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- OAuth connects started and never finished: their sealed app keys and code verifiers go once
  -- they can no longer be used (each on the clock it was stamped with)
  delete from public.x_oauth_requests r where r.expires_at <= now();
  delete from internal.instagram_oauth_states s where s.expires_at <= p_at;
end
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_mark_unconfirmed_sends()
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_queue_campaign_ticks (
  p_at       timestamp with time zone,
  p_tick_cap integer
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_queue_inbox_syncs (
  p_at timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_queue_scrape_runs (
  p_at timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_reset_daily_counts (
  p_at timestamp with time zone
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Local midnight: today's counter starts at zero (the caps already ignore a past day's count).
  update public.social_accounts a
     set messages_sent_today = 0, sent_today_on = pg_catalog.timezone(a.timezone, p_at)::date
   where a.messages_sent_today > 0 and a.sent_today_on < pg_catalog.timezone(a.timezone, p_at)::date;
end
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_resume_paused_accounts (
  p_at timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_step_warmups (
  p_at timestamp with time zone,
  OUT  advanced integer,
  OUT  steps integer
)
  RETURNS record
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_stop_orphaned_campaigns()
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  affected integer;
begin
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
  select count(*) into affected from notified;
  return affected;
end
$function$;

COMMENT ON FUNCTION "internal"."enqueue_due_work"() IS 'Run by pg_cron every minute: queues due campaign ticks, scraping runs, inbox syncs (internal.inbox_syncs_due) and warm-up steps (not for platform actions paused after a site change), and does the daily bookkeeping. Returns what it did; each concern is one internal.scheduler_* function.';

COMMENT ON FUNCTION "internal"."scheduler_complete_campaigns"(timestamp with time zone) IS 'The scheduler''s completion check: a campaign with nothing due, later or in flight is completed and its customer told, each campaign in its own minute of ten. Returns how many.';

COMMENT ON FUNCTION "internal"."scheduler_expire_oauth_requests"(timestamp with time zone) IS 'The scheduler''s cleanup of OAuth connects started and never finished (sealed app keys, code verifiers) once they have expired.';

COMMENT ON FUNCTION "internal"."scheduler_mark_unconfirmed_sends"() IS 'The scheduler''s check of sends the runner started and never confirmed within 30 minutes: uncertain. Returns how many.';

COMMENT ON FUNCTION "internal"."scheduler_queue_campaign_ticks"(timestamp with time zone, integer) IS 'The scheduler''s campaign ticks: one per account, round-robin between its due campaigns, at most p_tick_cap, none while sending on the platform is paused. Returns how many it queued.';

COMMENT ON FUNCTION "internal"."scheduler_queue_inbox_syncs"(timestamp with time zone) IS 'The scheduler''s inbox syncs (internal.inbox_syncs_due), none while reading the inbox on the platform is paused. Returns how many it queued.';

COMMENT ON FUNCTION "internal"."scheduler_queue_scrape_runs"(timestamp with time zone) IS 'The scheduler''s scraping runs, each leased for as long as its job may run, none while scraping on the platform is paused. Returns how many it queued.';

COMMENT ON FUNCTION "internal"."scheduler_reset_daily_counts"(timestamp with time zone) IS 'The scheduler''s local midnight: an account''s count of messages sent today starts again at zero.';

COMMENT ON FUNCTION "internal"."scheduler_resume_paused_accounts"(timestamp with time zone) IS 'The scheduler''s circuit breaker: a paused account is active again once its pause is over. Returns how many.';

COMMENT ON FUNCTION "internal"."scheduler_step_warmups"(timestamp with time zone) IS 'The scheduler''s first run of each local day per warming browser account: its warm-up phase (the customer told) and the day''s warm-up step. Returns the phases advanced and the steps queued.';

COMMENT ON FUNCTION "internal"."scheduler_stop_orphaned_campaigns"() IS 'The scheduler''s stop of campaigns whose account was removed: error, and the customer told. Returns how many.';

REVOKE ALL ON FUNCTION "internal"."scheduler_complete_campaigns"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_expire_oauth_requests"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_mark_unconfirmed_sends"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_queue_campaign_ticks"(timestamp WITH time zone, integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_queue_inbox_syncs"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_queue_scrape_runs"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_reset_daily_counts"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_resume_paused_accounts"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_step_warmups"(timestamp WITH time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."scheduler_stop_orphaned_campaigns"() FROM PUBLIC;
