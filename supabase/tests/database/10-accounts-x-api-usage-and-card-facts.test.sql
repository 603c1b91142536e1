-- What the account cards read: an official X account's billable X API units (only the runner and
-- the service role record them, once per resource per UTC day; each customer reads their own, for
-- this month), an official Instagram account's facts (last message received, messages this week,
-- Meta's last webhook delivery), and a deleted account's alerts resolved.
begin;
select plan(13);

select tests.create_supabase_user('cost_owner');
select tests.create_supabase_user('cost_other');
select tests.give_plan('cost_owner', 5);
select tests.give_plan('cost_other', 5);
select tests.freeze_time('2026-11-20 10:00:00+00');

select tests.authenticate_as_service_role();
select (public.connect_official_x_account(tests.get_supabase_uid('cost_owner'), 'cost_x', '1690000101', 'k1', 'k1:dG9r')) ->> 'id' as x_account \gset
select (public.connect_official_x_account(tests.get_supabase_uid('cost_other'), 'other_x', '1690000102', 'k1', 'k1:dG9r')) ->> 'id' as other_x \gset
select tests.clear_authentication();
select tests.create_social_account('cost_owner', 'browser_x') as browser_x \gset

-- recording ---------------------------------------------------------------------------------------
select tests.authenticate_as('cost_owner');
select throws_ok(
  format($$select public.record_x_api_usage(%L, 'dm_create', array['e0'])$$, :'x_account'),
  '42501', 'permission denied for function record_x_api_usage', 'a customer cannot record usage');
select throws_ok(
  format($$insert into public.x_api_usage (account_id, user_id, day, kind, unit_key) values (%L, %L, current_date, 'dm_create', 'e0')$$,
         :'x_account', tests.get_supabase_uid('cost_owner')),
  '42501', 'permission denied for table x_api_usage', 'nor write the table');

select tests.authenticate_as_runner();
select is(public.record_x_api_usage(:'x_account', 'dm_create', array['e1', 'e2']), 2, 'the runner records two DMs created');
select is(public.record_x_api_usage(:'x_account', 'dm_event_read', array['e1', 'e2', 'e3', 'e3']), 3,
  'three DM events read, a repeat in one answer counted once');
select is(public.record_x_api_usage(:'x_account', 'dm_event_read', array['e1', 'e2', 'e3', 'e4']), 1,
  'reading them again the same UTC day counts only the new one');
select is(public.record_x_api_usage(:'browser_x', 'dm_create', array['b1']), 0, 'a browser account incurs no X API cost');
select throws_ok(
  format($$select public.record_x_api_usage(%L, 'posts_read', array['p1'])$$, :'x_account'),
  '23514', null, 'only the priced kinds');
select public.record_x_api_usage(:'other_x', 'dm_create', array['o1']);
select tests.clear_authentication();

select tests.freeze_time('2026-11-21 09:00:00+00');
select tests.authenticate_as_service_role();
select is(public.record_x_api_usage(:'x_account', 'dm_event_read', array['e1']), 1, 'the next UTC day a read counts again');
select public.record_x_api_usage(:'x_account', 'own_read', array['1690000101']);
select tests.clear_authentication();
-- last month's units are not this month's
insert into public.x_api_usage (account_id, user_id, day, kind, unit_key)
values (:'x_account', tests.get_supabase_uid('cost_owner'), '2026-10-31', 'dm_create', 'old');

-- reading -----------------------------------------------------------------------------------------
select tests.authenticate_as('cost_owner');
select results_eq(
  $$select account_id::text, kind, units from public.x_api_usage_this_month() order by kind$$,
  format($$values (%L, 'dm_create', 2), (%L, 'dm_event_read', 5), (%L, 'own_read', 1)$$, :'x_account', :'x_account', :'x_account'),
  'the owner reads this month''s units of their account, by kind');
select is((select count(*)::int from public.x_api_usage where account_id = :'other_x'), 0, 'and not another customer''s units');
select tests.clear_authentication();

-- an official Instagram account's facts -------------------------------------------------------------
select tests.authenticate_as_service_role();
select (public.create_instagram_official_account(tests.get_supabase_uid('cost_owner'), 'cost_ig', '17841000000000101',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as ig \gset
select public.record_instagram_webhook_events(jsonb_build_array(
  jsonb_build_object('key', 'mid.1', 'accountId', '17841000000000101', 'field', 'messages', 'kind', 'message',
                     'occurredAt', '2026-11-21 08:47:00+00', 'payload', '{}'::jsonb)));
select tests.clear_authentication();
select internal.record_instagram_message(:'ig', 'p1', 'lead_one', 'incoming', 'mid.old', 'Hello before', '2026-11-10 08:00:00+00');
select internal.record_instagram_message(:'ig', 'p1', 'lead_one', 'incoming', 'mid.1', 'Hi there', '2026-11-21 08:47:00+00');
select internal.record_instagram_message(:'ig', 'p1', 'lead_one', 'outgoing', 'mid.2', 'Thanks!', '2026-11-21 08:50:00+00');

select tests.authenticate_as('cost_owner');
select results_eq(
  $$select account_id::text, last_received_at, received_this_week, last_webhook_at is not null from public.instagram_official_facts()$$,
  format($$values (%L, '2026-11-21 08:47:00+00'::timestamptz, 1, true)$$, :'ig'),
  'last message received, messages received this week, and Meta''s last delivery');
select tests.authenticate_as('cost_other');
select is((select count(*)::int from public.instagram_official_facts()), 0, 'another customer sees none of it');

-- a deleted account's alerts ----------------------------------------------------------------------
select tests.clear_authentication();
insert into public.notifications (user_id, type, title, message, metadata)
values (tests.get_supabase_uid('cost_owner'), 'account_flagged', 'Account needs attention', '@browser_x cannot sign in',
        jsonb_build_object('accountId', :'browser_x', 'status', 'error')),
       (tests.get_supabase_uid('cost_owner'), 'account_flagged', 'Account needs attention', '@cost_x stopped',
        jsonb_build_object('accountId', :'x_account', 'status', 'error'));
select tests.authenticate_as('cost_owner');
select public.delete_social_account(:'browser_x');
select results_eq(
  $$select metadata ->> 'accountId', read, metadata ->> 'resolution' from public.notifications order by message$$,
  format($$values (%L, true, 'deleted'), (%L, false, null)$$, :'browser_x', :'x_account'),
  'the deleted attempt''s alert is resolved; another account''s stays');

select * from finish();
rollback;
