-- Official Instagram accounts and their automations: the customer sees and changes only their own
-- automations, only on their own official Instagram account; runs are read-only to them; official
-- Instagram accounts get no browser inbox reads; the connect states are one-use.
begin;
select plan(12);

select tests.create_supabase_user('ig_owner');
select tests.create_supabase_user('ig_other');
select tests.give_plan('ig_owner', 5);
select tests.give_plan('ig_other', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('ig_owner'), 'owner_official', '17841000000000001',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as official \gset
select (public.create_instagram_official_account(tests.get_supabase_uid('ig_other'), 'other_official', '17841000000000002',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as others \gset
select tests.create_social_account('ig_owner', 'owner_browser', 'instagram') as browser \gset

select is((select connection || '/' || status || '/' || warmup_phase from public.social_accounts where id = :'official'),
  'official/active/5', 'an official account starts active, with no warm-up');
select throws_ok(
  $$select public.create_instagram_official_account(tests.get_supabase_uid('ig_owner'), 'taken', '17841000000000002', 'k1', 'k1:eA==', now())$$,
  '23505', 'This Instagram account is connected to another Reachflow workspace. Disconnect it there first.',
  'one Instagram account belongs to one workspace');
select is(exists (select 1 from internal.inbox_syncs_due(internal.now()) d where d.account_id = :'official'), false,
  'an official Instagram account is never due a browser inbox read');

select tests.authenticate_as('ig_owner');
select lives_ok(
  format($$insert into public.instagram_automations (account_id, name, trigger, keywords, reply_text) values (%L, 'Guide', 'comment_keyword', '{guide}', 'Here it is')$$, :'official'),
  'a customer adds an automation on their official account');
select throws_ok(
  format($$insert into public.instagram_automations (account_id, name, trigger, keywords, reply_text) values (%L, 'X', 'dm_keyword', '{hi}', 'Hi')$$, :'browser'),
  '23503', 'Automations run on an Instagram account connected through Instagram''s API. Choose one of yours.',
  'not on a browser account');
select throws_ok(
  format($$insert into public.instagram_automations (account_id, name, trigger, keywords, reply_text) values (%L, 'X', 'dm_keyword', '{hi}', 'Hi')$$, :'others'),
  '23503', null, 'not on another customer''s account');
select throws_ok(
  format($$insert into public.instagram_automations (account_id, name, trigger, reply_text) values (%L, 'X', 'dm_keyword', 'Hi')$$, :'official'),
  '23514', null, 'a keyword trigger needs a keyword');
select throws_ok(
  format($$insert into public.instagram_automations (account_id, name, trigger, reply_text, public_reply_text) values (%L, 'X', 'story_mention', 'Hi', 'Public')$$, :'official'),
  '23514', null, 'a public reply only answers a comment');

select tests.authenticate_as('ig_other');
select is((select count(*) from public.instagram_automations)::int, 0, 'another customer sees none of them');
update public.instagram_automations set reply_text = 'hijacked';
select tests.clear_authentication();
select is((select reply_text from public.instagram_automations where account_id = :'official'), 'Here it is',
  'and changes none of them');

select tests.authenticate_as('ig_owner');
select throws_ok(
  format($$insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id) select id, user_id, account_id, 'comment:1', '2' from public.instagram_automations where account_id = %L$$, :'official'),
  '42501', null, 'runs are written by the runner only');
select tests.clear_authentication();

select public.begin_instagram_connect(tests.get_supabase_uid('ig_owner'), repeat('a', 64), internal.now() + interval '10 minutes');
select is(array[public.consume_instagram_connect(repeat('a', 64)), public.consume_instagram_connect(repeat('a', 64))],
  array[tests.get_supabase_uid('ig_owner'), null], 'a connect state is used once');

select * from finish();
rollback;
