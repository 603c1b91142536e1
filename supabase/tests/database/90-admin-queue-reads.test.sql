-- The admin tab's queue and failed-job functions: the service role only (the admin function calls
-- them after checking the caller is an admin); pause / resume; attempts and the manual-retry
-- allowance; retry exactly as pg-boss retry() (state retry, one more attempt); delete.
begin;
select plan(25);

select tests.create_supabase_user('boss', null, '{"role": "admin"}');
select tests.create_supabase_user('customer');

select internal.enqueue_job('inbox.sync', '{"accountId": "00000000-0000-4000-8000-0000000000c1"}', 'inbox:test-c1') as waiting \gset
-- scrape.run allows 2 automatic retries (3 attempts); pg-boss fails a job for good with
-- retry_count = retry_limit after its third run.
insert into pgboss.job (id, name, data, state, retry_count, retry_limit, started_on, completed_on, output)
values ('00000000-0000-4000-8000-0000000000f1', 'scrape.run', '{"scrapingCampaignId": "x"}', 'failed', 2, 2, now(), now(),
        '{"message": "Rate limited (88)"}'),
       -- Retried by hand three times already: 6 runs of at most 3 + 3.
       ('00000000-0000-4000-8000-0000000000f2', 'scrape.run', '{"scrapingCampaignId": "y"}', 'failed', 5, 5, now(),
        now() - interval '1 minute', '{"value": {"message": "Account locked (326)"}}'),
       -- Failed before it ever ran (boss.fail on a waiting job).
       ('00000000-0000-4000-8000-0000000000f3', 'inbox.sync', '{"accountId": "z"}', 'failed', 0, 1, null,
        now() - interval '2 minutes', null);

-- Who may call them --------------------------------------------------------------------------

select tests.authenticate_as('customer');
select throws_ok($$select * from public.admin_queue_overview()$$, '42501', 'permission denied for function admin_queue_overview',
  'customers cannot read the queues');
select throws_ok($$select public.admin_retry_job('00000000-0000-4000-8000-0000000000f1')$$, '42501',
  'permission denied for function admin_retry_job', 'customers cannot retry jobs');
select tests.authenticate_as('boss');
select throws_ok($$select * from public.admin_failed_jobs()$$, '42501', 'permission denied for function admin_failed_jobs',
  'an admin in the client goes through the admin function, not the RPC');
select tests.authenticate_as_anon();
select throws_ok($$select public.admin_set_queue_paused('scrape.run', true, null)$$, '42501',
  'permission denied for function admin_set_queue_paused', 'visitors cannot pause queues');

-- Queues -------------------------------------------------------------------------------------

select tests.authenticate_as_service_role();
select ok((select pending >= 1 from public.admin_queue_overview() where name = 'inbox.sync'), 'waiting jobs count as pending');
select ok(not exists (select 1 from public.admin_queue_overview() where name like '\_\_pgboss%'), 'pg-boss''s own queue is not listed');
select ok(public.admin_set_queue_paused('scrape.run', true, tests.get_supabase_uid('boss')), 'an admin pauses a queue');
select ok(public.admin_set_queue_paused('scrape.run', true, tests.get_supabase_uid('boss')), '... twice without harm');
select results_eq($$select paused from public.admin_queue_overview() where name = 'scrape.run'$$, $$values (true)$$,
  'a paused queue shows as paused');
select results_eq($$select paused_by from public.paused_queues where name = 'scrape.run'$$,
  $$values (tests.get_supabase_uid('boss'))$$, '... and who paused it is kept');
select is(public.admin_queue_detail('scrape.run') ->> 'pausedBy', 'boss@test.reachflow.test', 'the detail names who paused it');
select ok(public.admin_set_queue_paused('scrape.run', false, null), 'resuming');
select ok(not exists (select 1 from public.paused_queues where name = 'scrape.run'), '... removes the pause');
select ok(not public.admin_set_queue_paused('no.such.queue', true, null), 'an unknown queue is refused');
select is(public.admin_queue_detail('no.such.queue'), null, 'an unknown queue has no detail');

-- Failed jobs --------------------------------------------------------------------------------

select results_eq(
  $$select queue, attempts, max_attempts, error from public.admin_failed_jobs() where id::text like '00000000-0000-4000-8000-0000000000f%' order by id$$,
  $$values ('scrape.run', 3, 6, 'Rate limited (88)'), ('scrape.run', 6, 6, 'Account locked (326)'), ('inbox.sync', 0, 5, null)$$,
  'failed jobs: runs so far against the queue''s attempts plus 3 manual retries, and the error text');
select ok((public.admin_retry_stats() ->> 'maxRetriesJobs')::int >= 1, 'a job out of attempts counts as Max Retries Reached');

select is(public.admin_retry_job('00000000-0000-4000-8000-0000000000f1') ->> 'outcome', 'retried', 'an admin retries a failed job');
select tests.clear_authentication();
select results_eq($$select state::text, retry_limit, retry_count from pgboss.job where id = '00000000-0000-4000-8000-0000000000f1'$$,
  $$values ('retry', 3, 2)$$, '... it is back in retry with one more attempt, as pg-boss retry() does');
select tests.authenticate_as_service_role();
select is(public.admin_retry_job('00000000-0000-4000-8000-0000000000f1') ->> 'outcome', 'not_failed',
  'a job that is not failed is not retried again');
select is(public.admin_retry_job('00000000-0000-4000-8000-0000000000f2'),
  '{"outcome": "max_attempts", "queue": "scrape.run", "attempts": 6, "maxAttempts": 6}'::jsonb,
  'a job that had its most attempts is refused');
select tests.clear_authentication();
select results_eq($$select state::text from pgboss.job where id = '00000000-0000-4000-8000-0000000000f2'$$, $$values ('failed')$$,
  '... and stays failed');
select tests.authenticate_as_service_role();

select is(public.admin_delete_job(:'waiting') ->> 'outcome', 'not_failed', 'a waiting job is not deleted from the Retries tab');
select is(public.admin_delete_job('00000000-0000-4000-8000-0000000000f2') ->> 'outcome', 'deleted', 'a failed job is deleted');
select is(public.admin_delete_job('00000000-0000-4000-8000-0000000000f2') ->> 'outcome', 'not_found', '... and then it is gone');

select * from finish();
rollback;
