-- Each automation's results as its owner reads them: triggered, sent, refused and failed with the
-- reasons, replied (the person wrote again after the answer) and conversations started (the answer
-- was the account's first exchange with that person); nobody else's, and nothing to anon.
begin;
select plan(6);

select tests.create_supabase_user('res_owner');
select tests.create_supabase_user('res_other');
select tests.give_plan('res_owner', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('res_owner'), 'res_official', '17841000000000011',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as official \gset
insert into public.instagram_automations (user_id, account_id, name, trigger, keywords, reply_text)
values (tests.get_supabase_uid('res_owner'), :'official', 'Guide', 'comment_keyword', '{guide}', 'Here it is')
returning id as guide \gset
insert into public.instagram_automations (user_id, account_id, name, trigger, keywords, reply_text)
values (tests.get_supabase_uid('res_owner'), :'official', 'Price', 'dm_keyword', '{price}', 'It costs 10')
returning id as price \gset

-- what people wrote to the account: p1 wrote before the automation answered and again after it
insert into internal.instagram_webhook_events (event_key, instagram_account_id, field, kind, occurred_at, payload) values
  ('message:m0', '17841000000000011', 'messages', 'message', now() - interval '3 hours', '{"sender": {"id": "p1"}, "message": {"text": "hello"}}'),
  ('message:m1', '17841000000000011', 'messages', 'message', now() - interval '30 minutes', '{"sender": {"id": "p1"}, "message": {"text": "thanks!"}}'),
  -- the account's own message echoed back is not the person replying
  ('message:m2', '17841000000000011', 'messages', 'echo', now() - interval '20 minutes', '{"sender": {"id": "17841000000000011"}, "recipient": {"id": "p2"}, "message": {"text": "x"}}'),
  -- another account's person of the same id is not this account's
  ('message:m3', '17841000000000099', 'messages', 'message', now() - interval '10 minutes', '{"sender": {"id": "p2"}, "message": {"text": "hi"}}');

insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, status, reason, created_at) values
  (:'guide', tests.get_supabase_uid('res_owner'), :'official', 'comment:c1', 'p1', 'sent', null, now() - interval '1 hour'),
  (:'guide', tests.get_supabase_uid('res_owner'), :'official', 'comment:c2', 'p2', 'sent', null, now() - interval '50 minutes'),
  (:'guide', tests.get_supabase_uid('res_owner'), :'official', 'comment:c3', 'p2', 'sent', null, now() - interval '40 minutes'),
  (:'guide', tests.get_supabase_uid('res_owner'), :'official', 'comment:c4', 'p3', 'refused', 'Too old', now() - interval '30 minutes'),
  (:'guide', tests.get_supabase_uid('res_owner'), :'official', 'comment:c5', 'p4', 'refused', 'Too old', now() - interval '20 minutes'),
  (:'guide', tests.get_supabase_uid('res_owner'), :'official', 'comment:c6', 'p5', 'failed', 'Instagram could not be reached', now() - interval '10 minutes');

select tests.authenticate_as('res_owner');
select results_eq(
  format($$select triggered, sent, refused, failed, replied, conversations_started from public.instagram_automation_results() where automation_id = %L$$, :'guide'),
  $$values (6, 3, 2, 1, 1, 1)$$,
  'six runs: three sent, two refused, one failed; p1 replied; only the first DM to p2 started a conversation');
select is(
  (select refusals from public.instagram_automation_results() where automation_id = :'guide'),
  '[{"reason": "Too old", "count": 2}, {"reason": "Instagram could not be reached", "count": 1}]'::jsonb,
  'the reasons, commonest first');
select results_eq(
  format($$select triggered, sent, replied, conversations_started, refusals, last_triggered_at from public.instagram_automation_results() where automation_id = %L$$, :'price'),
  $$values (0, 0, 0, 0, '[]'::jsonb, null::timestamptz)$$,
  'an automation that never ran is listed with nothing');

select tests.authenticate_as('res_other');
select is((select count(*) from public.instagram_automation_results())::int, 0, 'another customer reads none of them');
select tests.clear_authentication();

set local role anon;
select throws_ok($$select * from public.instagram_automation_results()$$, '42501', null, 'anon cannot ask');
reset role;

select tests.authenticate_as('res_owner');
select is((select count(*) from public.instagram_automation_results())::int, 2, 'the owner reads both of theirs');
select tests.clear_authentication();

select * from finish();
rollback;
