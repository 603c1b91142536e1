-- Check now beside official Instagram accounts: Instagram's webhooks bring their messages, so Check
-- now queues no sync for one (it would never be reported checked) and says there is nothing to
-- check when it is the only account; the overview says how each account connects.
begin;
select plan(5);

select tests.create_supabase_user('ck_owner');
select tests.give_plan('ck_owner', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('ck_owner'), 'ck_shop', '17841000000000081',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as shop \gset

select tests.authenticate_as('ck_owner');
select throws_ok($$select public.request_inbox_check()$$, 'PT409',
  'No active account to check. Connect or fix an account in Social Accounts.',
  'with only an official Instagram account there is nothing to check');
select results_eq($$select a ->> 'connection' from jsonb_array_elements(public.inbox_overview() -> 'accounts') a$$,
  $$values ('official'::text)$$, 'the overview says the account is connected through the official API');
select tests.clear_authentication();

select tests.create_social_account('ck_owner', 'ck_browser', 'twitter') as browser \gset
select tests.authenticate_as('ck_owner');
select is((public.request_inbox_check() ->> 'queued')::int, 1, 'with a browser account beside it, only that one is queued');
select tests.clear_authentication();
select is((select count(*)::int from pgboss.job where name = 'inbox.sync' and data ->> 'accountId' = :'shop'), 0,
  'no inbox sync for the official Instagram account');
select is((select count(*)::int from public.inbox_check_requests where account_id = :'shop'), 0,
  'nor a check request it could never answer');

select * from finish();
rollback;
