-- The admin tab's queue functions: admins and the service role only, with the spec's 403 text.
begin;
select plan(9);

select tests.create_supabase_user('boss', null, '{"role": "admin"}');
select tests.create_supabase_user('customer');

select internal.enqueue_job('inbox.sync', '{"accountId": "00000000-0000-4000-8000-0000000000c1"}', 'inbox:test-c1') as waiting \gset
insert into pgboss.job (id, name, data, state, retry_count, retry_limit, completed_on, output)
values ('00000000-0000-4000-8000-0000000000f1', 'scrape.run', '{"scrapingCampaignId": "x"}', 'failed', 2, 2, now(),
        '{"message": "Rate limited (88)"}');
insert into public.paused_queues (name) values ('scrape.run');

select tests.authenticate_as('customer');
select throws_ok($$select * from public.admin_queue_overview()$$, '42501', 'Access denied - admin privileges required',
  'customers are refused with the spec''s text');
select throws_ok($$select public.admin_retry_job('scrape.run', '00000000-0000-4000-8000-0000000000f1')$$, '42501',
  'Access denied - admin privileges required', 'customers cannot retry jobs');

select tests.authenticate_as('boss');
select ok((select pending >= 1 from public.admin_queue_overview() where name = 'inbox.sync'), 'admins see waiting jobs per queue');
select results_eq($$select paused from public.admin_queue_overview() where name = 'scrape.run'$$, $$values (true)$$,
  'a paused queue shows as paused');
select results_eq(
  $$select job_type, attempts, max_attempts, error from public.admin_failed_jobs() where id = '00000000-0000-4000-8000-0000000000f1'$$,
  $$values ('scrape.run', 2, 2, 'Rate limited (88)')$$,
  'failed jobs carry attempts, the limit and the error');
select ok(public.admin_retry_job('scrape.run', '00000000-0000-4000-8000-0000000000f1'), 'an admin retries a failed job');
select tests.clear_authentication();
select results_eq($$select state::text, retry_limit from pgboss.job where id = '00000000-0000-4000-8000-0000000000f1'$$,
  $$values ('retry', 3)$$, '... it is back in retry with one more attempt, as pg-boss retry() does');

select tests.authenticate_as_service_role();
select ok(public.admin_delete_job('inbox.sync', :'waiting'), 'the service role (the admin function) deletes a job');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.admin_failed_jobs()$$, '42501', 'permission denied for function admin_failed_jobs',
  'visitors cannot call them at all');

select * from finish();
rollback;
