-- Proxies in the database: an address on a private, loopback, link-local or metadata
-- range, a local name or a service port is refused whoever writes it; a login never sits in
-- social_accounts (it is sealed with the credentials); customers cannot change a proxy through the
-- data API; logins stored before this moved out of the customer's reach.
begin;
select plan(9);

select tests.create_supabase_user('proxied');
select tests.create_social_account('proxied', 'proxied_x') as account \gset

select throws_ok(
  format($$update public.social_accounts set proxy_url = '127.0.0.1:3128' where id = %L$$, :'account'),
  '22023', 'Proxy 127.0.0.1 points at a private or local address. Use your proxy provider''s public host.',
  'a loopback proxy is refused, even for a service-role write');
select throws_ok(
  format($$update public.social_accounts set proxy_url = '169.254.169.254:8080' where id = %L$$, :'account'),
  '22023', null, 'the cloud metadata address is refused');
select throws_ok(
  format($$update public.social_accounts set proxy_url = '10.0.0.5:8080' where id = %L$$, :'account'),
  '22023', null, 'a private range is refused');
select throws_ok(
  format($$update public.social_accounts set proxy_url = 'proxy.example.com:5432' where id = %L$$, :'account'),
  '22023', 'Proxy port 5432 is not a proxy port. Use 80, 443, 1080, 3128, 8000-9999 or 10000-65535.',
  'a service port is refused');
select throws_ok(
  format($$update public.social_accounts set proxy_url = 'user:secret@proxy.example.com:3128' where id = %L$$, :'account'),
  '22023', 'A proxy''s login is sealed with the account''s credentials; proxy_url keeps host:port only.',
  'a login cannot be stored in proxy_url');
select lives_ok(
  format($$update public.social_accounts set proxy_url = 'proxy.example.com:3128' where id = %L$$, :'account'),
  'a public proxy host and port is stored');

select tests.authenticate_as('proxied');
select throws_ok(
  format($$update public.social_accounts set proxy_url = '203.0.113.5:3128' where id = %L$$, :'account'),
  '42501', null, 'customers change proxies through the api function, not the data API');
select ok(not has_table_privilege('authenticated', 'internal.legacy_proxy_credentials', 'select'),
  'customers cannot read the legacy proxy logins');

select tests.clear_authentication();
select ok(
  not exists (select 1 from public.social_accounts where proxy_url like '%@%'),
  'no proxy login is stored in plain text in social_accounts');

select * from finish();
rollback;
