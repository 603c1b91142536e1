-- A site change pauses the fleet only on evidence that it is the site: the same step met by a second
-- account, or by the canary, within the window. One account's odd page holds only that account's
-- work of the action and queues a canary check; different steps do not add up; old sightings do not
-- count; a passing canary clears a suspicion of what it checks (not of sending: it never sends)
-- without telling customers anything.
begin;
select plan(34);

-- pg_cron runs the scheduler and the canary every minute on this database: keep them off our rows.
lock table public.platform_action_pauses, public.platform_incidents, public.platform_canary_runs,
  public.platform_canary_accounts in exclusive mode;
delete from public.platform_action_pauses;
delete from public.platform_canary_runs;
delete from public.platform_canary_accounts;

select tests.create_supabase_user('ev_one');
select tests.create_supabase_user('ev_two');
select tests.create_supabase_user('ev_ops', null, '{"role": "admin"}');
select tests.give_plan('ev_one', 5);
select tests.give_plan('ev_two', 5);
select tests.create_social_account('ev_one', 'ev_anna') as anna \gset
select tests.create_social_account('ev_two', 'ev_ben') as ben \gset
select tests.create_social_account('ev_ops', 'ev_canary') as canary \gset
insert into public.platform_canary_accounts (account_id) values (:'canary');
select tests.freeze_time('2026-11-28 09:00:00+00');

create function pg_temp.seen(p_step text, p_source text, p_account uuid, p_run uuid default null,
                             p_action text default 'send') returns uuid
language sql as $$
  select internal.record_site_change('twitter', p_action, p_step, '/i/chat/123-456', '{"lines": ["div"]}', p_source,
                                     'x-2026.11.28', p_account, p_run) $$;
create function pg_temp.paused() returns boolean language sql as $$
  select exists (select 1 from public.platform_action_pauses where platform = 'twitter' and action = 'send') $$;
create function pg_temp.confirm_runs() returns integer language sql as $$
  select count(*)::int from public.platform_canary_runs where platform = 'twitter' and trigger = 'confirm' $$;
create function pg_temp.told() returns integer language sql as $$
  select count(*)::int from public.notifications
   where user_id in (tests.get_supabase_uid('ev_one'), tests.get_supabase_uid('ev_two')) and type like 'platform_%' $$;

-- One account, one odd page: no pause, that account waits, the canary checks -------------------------

select tests.authenticate_as_runner();
select pg_temp.seen('open thread: composer', 'job', :'anna') as suspicion \gset
select tests.clear_authentication();
select is(pg_temp.paused(), false, 'one account meeting a page does not pause sending for every customer');
select results_eq($$select status, paused_at, evidence from public.platform_incidents where id = $$ || quote_literal(:'suspicion'),
  $$values ('open'::text, null::timestamptz, null::jsonb)$$, 'the incident is open as a suspicion, without evidence');
select is(pg_temp.told(), 0, 'no customer is told');
select tests.authenticate_as_runner();
select is(internal.platform_action_held('twitter', 'send', :'anna'), true, 'the account that met it holds its sending');
select is(internal.platform_action_held('twitter', 'send', :'ben'), false, 'another account sends on');
select is(internal.platform_action_held('twitter', 'inbox', :'anna'), false, 'and the account still reads its inbox');
select is(internal.platform_action_paused('twitter', 'send'), false, 'the runner sees no fleet pause');
select tests.clear_authentication();
select is(pg_temp.confirm_runs(), 1, 'a canary run is queued to check the step at once');
select ok(exists (select 1 from pgboss.job j join public.platform_canary_runs r on j.data ->> 'runId' = r.id::text
                   where j.name = 'platform.canary' and r.trigger = 'confirm' and r.account_id = :'canary'),
  'its job waits for a runner, on the canary''s account');
select ok(exists (select 1 from public.system_logs where level = 'warn' and metadata ->> 'incidentId' = :'suspicion'
                   and message like '%@ev_anna%only that account''s send waits%'), 'operators see a warning naming the account');
select is((select count(*)::int from public.system_logs where level = 'error' and metadata ->> 'incidentId' = :'suspicion'), 0,
  'and no pause alert');

select tests.authenticate_as_runner();
select pg_temp.seen('open thread: composer', 'job', :'anna');
select tests.clear_authentication();
select is(pg_temp.paused(), false, 'the same account meeting it again is still one account');
select is(pg_temp.confirm_runs(), 1, 'and queues no second canary run while one is on its way');

select tests.authenticate_as_runner();
select pg_temp.seen('send: composer button', 'job', :'ben');
select tests.clear_authentication();
select is(pg_temp.paused(), false, 'another account at a different step does not add up');

-- A second account at the same step: paused with the evidence ---------------------------------------

select tests.freeze_time('2026-11-28 09:10:00+00');
select tests.authenticate_as_runner();
select is(pg_temp.seen('open thread: composer', 'job', :'ben'), :'suspicion'::uuid, 'the second account meets the same incident');
select tests.clear_authentication();
select is(pg_temp.paused(), true, 'two accounts at the same step within the window: sending on X pauses fleet-wide');
select results_eq(
  $$select evidence ->> 'reason', (evidence ->> 'windowMinutes')::int, jsonb_array_length(evidence -> 'sightings')
      from public.platform_incidents where id = $$ || quote_literal(:'suspicion'),
  $$values ('accounts', 30, 2)$$, 'the evidence: two accounts within 30 minutes');
select results_eq(
  $$select e ->> 'source', e ->> 'username', e ->> 'path', (e ->> 'seenAt')::timestamptz
      from public.platform_incidents i, jsonb_array_elements(i.evidence -> 'sightings') e
     where i.id = $$ || quote_literal(:'suspicion') || $$ order by (e ->> 'seenAt')::timestamptz$$,
  $$values ('job', 'ev_anna', '/i/chat/#-#', '2026-11-28 09:00:00+00'::timestamptz),
           ('job', 'ev_ben', '/i/chat/#-#', '2026-11-28 09:10:00+00'::timestamptz)$$,
  'each account with where and when it met the page (its newest sighting)');
select ok((select paused_at is not null from public.platform_incidents where id = :'suspicion'), 'the incident says when it paused');
select is(pg_temp.told(), 2, 'now both customers are told, once each');
select ok(exists (select 1 from public.system_logs where level = 'error' and metadata ->> 'incidentId' = :'suspicion'
                   and message like '%send paused on every account, met by @ev_anna and @ev_ben within 30 minutes%'
                   and metadata -> 'evidence' ->> 'reason' = 'accounts'), 'the operators'' alert names the evidence');
select tests.authenticate_as_runner();
select is(internal.platform_action_held('twitter', 'send', :'anna'), false, 'a paused action is no longer one account''s hold');
select tests.clear_authentication();
select tests.authenticate_as_service_role();
select public.admin_resume_platform_action('twitter', 'send', tests.get_supabase_uid('ev_ops'));
select tests.clear_authentication();

-- The canary meets the step right after a job: paused on the canary's word ---------------------------

update public.platform_canary_runs set status = 'passed', finished_at = internal.now() where status = 'queued';
select tests.authenticate_as_runner();
select pg_temp.seen('inbox: conversation list', 'job', :'anna') as by_canary \gset
select tests.clear_authentication();
select is(pg_temp.paused(), false, 'one account: no pause');
select id as run from public.platform_canary_runs where trigger = 'confirm' and status = 'queued' \gset
select tests.authenticate_as_runner();
select pg_temp.seen('inbox: conversation list', 'canary', :'canary', :'run');
select tests.clear_authentication();
select is(pg_temp.paused(), true, 'the canary failing the same step on its own account pauses it');
select results_eq(
  $$select i.evidence ->> 'reason', e ->> 'source', e ->> 'username', e ->> 'canaryRunId'
      from public.platform_incidents i, jsonb_array_elements(i.evidence -> 'sightings') e
     where i.id = $$ || quote_literal(:'by_canary') || $$ order by e ->> 'source' desc$$,
  $$values ('canary', 'job', 'ev_anna', null), ('canary', 'canary', 'ev_canary', $$ || quote_literal(:'run') || $$)$$,
  'the evidence names the job''s account and the canary run');
select tests.authenticate_as_service_role();
select public.admin_resume_platform_action('twitter', 'send', null);
select tests.clear_authentication();

-- Old evidence does not count ---------------------------------------------------------------------

select tests.authenticate_as_runner();
select pg_temp.seen('thread: message list', 'job', :'anna') as stale \gset
select tests.clear_authentication();
select tests.freeze_time('2026-11-28 09:41:00+00');
select tests.authenticate_as_runner();
select is(internal.platform_action_held('twitter', 'send', :'anna'), false, 'after the window the account tries again');
select pg_temp.seen('thread: message list', 'job', :'ben');
select is(internal.platform_action_held('twitter', 'send', :'ben'), true, 'the new account holds its own sending');
select tests.clear_authentication();
select is(pg_temp.paused(), false, 'a sighting older than the window does not add up with a new one');

-- The canary passes: a suspicion of what it reads is cleared, nobody is told ---------------------------

select tests.authenticate_as_runner();
select pg_temp.seen('inbox: rows', 'job', :'ben', null, 'inbox') as read_suspicion \gset
select tests.clear_authentication();
insert into public.platform_canary_runs (platform, trigger, status, created_at) values ('twitter', 'confirm', 'running', internal.now())
returning id as pass \gset
select tests.authenticate_as_runner();
select is(internal.finish_canary_run(:'pass', 'passed', '[]', 'x-2026.11.28', null, 800) -> 'resolved' -> 'resumed', '[]'::jsonb,
  'the canary passes: nothing was paused, nothing resumes');
select is(internal.platform_action_held('twitter', 'inbox', :'ben'), false, 'the account that met the inbox page reads again');
select is(internal.platform_action_held('twitter', 'send', :'ben'), true,
  'but the canary never sends: its pass does not clear a suspicion about sending');
select tests.clear_authentication();
select is((select status || '/' || resolution from public.platform_incidents where id = :'read_suspicion'), 'resolved/canary',
  'the inbox suspicion is resolved by the canary');
select is((select status from public.platform_incidents where id = :'stale'), 'open', 'the sending one stays open');
select is((select count(*)::int from public.notifications where user_id = tests.get_supabase_uid('ev_two')
             and type = 'platform_paused'), 2, 'customers heard of the two real pauses only');

select * from finish();
rollback;
