-- The pg-boss schema and the product's queues as the runner and the scheduler expect them.
-- (tests/pgboss-schema.test.ts checks the schema matches the pg-boss version the runner pins.)
begin;
select plan(12);

select results_eq($$select version from pgboss.version$$, $$values (46)$$, 'pg-boss schema version 46 (pg-boss 12.x) is installed');
select matches(obj_description('pgboss'::regnamespace, 'pg_namespace'), '^pg-boss 12\.38\.0 ', 'the schema says which pg-boss generated it');
select hasnt_schema('pgboss_v10', 'the pg-boss 10 schema is gone once its jobs moved');
select results_eq(
  $$select name, policy, retry_limit from pgboss.queue where name in ('account.test', 'campaign.tick', 'inbox.sync', 'scrape.run', 'warmup.step') order by name$$,
  $$values ('account.test', 'short', 1), ('campaign.tick', 'short', 0), ('inbox.sync', 'short', 1), ('scrape.run', 'short', 2), ('warmup.step', 'short', 2)$$,
  'the five queues exist with one waiting job per singleton key');
select results_eq($$select distinct table_name, partition from pgboss.queue$$, $$values ('job_common', false)$$,
  'every queue lives in pg-boss 12''s shared job table, as createQueue makes it by default');
select has_index('pgboss', 'job_common', 'campaign_tick_unfinished_idx', 'the scheduler''s unfinished-tick index is on the job table');

select isnt(internal.enqueue_job('account.test', '{"accountId": "00000000-0000-4000-8000-0000000000ab"}', 'account:00000000-0000-4000-8000-0000000000ab'),
  null, 'a job is queued');
select is(internal.enqueue_job('account.test', '{"accountId": "00000000-0000-4000-8000-0000000000ab"}', 'account:00000000-0000-4000-8000-0000000000ab'),
  null, 'the same singleton key while the first waits: nothing queued');
select results_eq(
  $$select retry_limit, retry_delay, expire_seconds, deletion_seconds, policy, keep_until = start_after + interval '14 days'
      from pgboss.job where singleton_key = 'account:00000000-0000-4000-8000-0000000000ab'$$,
  $$values (1, 60, 600, 604800, 'short', true)$$,
  'the job takes the queue''s retry, expiry, deletion and retention settings');
select is(
  (select count(*)::int from internal.enqueue_jobs('inbox.sync', '[{"data": {"accountId": "a"}, "singletonKey": "inbox:a"}, {"data": {"accountId": "b"}, "singletonKey": "inbox:b"}, {"data": {"accountId": "a"}, "singletonKey": "inbox:a"}]')),
  2, 'enqueue_jobs queues several jobs at once and skips a singleton key already waiting');

select tests.authenticate_as_runner();
select results_eq(
  $$update pgboss.job set state = 'active', started_on = now() where name = 'account.test' and singleton_key = 'account:00000000-0000-4000-8000-0000000000ab' returning data ->> 'accountId'$$,
  $$values ('00000000-0000-4000-8000-0000000000ab')$$,
  'the runner fetches jobs');
select tests.authenticate_as_anon();
select throws_ok($$select * from pgboss.job$$, '42501', 'permission denied for schema pgboss', 'the client roles cannot reach the queue');

select * from finish();
rollback;
