-- Platforms, social accounts and their credentials: the plan limit holds on every insert path,
-- system columns are protected, and no client role can read credentials.
begin;
select plan(34);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.create_supabase_user('free');
select tests.create_supabase_user('lapsed');
select tests.create_supabase_user('boss', null, '{"role": "admin"}');
select tests.give_plan('owner', 2, 'growth', 'trialing');
select tests.give_plan('lapsed', 3, 'growth', 'canceled');

-- Platforms ------------------------------------------------------------------------------------
select tests.authenticate_as_anon();
select results_eq(
  $$select name, is_active, coming_soon from public.platforms order by name$$,
  $$values ('facebook', false, true), ('instagram', true, false), ('linkedin', false, true), ('tiktok', false, true), ('twitter', true, false)$$,
  'anyone reads the platforms: Instagram and Twitter connectable, the rest coming soon');
select throws_ok($$insert into public.platforms (name, display_name) values ('myspace', 'MySpace')$$,
  '42501', 'permission denied for table platforms', 'visitors cannot add platforms');
select tests.authenticate_as('owner');
select throws_ok($$update public.platforms set is_active = true$$,
  '42501', 'permission denied for table platforms', 'customers cannot change platforms');

-- The account limit ----------------------------------------------------------------------------
select tests.clear_authentication();
select lives_ok($$select tests.create_social_account('owner', 'owner_x')$$, 'a trialing Growth plan for 2 allows a first account');
select lives_ok($$select tests.create_social_account('owner', 'owner.ig', 'instagram')$$, '... and a second');
select throws_ok($$select tests.create_social_account('owner', 'owner_third')$$,
  'P0001', 'Account limit reached. You have 2/2 accounts.', '... but not a third, whoever inserts it');
select lives_ok($$select tests.create_social_account('free', 'free_one')$$, 'the free plan allows one account');
select throws_ok($$select tests.create_social_account('free', 'free_two')$$,
  'P0001', 'Account limit reached. You have 1/1 accounts.', '... and no second');
select throws_ok($$select tests.create_social_account('other', 'other_li', 'linkedin')$$,
  'P0001', 'This platform cannot be connected yet', 'coming-soon platforms cannot be connected');
select throws_ok($$select tests.create_social_account('other', '@other')$$,
  '23514', null, 'usernames are stored without @');
select lives_ok($$select tests.create_social_account('other', 'other_x')$$, 'another customer connects their own account');

select tests.authenticate_as('owner');
select results_eq($$select public.check_account_limit()$$,
  $$values ('{"canAddAccount": false, "currentCount": 2, "limit": 2, "planType": "growth", "error": "Account limit reached. You have 2/2 accounts."}'::jsonb)$$,
  'the limit check reports a full Growth plan with the product''s text');
select tests.authenticate_as('free');
select results_eq($$select public.check_account_limit()$$,
  $$values ('{"canAddAccount": false, "currentCount": 1, "limit": 1, "planType": "free", "error": "You are currently limited to 1 social media account. Upgrade your plan to add more accounts."}'::jsonb)$$,
  'the free plan''s text');
select tests.authenticate_as('lapsed');
select results_eq($$select public.check_account_limit()$$,
  $$values ('{"canAddAccount": true, "currentCount": 0, "limit": 1, "planType": "free", "error": null}'::jsonb)$$,
  'a cancelled subscription falls back to the free plan and may add its one account');
select tests.clear_authentication();
select tests.create_social_account('lapsed', 'lapsed_x');
select tests.authenticate_as('lapsed');
select results_eq($$select public.check_account_limit() ->> 'error'$$, $$values ('Subscription is not active')$$,
  'at the free limit with a lapsed subscription the check says the subscription is not active');

-- Reading and changing accounts ----------------------------------------------------------------
select tests.authenticate_as('owner');
select results_eq($$select username from public.social_accounts order by username$$, $$values ('owner.ig'), ('owner_x')$$,
  'the owner reads only their own accounts');
select results_eq(
  $$update public.social_accounts set daily_message_limit = 30, timezone = 'Europe/Paris'
     where username = 'owner_x' returning daily_message_limit, timezone$$,
  $$values (30, 'Europe/Paris')$$,
  'the owner sets the daily limit and time zone');
select throws_ok($$update public.social_accounts set status = 'active'$$, '42501', 'permission denied for table social_accounts',
  'the owner cannot set the status');
select throws_ok($$update public.social_accounts set trust_score = 1$$, '42501', 'permission denied for table social_accounts',
  'the owner cannot set the trust score');
select throws_ok($$update public.social_accounts set messages_sent_today = 0$$, '42501', 'permission denied for table social_accounts',
  'the owner cannot reset the daily counter');
select throws_ok($$update public.social_accounts set user_id = gen_random_uuid()$$, '42501', 'permission denied for table social_accounts',
  'the owner cannot give the account away');
select throws_ok($$update public.social_accounts set daily_message_limit = 501 where username = 'owner_x'$$, '23514', null,
  'the daily limit is 1-500');
select throws_ok($$update public.social_accounts set proxy_url = '203.0.113.5:8080' where username = 'owner_x'$$, '42501', null,
  'proxies change through the api function (its checks, its sealing of the login), not the data API');
select throws_ok(
  $$insert into public.social_accounts (user_id, platform_id, username) select auth.uid(), id, 'sneaky' from public.platforms where name = 'twitter'$$,
  '42501', 'permission denied for table social_accounts', 'accounts are added through the function, not directly');

select tests.authenticate_as('other');
select is_empty($$select 1 from public.social_accounts where username like 'owner%'$$, 'another customer cannot see the accounts');
select is_empty($$update public.social_accounts set daily_message_limit = 1 where username = 'owner_x' returning 1$$,
  'another customer cannot change them');
select is_empty($$delete from public.social_accounts where username = 'owner_x' returning 1$$, 'another customer cannot delete them');

select tests.authenticate_as('boss');
select is_empty($$select 1 from public.social_accounts$$, 'an admin sees customers'' accounts only through the admin function');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.social_accounts$$, '42501', 'permission denied for table social_accounts',
  'anonymous visitors cannot read accounts');

-- Credentials ----------------------------------------------------------------------------------
select tests.authenticate_as_service_role();
insert into public.social_account_credentials (account_id, key_id, ciphertext)
select id, 'k1', 'c2VhbGVk' from public.social_accounts where username = 'owner_x';

select tests.authenticate_as('owner');
select throws_ok($$select * from public.social_account_credentials$$, '42501', 'permission denied for table social_account_credentials',
  'not even the owner can read credentials');
select tests.authenticate_as_runner();
select results_eq($$select key_id, ciphertext from public.social_account_credentials$$, $$values ('k1', 'c2VhbGVk')$$,
  'the runner reads credentials to decrypt them');
select results_eq($$update public.social_account_credentials set session_ciphertext = 'c2Vzc2lvbg==' returning session_ciphertext$$,
  $$values ('c2Vzc2lvbg==')$$, 'the runner saves its browser session');
select throws_ok($$update public.social_account_credentials set ciphertext = 'eA=='$$, '42501',
  'permission denied for table social_account_credentials', 'the runner cannot replace the credentials');

select tests.authenticate_as('owner');
delete from public.social_accounts where username = 'owner_x';
select tests.clear_authentication();
select is_empty($$select 1 from public.social_account_credentials$$, 'deleting an account deletes its credentials');

select * from finish();
rollback;
