-- Notifications (owner reads, marks read, deletes; the system writes) and the operations tables
-- (admins read through the client; the runner writes what it must; customers see nothing).
begin;
select plan(24);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.create_supabase_user('boss', null, '{"role": "admin"}');

select internal.notify(tests.get_supabase_uid('owner'), tests.get_supabase_uid('owner'), 'campaign_completed', 'Campaign completed', 'Done', '{"campaignId": "x"}') as note \gset
select internal.notify(tests.get_supabase_uid('owner'), tests.get_supabase_uid('owner'), 'account_flagged', 'Account paused', 'Slow down', null);

-- Notifications --------------------------------------------------------------------------------
select tests.authenticate_as('owner');
select results_eq($$select type, read, read_at from public.notifications order by type$$,
  $$values ('account_flagged', false, null::timestamptz), ('campaign_completed', false, null::timestamptz)$$,
  'the owner reads their notifications, unread');
select results_eq(format($$update public.notifications set read = true where id = %L returning read, read_at is not null$$, :'note'),
  $$values (true, true)$$, 'marking one read stamps read_at');
select results_eq($$update public.notifications set read = true where not read returning type$$,
  $$values ('account_flagged')$$, 'mark all read touches the unread ones');
select throws_ok($$update public.notifications set title = 'Edited'$$, '42501', 'permission denied for table notifications',
  'the owner cannot rewrite a notification');
select throws_ok($$insert into public.notifications (user_id, type, title) values (auth.uid(), 'x_y', 'Fake')$$,
  '42501', 'permission denied for table notifications', 'customers cannot create notifications');

select tests.authenticate_as('other');
select is_empty($$select 1 from public.notifications$$, 'another customer cannot read them');
select is_empty($$update public.notifications set read = false returning 1$$, 'another customer cannot mark them');
select is_empty($$delete from public.notifications returning 1$$, 'another customer cannot delete them');

select tests.authenticate_as('owner');
select results_eq(format($$delete from public.notifications where id = %L returning type$$, :'note'),
  $$values ('campaign_completed')$$, 'the owner deletes their own');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.notifications$$, '42501', 'permission denied for table notifications',
  'visitors cannot read notifications');

select tests.authenticate_as_runner();
select lives_ok(
  format($$insert into public.notifications (user_id, type, title, message) values (%L, 'account_flagged', 'Flagged', 'X asked to verify')$$,
         tests.get_supabase_uid('owner')),
  'the runner notifies customers');
select throws_ok($$select * from public.notifications$$, '42501', 'permission denied for table notifications',
  'the runner cannot read notifications');
select throws_ok(
  format($$insert into public.notifications (user_id, type, title) values (%L, 'Bad Type!', 'x')$$, tests.get_supabase_uid('owner')),
  '23514', null, 'notification types are lowercase identifiers');

-- Operations -----------------------------------------------------------------------------------
select lives_ok($$insert into public.runner_heartbeats (runner_id, host, pid, cpu_percent, memory_mb, uptime_seconds, current_jobs)
                  values ('host-a:4242', 'host-a', 4242, 12.5, 310, 60, '[{"name": "campaign.tick"}]')$$,
  'the runner writes its heartbeat');
select lives_ok($$update public.runner_heartbeats set last_seen_at = now(), uptime_seconds = 65 where runner_id = 'host-a:4242'$$,
  '... and refreshes it');
select lives_ok($$insert into public.system_logs (level, service, message) values ('warn', 'twitter', 'Rate limited')$$,
  'the runner writes system logs');
select throws_ok($$select * from public.system_logs$$, '42501', 'permission denied for table system_logs',
  'the runner cannot read system logs');
select throws_ok($$insert into public.system_logs (level, service, message) values ('fatal', 'twitter', 'x')$$,
  '23514', null, 'log levels are error, warn, info, debug');
select tests.authenticate_as_service_role();
insert into public.runner_commands (runner_id, command) values ('host-a:4242', 'restart');
insert into public.paused_queues (name) values ('scrape.run');

select tests.authenticate_as('boss');
select results_eq(
  $$select (select count(*) from public.runner_heartbeats where runner_id = 'host-a:4242')::int,
           (select count(*) from public.runner_commands where runner_id = 'host-a:4242')::int,
           (select count(*) from public.system_logs where message = 'Rate limited')::int,
           (select count(*) from public.paused_queues where name = 'scrape.run')::int$$,
  $$values (1, 1, 1, 1)$$,
  'an admin reads heartbeats, commands, logs and paused queues');
select throws_ok($$delete from public.system_logs$$, '42501', 'permission denied for table system_logs',
  'clearing logs goes through the admin function');

select tests.authenticate_as('owner');
select is_empty(
  $$select 1 from public.runner_heartbeats union all select 1 from public.runner_commands
    union all select 1 from public.system_logs union all select 1 from public.paused_queues$$,
  'customers see nothing of the operations tables');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.system_logs$$, '42501', 'permission denied for table system_logs',
  'visitors cannot read system logs');

select tests.authenticate_as_runner();
select results_eq($$update public.runner_commands set status = 'done', completed_at = now() where runner_id = 'host-a:4242' returning command$$,
  $$values ('restart')$$, 'the runner acknowledges its commands');
select throws_ok($$insert into public.paused_queues (name) values ('inbox.sync')$$, '42501', 'permission denied for table paused_queues',
  'the runner cannot pause queues itself');

select * from finish();
rollback;
