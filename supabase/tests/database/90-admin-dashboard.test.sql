-- The rest of the admin tab's functions: runner processes and their status from heartbeat age,
-- restart / stop commands, host figures, the overview counts, users, campaigns and accounts with
-- their details, pausing and resuming an account's sending, clearing logs. Service role only.
begin;
select plan(32);

select tests.create_supabase_user('boss', null, '{"role": "admin"}');
select tests.create_supabase_user('ivy');
select tests.give_plan('ivy', 3, 'growth', 'trialing');
select tests.create_social_account('ivy', 'ivy_x') as account \gset
update public.social_accounts set warmup_phase = 2, trust_score = 0.42, last_login_at = now() - interval '1 hour'
 where id = :'account';

insert into public.runner_heartbeats (runner_id, host, pid, cpu_percent, memory_mb, memory_percent, load_average,
  uptime_seconds, status, started_at, last_seen_at)
values ('test-fresh', 'test-host-a', 4101, 12.5, 180.25, 40, '{1.5,1.2,0.9}', 3600, 'running', now() - interval '1 hour', now()),
       ('test-slow', 'test-host-a', 4102, 3, 90, 40, '{1.4,1.1,0.8}', 60, 'running', now() - interval '2 minutes',
        now() - interval '45 seconds'),
       ('test-gone', 'test-host-b', 4103, 0, 0, 10, '{9,9,9}', 10, 'running', now() - interval '10 minutes',
        now() - interval '5 minutes'),
       ('test-leaving', 'test-host-b', 4104, 1, 50, 10, '{0.1,0.1,0.1}', 5, 'stopping', now() - interval '1 minute', now());

select tests.authenticate_as('boss');
select throws_ok($$select public.admin_dashboard_stats()$$, '42501', 'permission denied for function admin_dashboard_stats',
  'an admin in the client cannot call the RPCs directly');
select throws_ok($$select * from public.admin_users()$$, '42501', 'permission denied for function admin_users',
  '... nor list users');

select tests.authenticate_as_service_role();

-- Processes ----------------------------------------------------------------------------------

select results_eq(
  $$select name, pid, status, cpu, memory, uptime from public.admin_runner_processes() where name like 'test-%' order by name$$,
  $$values ('test-fresh', 4101, 'running', 12.50, 180.25, 3600), ('test-gone', 4103, 'stopped', 0.00, 0.00, 10),
           ('test-leaving', 4104, 'stopping', 1.00, 50.00, 5), ('test-slow', 4102, 'unresponsive', 3.00, 90.00, 60)$$,
  'a process''s status comes from its heartbeat''s age: running, unresponsive after 30 s, stopped after 2 min');
select is(public.admin_request_runner_command('test-nobody', 'restart', null), null, 'an unknown runner gets no command');
select public.admin_request_runner_command('test-fresh', 'restart', tests.get_supabase_uid('boss')) as restart_id \gset
select ok(:'restart_id' is not null, 'Restart asks the runner through runner_commands');
select results_eq($$select runner_id, command, status, requested_by from public.runner_commands where id = $$ || quote_literal(:'restart_id'),
  $$values ('test-fresh', 'restart', 'pending', tests.get_supabase_uid('boss'))$$, '... a pending restart for that runner, by that admin');
select is(public.admin_request_runner_command('test-fresh', 'restart', null), :'restart_id'::uuid,
  'pressing Restart again asks only once');
select is((select pending_command from public.admin_runner_processes() where name = 'test-fresh'), 'restart',
  'the process shows the restart under way');
update public.runner_commands set status = 'done' where id = :'restart_id';
select isnt(public.admin_request_runner_command('test-fresh', 'restart', null), :'restart_id'::uuid,
  'once done, a new Restart is a new command');
select ok(public.admin_request_runner_command('test-fresh', 'stop', null) is not null, 'Kill asks the runner to stop');

select results_eq(
  $$select host, cpu_percent, memory_percent, load_average, runners from public.admin_system_hosts() where role = 'runner' and host like 'test-%'$$,
  $$values ('test-host-a', 12.5, 40.00, '{1.5,1.2,0.9}'::numeric[], 1), ('test-host-b', 1.0, 10.00, '{0.1,0.1,0.1}'::numeric[], 1)$$,
  'hosts: live runners only, their CPU summed, memory and the newest load average');
select ok((public.admin_dashboard_stats() -> 'system' ->> 'activeWorkers')::int >= 1, 'a running runner counts as an active worker');
select ok((public.admin_dashboard_stats() -> 'system' ->> 'uptime')::int >= 3600, 'system uptime is the longest running runner''s');

-- Overview -----------------------------------------------------------------------------------

select ok((public.admin_dashboard_stats() -> 'users' ->> 'trial')::int >= 1, 'a trialing customer counts as trial');
select ok((public.admin_dashboard_stats() -> 'accounts' ->> 'warming')::int >= 1, 'an account in warm-up counts as warming');
select is(
  (select status from public.admin_recent_activity(50) where id = 'account:' || :'account'), 'success',
  'recent activity lists a connected account');

-- Users, campaigns, accounts -----------------------------------------------------------------

select results_eq(
  $$select email, subscription_status, account_count, campaign_count from public.admin_users() where email = 'ivy@test.reachflow.test'$$,
  $$values ('ivy@test.reachflow.test', 'trialing', 1, 0)$$, 'users: subscription status and counts');
select is((select status from public.admin_users() where email = 'ivy@test.reachflow.test'), 'inactive',
  'a user who has not signed in for 30 days is inactive');
select results_eq(
  $$select username, platform_name, user_email, status, warmup_phase, trust_score from public.admin_social_accounts() where username = 'ivy_x'$$,
  $$values ('ivy_x', 'twitter', 'ivy@test.reachflow.test', 'active', 2, 0.42)$$, 'accounts: owner, warm-up phase, trust score');
select is(public.admin_user_detail(tests.get_supabase_uid('ivy')) -> 'accounts' -> 0 ->> 'username', 'ivy_x',
  'a user''s detail lists their accounts');
select is(public.admin_user_detail(tests.get_supabase_uid('ivy')) -> 'subscriptions' -> 0 ->> 'status', 'trialing',
  '... and their subscriptions');
select is(public.admin_user_detail(gen_random_uuid()), null, 'an unknown user has no detail');
select is(public.admin_campaign_detail(gen_random_uuid()), null, 'an unknown campaign has no detail');

-- Pausing and resuming sending ---------------------------------------------------------------

select is(public.admin_set_account_sending(:'account', true), 'paused', 'an admin pauses an active account');
select results_eq($$select status, paused_until from public.social_accounts where id = $$ || quote_literal(:'account'),
  $$values ('paused', null::timestamptz)$$, '... until resumed (the scheduler only lifts timed pauses)');
select is(public.admin_set_account_sending(:'account', false), 'resumed', 'an admin resumes it');
update public.social_accounts set status = 'flagged', flag_reason = 'Locked (326)' where id = :'account';
select is(public.admin_set_account_sending(:'account', false), 'resumed', 'resuming a flagged account');
select results_eq($$select status, flag_reason from public.social_accounts where id = $$ || quote_literal(:'account'),
  $$values ('active', null::text)$$, '... clears the flag');
update public.social_accounts set status = 'error' where id = :'account';
select is(public.admin_set_account_sending(:'account', true), 'not_allowed', 'an account that cannot sign in has nothing to pause');
select is(public.admin_set_account_sending(gen_random_uuid(), true), 'not_found', 'an unknown account is not found');

-- Logs ---------------------------------------------------------------------------------------

insert into public.system_logs (level, service, message) values ('error', 'twitter', 'test line');
select ok(public.admin_clear_logs() >= 1, 'Clear Logs deletes the lines');
select is((select count(*)::int from public.system_logs), 0, '... all of them');

select * from finish();
rollback;
