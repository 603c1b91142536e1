-- Customers' proxies (issue 17): the runner's browser connects wherever an account's proxy points,
-- and proxy logins sat in social_accounts.proxy_url in plain text, readable by the owner through the
-- data API. From here:
--   * proxy_url keeps only [scheme://]host:port; the login is sealed with the account's other
--     credentials (social_account_credentials.ciphertext, by the api function);
--   * logins already stored move to internal.legacy_proxy_credentials (no client role can read the
--     schema); the runner seals each one into the account's credentials the first time it opens the
--     account, then deletes the row;
--   * every write of proxy_url is checked here too (no private, loopback, link-local or metadata IP
--     literal, no local name, a proxy port), besides the api function's check with DNS and the
--     runner's check of the resolved address at connect time;
--   * customers no longer update proxy_url through the data API (which skipped the api's checks).

create table internal.legacy_proxy_credentials (
  account_id uuid primary key references public.social_accounts (id) on delete cascade,
  username text not null,
  password text not null,
  moved_at timestamptz not null default now()
);
comment on table internal.legacy_proxy_credentials is
  'Proxy logins that were stored in plain text in social_accounts.proxy_url before 20261125300000; the runner seals each into social_account_credentials and deletes it.';
alter table internal.legacy_proxy_credentials enable row level security;
create policy "The runner reads legacy proxy logins" on internal.legacy_proxy_credentials
  for select to reachflow_runner using (true);
revoke all on internal.legacy_proxy_credentials from public;
grant select on internal.legacy_proxy_credentials to reachflow_runner;

-- user:pass@host:port (with or without a scheme) → the login aside, host:port kept.
with parsed as (
  select a.id,
         substring(a.proxy_url from '^([a-z][a-z0-9+.-]*://)') as scheme,
         substring(a.proxy_url from '^(?:[a-z][a-z0-9+.-]*://)?(.*)@[^@]+$') as userinfo,
         substring(a.proxy_url from '@([^@]+)$') as hostport
    from public.social_accounts a
   where a.proxy_url like '%@%'
), moved as (
  insert into internal.legacy_proxy_credentials (account_id, username, password)
  select p.id, split_part(p.userinfo, ':', 1),
         case when position(':' in p.userinfo) > 0 then substring(p.userinfo from position(':' in p.userinfo) + 1) else '' end
    from parsed p
  on conflict (account_id) do nothing
  returning account_id
)
update public.social_accounts a
   set proxy_url = coalesce(p.scheme, '') || p.hostport
  from parsed p
 where a.id = p.id;

alter table public.social_accounts drop constraint if exists social_accounts_proxy_url_check;
alter table public.social_accounts
  add constraint social_accounts_proxy_url_check
  check (proxy_url ~ '^([a-z][a-z0-9+.-]*://)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}$');
comment on column public.social_accounts.proxy_url is
  'The account''s own proxy as [scheme://]host:port; its login is sealed in social_account_credentials. One stable proxy per account.';

-- The database's own check of a proxy address: what is wrong with it, or null.
create or replace function internal.proxy_address_problem(proxy text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  hostport text := regexp_replace(proxy, '^[a-z][a-z0-9+.-]*://', '');
  host text := lower(regexp_replace(hostport, ':[0-9]{1,5}$', ''));
  port integer := nullif(substring(hostport from ':([0-9]{1,5})$'), '')::integer;
  address inet;
begin
  if proxy is null then
    return null;
  end if;
  if position('@' in proxy) > 0 then
    return 'A proxy''s login is sealed with the account''s credentials; proxy_url keeps host:port only.';
  end if;
  host := btrim(host, '[]');
  if port is null or not (port in (80, 443, 1080, 1081, 3128, 3129) or port between 8000 and 65535) then
    return format('Proxy port %s is not a proxy port. Use 80, 443, 1080, 3128, 8000-9999 or 10000-65535.', coalesce(port::text, '?'));
  end if;
  if host ~ '^[0-9.]+$' or host like '%:%' then
    begin
      address := host::inet;
    exception when others then
      return 'Proxy URL must look like user:pass@host:port';
    end;
    if address << '0.0.0.0/8' or address << '10.0.0.0/8' or address << '100.64.0.0/10'
       or address << '127.0.0.0/8' or address << '169.254.0.0/16' or address << '172.16.0.0/12'
       or address << '192.0.0.0/24' or address << '192.168.0.0/16' or address << '198.18.0.0/15'
       or address << '224.0.0.0/3' or address = '::'::inet or address = '::1'::inet
       or address << 'fc00::/7' or address << 'fe80::/10' or address << 'ff00::/8'
       or address << '::ffff:0:0/96' or address << '64:ff9b::/96' then
      return format('Proxy %s points at a private or local address. Use your proxy provider''s public host.', host);
    end if;
    return null;
  end if;
  if host = 'localhost' or host like '%.localhost' or host like '%.local' or host like '%.internal'
     or position('.' in host) = 0 then
    return format('Proxy %s points at a private or local address. Use your proxy provider''s public host.', host);
  end if;
  return null;
end
$$;
comment on function internal.proxy_address_problem(text) is
  'Why a proxy address may not be used (private/loopback/link-local/metadata IP literal, local name, not a proxy port), or null. Names are resolved and checked by the api function and the runner.';

create or replace function internal.check_proxy_address()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem text := internal.proxy_address_problem(new.proxy_url);
begin
  if problem is not null then
    raise exception '%', problem using errcode = '22023';
  end if;
  return new;
end
$$;

comment on function internal.check_proxy_address() is
  'BEFORE INSERT/UPDATE OF proxy_url on social_accounts: refuses what internal.proxy_address_problem() names (22023).';
revoke execute on function internal.proxy_address_problem(text), internal.check_proxy_address() from public;

create trigger social_accounts_check_proxy
  before insert or update of proxy_url on public.social_accounts
  for each row execute function internal.check_proxy_address();

-- Proxy changes go through the api function (its checks, its sealing of the login).
revoke update (proxy_url) on public.social_accounts from authenticated;

-- The runner seals a legacy login into the account's credentials, once: it may not replace
-- credentials otherwise, so this is the one write it gets, and only while the legacy row exists.
create or replace function internal.seal_legacy_proxy_login(p_account_id uuid, p_ciphertext text, p_key_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from internal.legacy_proxy_credentials where account_id = p_account_id;
  if not found then
    return false;
  end if;
  update public.social_account_credentials
     set ciphertext = p_ciphertext, key_id = p_key_id
   where account_id = p_account_id;
  return found;
end
$$;
comment on function internal.seal_legacy_proxy_login(uuid, text, text) is
  'The runner''s one credentials write: replaces the sealed credentials with ones that include the legacy proxy login, and deletes the plain row; false when there was none.';
revoke execute on function internal.seal_legacy_proxy_login(uuid, text, text) from public;
grant execute on function internal.seal_legacy_proxy_login(uuid, text, text) to reachflow_runner;
