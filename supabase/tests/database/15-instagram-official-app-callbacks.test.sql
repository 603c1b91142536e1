-- Meta's app callbacks in SQL: the deauthorize callback turns every official account of that
-- Instagram user to error and tells each owner once; the data deletion callback deletes those
-- accounts (automations with them) and the events Meta delivered for them, leaves browser accounts
-- and other people alone, and records a code whose status the function reads by it; no customer
-- (nor anyone signed out) can call any of these functions.
begin;
select plan(19);

select tests.create_supabase_user('cb_owner');
select tests.give_plan('cb_owner', 5);
select tests.create_supabase_user('cb_other');
select tests.give_plan('cb_other', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('cb_owner'), 'cb_shop', '17841000000000071',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as shop \gset
select (public.create_instagram_official_account(tests.get_supabase_uid('cb_other'), 'cb_other_shop', '17841000000000072',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as other_shop \gset
select tests.create_social_account('cb_owner', 'cb_browser', 'instagram') as browser \gset
insert into public.instagram_automations (account_id, user_id, name, trigger, keywords, reply_text)
values (:'shop', tests.get_supabase_uid('cb_owner'), 'Guide', 'dm_keyword', '{guide}', 'Here it is');
insert into internal.instagram_webhook_events (event_key, instagram_account_id, field, kind, occurred_at, payload)
values ('m:cb1', '17841000000000071', 'messages', 'message', now(), '{}'),
       ('m:cb2', '17841000000000072', 'messages', 'message', now(), '{}');

select is(public.instagram_access_removed('17841000000000071'), 1, 'the deauthorize callback changes the one account of that user');
select results_eq(
  format($$select status, flag_reason like 'Reachflow''s access to @cb_shop was removed on Instagram%%' from public.social_accounts where id = %L$$, :'shop'),
  $$values ('error'::text, true)$$, 'it turns error with the reason in words');
select is(public.instagram_access_removed('17841000000000071'), 0, 'a second call changes nothing');
select is((select count(*)::int from public.notifications where user_id = tests.get_supabase_uid('cb_owner') and title = 'Instagram connection lost'),
          1, 'the owner is told once');
select is((select status from public.social_accounts where id = :'other_shop'), 'active', 'another Instagram user''s account is untouched');

select public.delete_instagram_user_data('17841000000000071') as deletion \gset
select matches(:'deletion'::jsonb ->> 'confirmation_code', '^[0-9A-F]{32}$', 'the data deletion answers a confirmation code of 128 random bits');
select is((:'deletion'::jsonb ->> 'accounts_deleted')::int, 1, 'and how many accounts went');
select is((select count(*)::int from public.social_accounts where id = :'shop'), 0, 'the official account is deleted');
select is((select count(*)::int from public.instagram_automations where account_id = :'shop'), 0, 'its automations with it');
select results_eq($$select event_key from internal.instagram_webhook_events where event_key like 'm:cb%' order by 1$$,
  $$values ('m:cb2'::text)$$, 'the events Meta delivered for that user are deleted, no one else''s');
select is((select count(*)::int from public.social_accounts where id in (:'browser', :'other_shop')), 2,
  'the browser account and the other user''s account stay');
select throws_ok($$select public.delete_instagram_user_data('not-an-id')$$, '22023', 'Invalid Instagram user id', 'a malformed user id is refused');

select is(public.instagram_data_deletion_status(lower(:'deletion'::jsonb ->> 'confirmation_code')) ->> 'status', 'completed',
  'the status is found by its code, whatever its case');

-- the status page's lookups are counted per address: 2 allowed in the window here, the third not
select results_eq(
  $$select (public.take_public_lookup('test-form', '198.51.100.7', 2, 600) ->> 'allowed')::boolean
      from generate_series(1, 3)$$,
  $$values (true), (true), (false)$$, 'an address gets its lookups in a window, then is refused');
select ok((public.take_public_lookup('test-form', '198.51.100.7', 2, 600) ->> 'retryAfterSeconds')::int between 1 and 600,
  '... and is told when the window ends');
select is((public.take_public_lookup('test-form', '198.51.100.8', 2, 600) ->> 'allowed')::boolean, true,
  'another address is not held back');

select tests.authenticate_as('cb_other');
select throws_ok(
  $$select public.instagram_access_removed('17841000000000072')$$, '42501', null,
  'no customer calls the callbacks'' functions');
set local role anon;
select throws_ok(
  format($$select public.instagram_data_deletion_status(%L)$$, :'deletion'::jsonb ->> 'confirmation_code'), '42501', null,
  'nor does anyone signed out read a status straight from the database');
select throws_ok(
  $$select public.take_public_lookup('test-form', '198.51.100.9', 1000, 1)$$, '42501', null,
  'nor count lookups for themselves');

select * from finish();
rollback;
