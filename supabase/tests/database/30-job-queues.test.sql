-- The pg-boss schema and the product's queues as the runner and the scheduler expect them.
-- (tests/pgboss-schema.test.ts checks the schema matches the pg-boss version the runner pins.)
begin;
select plan(9);

select results_eq($$select version from pgboss.version$$, $$values (24)$$, 'pg-boss schema version 24 (pg-boss 10.x) is installed');
select matches(obj_description('pgboss'::regnamespace, 'pg_namespace'), '^pg-boss 10\.4\.2 ', 'the schema says which pg-boss generated it');
select results_eq(
  $$select name, policy, retry_limit from pgboss.queue where name in ('account.test', 'campaign.tick', 'inbox.sync', 'scrape.run', 'warmup.step') order by name$$,
  $$values ('account.test', 'short', 1), ('campaign.tick', 'short', 0), ('inbox.sync', 'short', 1), ('scrape.run', 'short', 2), ('warmup.step', 'short', 2)$$,
  'the five queues exist with one waiting job per singleton key');
select ok(
  (select bool_and(to_regclass('pgboss.' || partition_name) is not null) from pgboss.queue),
  'every queue has its partition table, as createQueue makes it');

select isnt(internal.enqueue_job('account.test', '{"accountId": "00000000-0000-4000-8000-0000000000ab"}', 'account:00000000-0000-4000-8000-0000000000ab'),
  null, 'a job is queued');
select is(internal.enqueue_job('account.test', '{"accountId": "00000000-0000-4000-8000-0000000000ab"}', 'account:00000000-0000-4000-8000-0000000000ab'),
  null, 'the same singleton key while the first waits: nothing queued');
select results_eq(
  $$select retry_limit, retry_delay, expire_in, policy from pgboss.job where singleton_key = 'account:00000000-0000-4000-8000-0000000000ab'$$,
  $$values (1, 60, interval '10 minutes', 'short')$$,
  'the job takes the queue''s retry and expiry settings');

select tests.authenticate_as_runner();
select results_eq(
  $$update pgboss.job set state = 'active', started_on = now() where name = 'account.test' and singleton_key = 'account:00000000-0000-4000-8000-0000000000ab' returning data ->> 'accountId'$$,
  $$values ('00000000-0000-4000-8000-0000000000ab')$$,
  'the runner fetches jobs');
select tests.authenticate_as_anon();
select throws_ok($$select * from pgboss.job$$, '42501', 'permission denied for schema pgboss', 'the client roles cannot reach the queue');

select * from finish();
rollback;
