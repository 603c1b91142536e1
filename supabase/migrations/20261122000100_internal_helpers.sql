-- The `internal` schema: helpers that row-level security policies, triggers and the scheduler use.
-- The data API does not expose it, so nothing here is callable over HTTP; each function is granted
-- explicitly to the roles that need it. `internal.now()` is the one clock the scheduler, the runner
-- and the sandboxes read, so tests can move time with `internal.clock`.

create schema if not exists internal;
comment on schema internal is 'Helpers for policies, triggers and the scheduler. Not exposed by the data API.';

grant usage on schema internal to authenticated, service_role;

-- Tables ---------------------------------------------------------------------------------------

create table internal.clock (
  id boolean primary key default true check (id),
  "offset" interval not null default interval '0'
);
comment on table internal.clock is
  'The test clock: one row whose offset is added to now() by internal.now(). Zero in production.';
comment on column internal.clock."offset" is 'How far internal.now() runs ahead of (or behind) the real time.';

insert into internal.clock (id, "offset") values (true, interval '0');

alter table internal.clock enable row level security;
revoke all on internal.clock from public, anon, authenticated;
grant select, update on internal.clock to service_role;

-- Helper functions -----------------------------------------------------------------------------

create or replace function internal.now()
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select now() + coalesce((select c."offset" from internal.clock c where c.id), interval '0')
$$;
comment on function internal.now() is
  'The time every scheduled decision uses: now() plus the test clock offset. Security definer so every role can read the clock without reading the table.';

create or replace function internal.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((select auth.jwt()) -> 'app_metadata' ->> 'role', '') = 'admin'
$$;
comment on function internal.is_admin() is
  'True when the request''s JWT says app_metadata.role = admin (only the service role can set app_metadata).';

create or replace function internal.is_valid_timezone(tz text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if tz is null or tz = '' then
    return false;
  end if;
  perform now() at time zone tz;
  return true;
exception
  when invalid_parameter_value then
    return false;
end
$$;
comment on function internal.is_valid_timezone(text) is
  'True for a time zone name Postgres knows (IANA names such as Europe/Berlin, or UTC).';

create or replace function internal.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
comment on function internal.set_updated_at() is 'BEFORE UPDATE trigger: stamps updated_at.';

create or replace function internal.is_client_role()
returns boolean
language sql
stable
set search_path = ''
as $$
  -- current_user is the owner inside security definer triggers, so the request's JWT role counts too.
  -- The claims are read directly (not through auth.jwt()) so roles without access to auth can call this.
  select current_user in ('anon', 'authenticated')
      or coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role', '') in ('anon', 'authenticated')
$$;
comment on function internal.is_client_role() is
  'True when the statement runs for a browser role (anon or authenticated), directly or through a trigger, so guards apply only to clients.';

-- Grants ---------------------------------------------------------------------------------------

-- Functions are executable by PUBLIC by default; every migration that adds helpers revokes that
-- and grants each one to the roles that call it.
revoke execute on all functions in schema internal from public;
grant execute on function internal.now() to anon, authenticated, service_role;
grant execute on function internal.is_admin() to authenticated, service_role;
grant execute on function internal.is_valid_timezone(text) to anon, authenticated, service_role;
grant execute on function internal.set_updated_at() to authenticated, service_role;
grant execute on function internal.is_client_role() to anon, authenticated, service_role;
