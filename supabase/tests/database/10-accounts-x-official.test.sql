-- Official X accounts: the connect function (service role only; active, official, within the plan
-- limit; the same X user again renews it; a browser-connected one is not taken over), the pending
-- OAuth requests no client can read, and the runner's one write of credentials, for official
-- accounts only.
begin;
select plan(15);

select tests.create_supabase_user('xoff_owner');
select tests.create_supabase_user('xoff_free');

-- connect_official_x_account ------------------------------------------------------------------
select tests.authenticate_as('xoff_owner');
select throws_ok(
  format($$select public.connect_official_x_account(%L, 'me_x', '1690000001', 'k1', 'k1:abc')$$, tests.get_supabase_uid('xoff_owner')),
  '42501', 'permission denied for function connect_official_x_account', 'customers cannot call it themselves');

select tests.authenticate_as_service_role();
select public.connect_official_x_account(tests.get_supabase_uid('xoff_owner'), 'me_x', '1690000001', 'k1', 'k1:dG9rZW5z') as first \gset
select results_eq(
  format($$select status, connection, platform_user_id, username from public.social_accounts where id = %L$$, (:'first'::jsonb) ->> 'id'),
  $$values ('active', 'official', '1690000001', 'me_x')$$,
  'the account is active, official, with its X user id');
select is((:'first'::jsonb) ->> 'reconnected', 'false', 'a new account');
select public.connect_official_x_account(tests.get_supabase_uid('xoff_owner'), 'me_x_renamed', '1690000001', 'k1', 'k1:bmV3') as again \gset
select is((:'again'::jsonb) ->> 'id', (:'first'::jsonb) ->> 'id', 'the same X user again renews the same account');
select results_eq(
  format($$select a.username, c.ciphertext from public.social_accounts a join public.social_account_credentials c on c.account_id = a.id where a.id = %L$$, (:'first'::jsonb) ->> 'id'),
  $$values ('me_x_renamed', 'k1:bmV3')$$,
  'with its new handle and tokens');
select throws_ok(
  format($$select public.connect_official_x_account(%L, 'me_x2', 'not-an-id', 'k1', 'k1:eA==')$$, tests.get_supabase_uid('xoff_owner')),
  '22023', 'X returned no user id', 'the X user id must be numeric');

select tests.create_social_account('xoff_free', 'browser_x');
insert into public.social_account_credentials (account_id, key_id, ciphertext)
select id, 'k1', 'k1:YnJvd3Nlcg==' from public.social_accounts where username = 'browser_x';
select throws_ok(
  format($$select public.connect_official_x_account(%L, 'browser_x', '1690000009', 'k1', 'k1:eA==')$$, tests.get_supabase_uid('xoff_free')),
  '23505', 'This X account is already connected through the browser. Delete it first to connect it through the X API.',
  'a browser-connected account of the same handle is not taken over');
select throws_ok(
  format($$select public.connect_official_x_account(%L, 'second_x', '1690000010', 'k1', 'k1:eA==')$$, tests.get_supabase_uid('xoff_free')),
  'P0001', 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
  'the plan limit holds as for any account');

-- x_oauth_requests -----------------------------------------------------------------------------
insert into public.x_oauth_requests (user_id, state_hash, key_id, sealed, redirect_uri, expires_at)
values (tests.get_supabase_uid('xoff_owner'), 'hash-1', 'k1', 'k1:c2VhbGVk', 'https://app/cb', now() + interval '10 minutes');
select tests.authenticate_as('xoff_owner');
select throws_ok($$select count(*) from public.x_oauth_requests$$, '42501', 'permission denied for table x_oauth_requests',
  'a customer cannot read even their own pending request (verifier and app secret)');

-- save_official_credentials ---------------------------------------------------------------------
select throws_ok(
  format($$select public.save_official_credentials(%L, 'k1', 'k1:eA==')$$, (:'first'::jsonb) ->> 'id'),
  '42501', 'permission denied for function save_official_credentials', 'customers cannot call it');
select tests.authenticate_as_runner();
select lives_ok(
  format($$select public.save_official_credentials(%L, 'k1', 'k1:cm90YXRlZA==')$$, (:'first'::jsonb) ->> 'id'),
  'the runner saves an official account''s rotated tokens');
select throws_ok(
  format($$select public.save_official_credentials(%L, 'k1', 'k1:eA==')$$,
    (select id from public.social_accounts where username = 'browser_x')),
  'PT404', null, 'but never a browser account''s sign-in details');
select throws_ok(
  format($$select public.save_official_credentials(%L, 'k2', 'k1:eA==')$$, (:'first'::jsonb) ->> 'id'),
  '22023', 'Credentials must be sealed with the named key', 'the key id must match the sealed value');
select tests.authenticate_as_service_role();
select results_eq(
  format($$select ciphertext from public.social_account_credentials where account_id = %L$$, (:'first'::jsonb) ->> 'id'),
  $$values ('k1:cm90YXRlZA==')$$,
  'the saved tokens are the rotated ones');
select results_eq(
  $$select c.ciphertext from public.social_account_credentials c join public.social_accounts a on a.id = c.account_id where a.username = 'browser_x'$$,
  $$values ('k1:YnJvd3Nlcg==')$$,
  'and the browser account''s cookies are untouched');

select * from finish();
rollback;
