-- Proxy hosts in the database are stored only in the canonical spelling the api function produces
-- (supabase/functions/_shared/domain/host.ts), so no reader can take them for another address: the octal,
-- hex, short and embedded spellings found in review are refused, whoever writes them.
begin;
select plan(14);

select tests.create_supabase_user('canonical');
select tests.create_social_account('canonical', 'canonical_x') as account \gset

create function pg_temp.set_proxy(proxy text, account uuid) returns void language sql as $$
  update public.social_accounts set proxy_url = proxy where id = account
$$;

select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '012.63.0.1:8080', :'account'), '22023',
  'Proxy host 012.63.0.1 is not written in its plain form: use a name such as proxy.example.com, an IPv4 address as four decimal numbers (203.0.113.7) or an IPv6 address in brackets.',
  'an octal part (browsers read 012.63.0.1 as 10.63.0.1) is not taken as 12.63.0.1');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '[::ffff:0:127.0.0.1]:8080', :'account'), '22023', null,
  'the SIIT form of loopback is refused');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '[::ffff:0:7f00:1]:8080', :'account'), '22023', null,
  'the SIIT form of loopback is refused in canonical spelling too');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '[2002:7f00:1::]:8080', :'account'), '22023',
  'Proxy [2002:7f00:1::] points at a private or local address. Use your proxy provider''s public host.',
  '6to4 (which embeds any IPv4) is refused');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '[64:ff9b::a9fe:a9fe]:8080', :'account'), '22023', null,
  'NAT64 is refused');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]:8080', :'account'),
  '22023', null, 'Teredo is refused');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '2130706433:8080', :'account'), '22023', null,
  'a single decimal number is refused');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '0x7f.1:8080', :'account'), '22023', null,
  'hex and short forms are refused');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', 'proxy.example.com.:8080', :'account'), '22023', null,
  'a trailing dot is not the stored spelling');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', 'router.home.arpa:8080', :'account'), '22023',
  'Proxy router.home.arpa points at a private or local address. Use your proxy provider''s public host.',
  'home network names are refused');
select lives_ok(format('select pg_temp.set_proxy(%L, %L)', '12.63.0.1:8080', :'account'),
  'a public IPv4 in decimal is stored');
select lives_ok(format('select pg_temp.set_proxy(%L, %L)', 'socks5://[2001:4860:4860::8888]:1080', :'account'),
  'a public IPv6 as browsers print it is stored');
select throws_ok(format('select pg_temp.set_proxy(%L, %L)', '[2001:4860:4860:0::8888]:8080', :'account'), '22023', null,
  'the same IPv6 in another spelling is not');
select lives_ok(format('select pg_temp.set_proxy(%L, %L)', 'gate.proxy-provider.example:10000', :'account'),
  'a lowercase name is stored');

select * from finish();
rollback;
