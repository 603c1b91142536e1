-- Proxy hosts in their one canonical spelling. The old check read `012.63.0.1` as 12.63.0.1 (public)
-- while browsers, Node and inet_aton read the leading zero as octal: 10.63.0.1. Postgres has no
-- parser that reads hosts the way browsers do, and a second hand-written one would drift, so the
-- database does not interpret hosts at all: the api function reads what the customer typed with the
-- shared parser (supabase/functions/_shared/host.ts) and stores only its canonical form, and this
-- check accepts nothing else:
--   * IPv4 as four decimal numbers 0-255 without leading zeros (every parser reads those alike);
--   * IPv6 in brackets, lowercase hex and colons only, exactly as browsers print it (checked against
--     Postgres's own printing, which is the same for global unicast), inside 2000::/3 and outside
--     the blocks that embed other addresses (6to4, Teredo) or are not hosts (documentation);
--   * a lowercase ASCII name with a dot, no trailing dot, whose last label is not a number (a browser
--     would read such a name as IPv4), not a local-only name.
-- Anything else is refused with a message that says how to write the host. Accounts that already
-- hold a proxy this refuses are put in error with that reason (the runner would refuse it at the next
-- connect anyway), so the customer enters it again in Edit account.

create or replace function internal.proxy_address_problem(proxy text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  hostport text := regexp_replace(proxy, '^[a-z][a-z0-9+.-]*://', '');
  host text := regexp_replace(hostport, ':[0-9]{1,5}$', '');
  port integer := nullif(substring(hostport from ':([0-9]{1,5})$'), '')::integer;
  octet constant text := '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
  label constant text := '[a-z0-9-]{1,63}';
  address inet;
  private_host constant text := 'Proxy %s points at a private or local address. Use your proxy provider''s public host.';
begin
  if proxy is null then
    return null;
  end if;
  if position('@' in proxy) > 0 then
    return 'A proxy''s login is sealed with the account''s credentials; proxy_url keeps host:port only.';
  end if;
  if port is null or not (port in (80, 443, 1080, 1081, 3128, 3129) or port between 8000 and 65535) then
    return format('Proxy port %s is not a proxy port. Use 80, 443, 1080, 3128, 8000-9999 or 10000-65535.', coalesce(port::text, '?'));
  end if;
  if host ~ ('^' || octet || '(\.' || octet || '){3}$') then
    address := host::inet;
    if address << '0.0.0.0/8' or address << '10.0.0.0/8' or address << '100.64.0.0/10'
       or address << '127.0.0.0/8' or address << '169.254.0.0/16' or address << '172.16.0.0/12'
       or address << '192.0.0.0/24' or address << '192.168.0.0/16' or address << '198.18.0.0/15'
       or address << '224.0.0.0/3' then
      return format(private_host, host);
    end if;
    return null;
  end if;
  if host ~ '^\[[0-9a-f:]+\]$' then
    begin
      address := btrim(host, '[]')::inet;
    exception when invalid_text_representation then
      address := null;
    end;
    if address is not null and pg_catalog.host(address) = btrim(host, '[]') then
      if not address << '2000::/3' or address << '2001::/23' or address << '2001:db8::/32'
         or address << '2002::/16' or address << '3fff::/20' then
        return format(private_host, host);
      end if;
      return null;
    end if;
  elsif length(host) <= 253 and host ~ ('^(' || label || '\.)+' || label || '$')
        and host !~ '\.([0-9]+|0x[0-9a-f]*)$' then
    if host ~ '(^|\.)(localhost|local|internal|lan|localdomain|home\.arpa)$' then
      return format(private_host, host);
    end if;
    return null;
  elsif host ~ '^[a-z0-9-]+$' and host !~ '^([0-9]+|0x[0-9a-f]*)$' then
    return format(private_host, host); -- a name without a dot only means something inside a network
  end if;
  return format('Proxy host %s is not written in its plain form: use a name such as proxy.example.com, an IPv4 address as four decimal numbers (203.0.113.7) or an IPv6 address in brackets.', host);
end
$$;
comment on function internal.proxy_address_problem(text) is
  'Why a proxy address may not be stored, or null. Accepts only the canonical host spellings the api function produces (_shared/host.ts): dotted-decimal IPv4, bracketed IPv6 as browsers print it, a lowercase name that does not end in a number; refuses private, loopback, link-local, metadata, reserved and IPv6 non-global addresses, local names and non-proxy ports. Names are resolved and checked by the api function and the runner.';
revoke execute on function internal.proxy_address_problem(text) from public;

-- Proxies stored before this that are not in canonical form (or reach a private address when read
-- as a browser reads them): the account waits for the customer, as after a failed connect.
with refused as (
  update public.social_accounts a
     set status = 'error',
         flag_reason = left(internal.proxy_address_problem(a.proxy_url), 500)
   where a.proxy_url is not null
     and internal.proxy_address_problem(a.proxy_url) is not null
  returning a.id, a.user_id, a.username, a.flag_reason
)
insert into public.notifications (user_id, type, title, message, metadata)
select r.user_id, 'account_flagged', 'Account needs attention',
       format('@%s cannot use its proxy: %s Enter the proxy again in Edit account, then test the account again.', r.username, r.flag_reason),
       jsonb_build_object('accountId', r.id, 'status', 'error')
  from refused r;
