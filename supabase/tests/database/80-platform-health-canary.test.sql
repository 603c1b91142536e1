-- The canary's schedule (every few minutes per platform on the chosen accounts in turn, every minute
-- while something is paused, dead runs closed, 30 days kept) and the platform packs: code defaults
-- registered by runners, a draft tried on the canary, publishing only after that try passed, one
-- version per set of facts, rolling back to what was in effect before.
begin;
select plan(43);

lock table public.platform_canary_runs, public.platform_canary_accounts, public.platform_action_pauses,
  public.platform_pack_publications in exclusive mode;
delete from public.platform_canary_accounts;
delete from public.platform_canary_runs;
delete from public.platform_action_pauses;
delete from public.platform_pack_publications;
delete from public.platform_packs;

select tests.create_supabase_user('canary_customer');
select tests.create_supabase_user('canary_admin', null, '{"role": "admin"}');
select tests.give_plan('canary_customer', 5);
select tests.create_social_account('canary_customer', 'canary_one') as one \gset
select tests.create_social_account('canary_customer', 'canary_two') as two \gset
select tests.create_social_account('canary_customer', 'canary_gram', 'instagram') as gram \gset
select tests.freeze_time('2026-11-27 12:00:00+00');

create function pg_temp.runs(p_platform text) returns integer language sql as $$
  select count(*)::int from public.platform_canary_runs where platform = p_platform $$;

-- Who may touch it --------------------------------------------------------------------------------

select tests.authenticate_as('canary_admin');
select throws_ok($$select * from public.platform_canary_runs$$, '42501', 'permission denied for table platform_canary_runs',
  'operators read canary runs through the admin function only');
select throws_ok($$select public.admin_try_pack('twitter', '{"version": "v"}', null)$$, '42501', null,
  'and try packs through it');
select tests.authenticate_as_runner();
select throws_ok($$select * from public.platform_canary_runs$$, '42501', 'permission denied for table platform_canary_runs',
  'the runner works runs through start and finish only');
select tests.clear_authentication();

-- Choosing accounts --------------------------------------------------------------------------------

select tests.authenticate_as_service_role();
select is(public.admin_set_canary_account(:'one', null, tests.get_supabase_uid('canary_admin')), 'saved', 'an active X account is chosen');
select is(public.admin_set_canary_account(:'two', 't-42', null), 'saved', 'a second one, with a known thread');
update public.social_accounts set status = 'paused' where id = :'gram';
select is(public.admin_set_canary_account(:'gram', null, null), 'not_active', 'a paused account cannot be chosen');
select is(public.admin_set_canary_account(gen_random_uuid(), null, null), 'not_found', 'nor a missing one');
select tests.clear_authentication();
select results_eq($$select platform, thread_id from public.platform_canary_accounts order by added_at, account_id$$,
  $$select 'twitter'::text, c.thread_id from public.platform_canary_accounts c order by c.added_at, c.account_id$$,
  'the platform comes from the account');

-- The schedule -------------------------------------------------------------------------------------

select is(internal.enqueue_platform_canaries(), 1, 'X is due (Instagram has no usable canary account)');
select is(pg_temp.runs('twitter'), 1, 'one X run');
select ok(exists (select 1 from pgboss.job j join public.platform_canary_runs r on j.data ->> 'runId' = r.id::text
                   where j.name = 'platform.canary' and j.state = 'created'), 'its job waits for a runner');
select is(internal.enqueue_platform_canaries(), 0, 'not again while it is waiting');
update public.platform_canary_runs set status = 'passed', finished_at = internal.now();
select tests.freeze_time('2026-11-27 12:03:00+00');
select is(internal.enqueue_platform_canaries(), 0, 'three minutes later: not yet (every 5 minutes)');
select tests.freeze_time('2026-11-27 12:05:00+00');
select is(internal.enqueue_platform_canaries(), 1, 'five minutes later: the next run');
select is((select count(distinct account_id)::int from public.platform_canary_runs), 2, 'on the other account, in turn');
update public.platform_canary_runs set status = 'passed', finished_at = internal.now();

insert into public.platform_action_pauses (platform, action) values ('twitter', 'send');
select tests.freeze_time('2026-11-27 12:06:00+00');
select is(internal.enqueue_platform_canaries(), 1, 'while sending on X is paused: every minute');
select tests.freeze_time('2026-11-27 12:10:00+00');
select is(internal.enqueue_platform_canaries(), 0, 'a run left unfinished blocks the next one...');
select tests.freeze_time('2026-11-27 12:22:00+00');
select is(internal.enqueue_platform_canaries(), 1, '...until 15 minutes have passed: it is closed and a new one goes');
select results_eq($$select status, error from public.platform_canary_runs where created_at = '2026-11-27 12:06:00+00'$$,
  $$values ('error', 'The canary job did not finish (the runner stopped or the job expired).')$$, 'the dead run says why');
delete from public.platform_action_pauses;

select tests.freeze_time('2026-12-28 12:00:00+00');
update public.platform_canary_runs set status = 'passed' where status in ('queued', 'running');
select internal.enqueue_platform_canaries();
select is((select count(*)::int from public.platform_canary_runs where created_at < '2026-11-28'), 0,
  'runs older than 30 days are pruned');

-- Packs: register, try, publish, roll back -----------------------------------------------------------

select tests.authenticate_as_runner();
select internal.register_code_pack('twitter', 'x-test-1', '{"version": "x-test-1", "selectors": {"inbox": "[data-testid=dm-inbox-panel]"}}') as code \gset
select is(internal.register_code_pack('twitter', 'x-test-1', '{"version": "x-test-1", "selectors": {"inbox": "[data-testid=dm-inbox-panel]"}}'),
  :'code'::uuid, 'a runner starting with the same version refreshes the same code default');
select tests.clear_authentication();

select tests.authenticate_as_service_role();
select is(public.admin_platform_pack('twitter') -> 'effective' ->> 'source', 'code', 'nothing published: the code default is in effect');
select is(public.admin_platform_pack('twitter') -> 'rollbackTo', 'null'::jsonb, 'and there is nothing to roll back to');
select is(public.admin_rollback_pack('twitter', null), null, 'so Roll back does nothing');
select public.admin_try_pack('twitter', '{"version": "x-test-2", "selectors": {"inbox": "[data-testid=dm-inbox-v2]"}}',
  tests.get_supabase_uid('canary_admin')) as tried \gset
select is(public.admin_publish_pack('twitter', (:'tried'::jsonb ->> 'packId')::uuid, null), 'trying',
  'publishing waits for the try to finish');
update public.platform_canary_runs set status = 'failed' where id = (:'tried'::jsonb ->> 'runId')::uuid;
select is(public.admin_publish_pack('twitter', (:'tried'::jsonb ->> 'packId')::uuid, null), 'failed',
  'a pack whose try failed cannot be published');
update public.platform_canary_runs set status = 'passed' where id = (:'tried'::jsonb ->> 'runId')::uuid;
select is(public.admin_publish_pack('twitter', (:'tried'::jsonb ->> 'packId')::uuid, tests.get_supabase_uid('canary_admin')),
  'published', 'after the try passed it is published');
select is(public.admin_platform_pack('twitter') -> 'effective' ->> 'version', 'x-test-2', 'and in effect');
select ok(exists (select 1 from public.platform_canary_runs where trigger = 'publish' and status = 'queued'),
  'a canary run checks the published pack at once');

select public.admin_try_pack('twitter', '{"version": "x-test-1", "selectors": {"inbox": "[data-testid=other]"}}', null) as clash \gset
update public.platform_canary_runs set status = 'passed' where id = (:'clash'::jsonb ->> 'runId')::uuid;
select is(public.admin_publish_pack('twitter', (:'clash'::jsonb ->> 'packId')::uuid, null), 'version_taken',
  'a version already naming other facts (the code default''s) is refused');

-- A try that skipped a step checked nothing there: no publication without the operator naming it.
select public.admin_try_pack('twitter', '{"version": "x-test-4", "selectors": {"inbox": "[data-testid=dm-inbox-v4]"}}', null) as skipped \gset
update public.platform_canary_runs
   set status = 'passed',
       steps = '[{"step": "session", "status": "passed"}, {"step": "inbox", "status": "passed"},
                 {"step": "thread", "status": "skipped"}, {"step": "profile", "status": "passed"},
                 {"step": "search", "status": "skipped"}]'
 where id = (:'skipped'::jsonb ->> 'runId')::uuid;
select is(public.admin_publish_pack('twitter', (:'skipped'::jsonb ->> 'packId')::uuid, null), 'unchecked',
  'a try with skipped steps does not publish');
select is(public.admin_publish_pack('twitter', (:'skipped'::jsonb ->> 'packId')::uuid, null, array['thread']), 'unchecked',
  'nor with a confirmation that leaves a skipped step out');
select is(public.admin_publish_pack('twitter', (:'skipped'::jsonb ->> 'packId')::uuid, null, array['thread', 'search', 'profile']),
  'unchecked', 'nor with one naming a step that did run');
select is(public.admin_platform_pack('twitter') -> 'effective' ->> 'version', 'x-test-2', 'x-test-2 is still in effect');
select is(public.admin_publish_pack('twitter', (:'skipped'::jsonb ->> 'packId')::uuid, tests.get_supabase_uid('canary_admin'),
                                    array['search', 'thread']),
  'published', 'the operator''s confirmation naming exactly the skipped steps publishes it');
select is(public.admin_platform_pack('twitter') -> 'history' -> 0 -> 'unchecked', '["search", "thread"]'::jsonb,
  'the history records what was published unchecked');
select is(public.admin_platform_pack('twitter') -> 'history' -> 1 -> 'unchecked', '[]'::jsonb,
  'a publication whose try ran every step records nothing unchecked');
select public.admin_rollback_pack('twitter', null);

select public.admin_try_pack('twitter', '{"version": "x-test-3", "selectors": {"inbox": "[data-testid=dm-inbox-v3]"}}', null) as third \gset
update public.platform_canary_runs set status = 'passed' where id = (:'third'::jsonb ->> 'runId')::uuid;
select is(public.admin_publish_pack('twitter', (:'third'::jsonb ->> 'packId')::uuid, null), 'published', 'a third pack is published');
select is(public.admin_rollback_pack('twitter', null) ->> 'version', 'x-test-2', 'roll back: to the pack in effect before it');
select is(public.admin_platform_pack('twitter') -> 'effective' ->> 'version', 'x-test-2', 'which is in effect again');
select is(public.admin_rollback_pack('twitter', null) ->> 'source', 'code', 'again: further back, to the code default');
select is(public.admin_platform_pack('twitter') -> 'effective' ->> 'version', 'x-test-1', 'the code default is in effect');
select is(public.admin_rollback_pack('twitter', null), null, 'and no further: nothing came before it');
select tests.clear_authentication();

select * from finish();
rollback;
