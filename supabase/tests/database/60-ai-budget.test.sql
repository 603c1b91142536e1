-- The AI budget: ai_reserve admits requests up to the daily limits and refuses
-- (counting the refusal) past them, settle swaps the estimate for the reported tokens, customers
-- read only their own usage and may not reserve for themselves, the runner may; the budget is the
-- workspace's (two members of one share it, one person in two workspaces has each one's); the new columns
-- customers may set (ai_personalization, the ideal customer) and those only the runner may
-- (the personalisation verdict, the AI counters).
begin;
select plan(25);

select tests.create_supabase_user('ai_owner');
select tests.create_supabase_user('ai_other');
select tests.give_plan('ai_owner', 2);
select tests.create_social_account('ai_owner', 'ai_owner_x') as account \gset
update public.ai_settings set requests_per_day = 2, tokens_per_day = 1000;

select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 400) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner')),
  $$values (true)$$, 'the first request fits');
select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 700) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner')),
  $$values (false)$$, 'a request that would pass the token limit is refused');
select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 600) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner')),
  $$values (true)$$, 'one exactly at the token limit fits');
select results_eq(
  format($$select requests, tokens, denied from public.ai_usage where user_id = %L$$, tests.get_supabase_uid('ai_owner')),
  $$values (2, 1000, 1)$$, 'two requests, 1000 tokens reserved, one refusal counted');
select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 1) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner')),
  $$values (false)$$, 'the request limit refuses a third request');

select public.ai_settle(tests.get_supabase_uid('ai_owner'), tests.get_supabase_uid('ai_owner'), (internal.now() at time zone 'utc')::date, 600, 150, false);
select public.ai_settle(tests.get_supabase_uid('ai_owner'), tests.get_supabase_uid('ai_owner'), (internal.now() at time zone 'utc')::date, 400, 0, true);
select results_eq(
  format($$select tokens, failures from public.ai_usage where user_id = %L$$, tests.get_supabase_uid('ai_owner')),
  $$values (150, 1)$$, 'settling replaces estimates with what was used and counts the failed call');

select tests.freeze_time(now() + interval '1 day');
select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 10) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner')),
  $$values (true)$$, 'a new UTC day has a new budget');

select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 10) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_other')),
  $$values (true)$$, 'each customer has their own budget');

select tests.authenticate_as('ai_owner');
select results_eq($$select count(*)::int from public.ai_usage$$, $$values (2)$$,
  'a customer reads their own usage rows only');
select throws_ok(
  format($$select public.ai_reserve(%1$L, %1$L, 1)$$, tests.get_supabase_uid('ai_owner')),
  '42501', null, 'a customer cannot reserve budget themselves');
select throws_ok($$update public.ai_settings set requests_per_day = 1000000$$,
  '42501', null, 'a customer cannot raise the budget');
select lives_ok($$select requests_per_day from public.ai_settings$$, 'a customer reads the budget');
select throws_ok($$select * from public.admin_ai_usage()$$, '42501', null,
  'a customer cannot list everyone''s AI usage');

select lives_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, ai_ideal_customer, ai_min_score)
           values (%L, 'AI scrape', %L, '[{"type": "keyword", "value": "saas"}]', 'SaaS founders', 70)$$,
         tests.get_supabase_uid('ai_owner'), :'account'),
  'a customer sets the ideal customer and threshold of their scraping campaign');
select throws_ok($$update public.scraping_campaigns set ai_skipped = 0$$, '42501', null,
  'the AI counters are the runner''s');
select throws_ok($$update public.dm_logs set personalization = 'personalized'$$, '42501', null,
  'the personalisation verdict is the runner''s');

select tests.authenticate_as_service_role();
select results_eq(
  format($$select requests, denied, owner_email from public.admin_ai_usage() where workspace_id = %L$$, tests.get_supabase_uid('ai_owner')),
  $$values (1, 0, 'ai_owner@test.reachflow.test')$$, 'operators (through the admin function''s service role) see each workspace''s use today, with its owner');

select tests.authenticate_as_runner();
select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 10) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_other')),
  $$values (true)$$, 'the runner reserves budget for a customer');

-- The budget is the workspace's: today the owner's workspace has used 1 of its 2 requests.
select tests.clear_authentication();
select tests.create_supabase_user('ai_member');
insert into public.workspace_members (workspace_id, user_id, role)
values (tests.get_supabase_uid('ai_owner'), tests.get_supabase_uid('ai_member'), 'editor');
select tests.authenticate_as_runner();
select results_eq(
  format($$select (public.ai_reserve(%L, %L, 10) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner'), tests.get_supabase_uid('ai_member')),
  $$values (true)$$, 'a member uses the second request of the owner''s workspace');
select results_eq(
  format($$select (public.ai_reserve(%1$L, %1$L, 10) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_owner')),
  $$values (false)$$, 'two members of one workspace share its limit: the owner is refused the third');
select results_eq(
  format($$select (public.ai_reserve(%L, %L, 10) ->> 'allowed')::boolean$$, tests.get_supabase_uid('ai_member'), tests.get_supabase_uid('ai_member')),
  $$values (true)$$, 'the same person''s own workspace has its own budget: their use in the other does not count');
select results_eq(
  format($$select (public.ai_reserve(%L, %L, 10) -> 'requests')::int$$, tests.get_supabase_uid('ai_owner'), tests.get_supabase_uid('ai_member')),
  $$values (2)$$, 'a refusal answers the workspace''s use, not the member''s');
select tests.clear_authentication();
select results_eq(
  format($$select workspace_id = %1$L, user_id = %2$L, requests, denied from public.ai_usage
            where day = (internal.now() at time zone 'utc')::date and user_id in (%1$L, %2$L) order by 1 desc, 2 desc$$,
         tests.get_supabase_uid('ai_owner'), tests.get_supabase_uid('ai_member')),
  $$values (true, true, 1, 1), (true, false, 1, 1), (false, true, 1, 0)$$,
  'each row names the workspace it was used in and who used it');
select throws_ok(
  format($$select public.ai_reserve(gen_random_uuid(), %L, 10)$$, tests.get_supabase_uid('ai_member')),
  '22023', 'ai_reserve needs an existing workspace', 'a reservation names a real workspace');

select tests.authenticate_as_service_role();
select results_eq(
  format($$select requests, denied from public.admin_ai_usage() where workspace_id = %L$$, tests.get_supabase_uid('ai_owner')),
  $$values (2, 2)$$, 'operators see the workspace''s members'' use added up');

select * from finish();
rollback;
