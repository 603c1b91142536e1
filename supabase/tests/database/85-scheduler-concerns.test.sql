-- The scheduler's one cron entry point runs each concern's function once, in order, on the run's
-- clock, and reports what each did. Inside this test's transaction (rolled back) each concern's
-- function is replaced by one that records its call and answers a known count, so the wiring is
-- checked apart from the concerns; 85-scheduler*.test.sql check what they do through the real ones.
begin;
select plan(4);

select tests.freeze_time('2026-12-01 12:00:00+00');
set local reachflow.tick_cap = 3;

create temp table calls (n serial, concern text, at timestamptz, cap integer);

create or replace function internal.scheduler_mark_unconfirmed_sends() returns integer language sql as $$
  insert into pg_temp.calls (concern) values ('mark_unconfirmed_sends') returning 1 $$;
create or replace function internal.scheduler_resume_paused_accounts(p_at timestamptz) returns integer language sql as $$
  insert into pg_temp.calls (concern, at) values ('resume_paused_accounts', p_at) returning 2 $$;
create or replace function internal.scheduler_reset_daily_counts(p_at timestamptz) returns void language sql as $$
  insert into pg_temp.calls (concern, at) values ('reset_daily_counts', p_at) $$;
create or replace function internal.scheduler_step_warmups(p_at timestamptz, out advanced integer, out steps integer)
language sql as $$
  insert into pg_temp.calls (concern, at) values ('step_warmups', p_at) returning 8, 9 $$;
create or replace function internal.scheduler_queue_campaign_ticks(p_at timestamptz, p_tick_cap integer) returns integer
language sql as $$
  insert into pg_temp.calls (concern, at, cap) values ('queue_campaign_ticks', p_at, p_tick_cap) returning 3 $$;
create or replace function internal.scheduler_queue_scrape_runs(p_at timestamptz) returns integer language sql as $$
  insert into pg_temp.calls (concern, at) values ('queue_scrape_runs', p_at) returning 4 $$;
create or replace function internal.scheduler_queue_inbox_syncs(p_at timestamptz) returns integer language sql as $$
  insert into pg_temp.calls (concern, at) values ('queue_inbox_syncs', p_at) returning 5 $$;
create or replace function internal.scheduler_stop_orphaned_campaigns() returns integer language sql as $$
  insert into pg_temp.calls (concern) values ('stop_orphaned_campaigns') returning 6 $$;
create or replace function internal.scheduler_complete_campaigns(p_at timestamptz) returns integer language sql as $$
  insert into pg_temp.calls (concern, at) values ('complete_campaigns', p_at) returning 7 $$;
create or replace function internal.scheduler_expire_oauth_requests(p_at timestamptz) returns void language sql as $$
  insert into pg_temp.calls (concern, at) values ('expire_oauth_requests', p_at) $$;

create temp table run as select internal.enqueue_due_work() as summary;

select is(
  (select array_agg(concern order by n) from calls),
  array['mark_unconfirmed_sends', 'resume_paused_accounts', 'reset_daily_counts', 'step_warmups',
        'queue_campaign_ticks', 'queue_scrape_runs', 'queue_inbox_syncs', 'stop_orphaned_campaigns',
        'complete_campaigns', 'expire_oauth_requests'],
  'the entry point calls each concern once, in order');

select is(
  (select array_agg(distinct at) from calls where at is not null),
  array['2026-12-01 12:00:00+00'::timestamptz],
  'every concern runs on the scheduler''s clock of this run');

select is((select cap from calls where concern = 'queue_campaign_ticks'), 3, 'the ticks take the run''s cap');

select is(
  (select summary - 'at' from run),
  '{"sendsUnconfirmed": 1, "accountsResumed": 2, "campaignTicks": 3, "tickCapReached": true, "scrapeRuns": 4,
    "inboxSyncs": 5, "campaignsOrphaned": 6, "campaignsCompleted": 7, "warmupsAdvanced": 8, "warmupSteps": 9}'::jsonb,
  'the summary reports what each concern did');

select * from finish();
rollback;
