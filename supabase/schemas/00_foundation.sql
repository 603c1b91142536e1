-- Foundation: the internal schema, the runner's role, the test clock and the helpers every other
-- file uses (now(), updated_at, time zones, who is calling).
--
-- The current definition of every object, one file per domain, applied in file-name order.
-- Write a change here first, then `npm run db:diff -- <name>` writes the migration; `npm run
-- check:deploy` fails when these files and supabase/migrations build different catalogs
-- (docs/database.md "Changing the schema").

-- The runner's database role (roles belong to the cluster; each environment gives it a login).
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'reachflow_runner') then
    create role reachflow_runner nologin noinherit;
  end if;
  -- postgres (not a superuser on hosted Supabase) must be able to act as the runner: the database
  -- tests do. PostgreSQL 16+ gives a role's creator only ADMIN, so SET is asked for explicitly there.
  if current_setting('server_version_num')::int >= 160000 then
    execute 'grant reachflow_runner to postgres with set true';
  else
    execute 'grant reachflow_runner to postgres';
  end if;
end
$$;

-- Schemas and types -------------------------------------------------------------------------------

create schema internal;

-- trigram indexes for substring search (hosted Supabase offers pg_trgm in the extensions schema)
create extension if not exists pg_trgm with schema extensions;

comment on schema internal is
  'Helpers for policies, triggers and the scheduler. Not exposed by the data API.';

-- Functions the tables' checks and defaults call --------------------------------------------------

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

-- Tables ------------------------------------------------------------------------------------------

create table internal.clock (
  id boolean not null default true,
  "offset" interval not null default '00:00:00'::interval,
  constraint clock_pkey primary key (id),
  constraint clock_id_check check (id)
);
comment on table internal.clock is
  'The test clock: one row whose offset is added to now() by internal.now(). Zero in production.';
comment on column internal.clock."offset" is
  'How far internal.now() runs ahead of (or behind) the real time.';

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.refuse_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception '% is read-only', tg_table_name using errcode = '42501';
end
$$;
comment on function internal.refuse_view_write() is
  'INSTEAD OF trigger for read-only views in public: a write is a 403, not a 500 from the rewriter.';

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

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.assert_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not (internal.is_admin() or coalesce((select auth.role()), '') = 'service_role') then
    raise exception 'Access denied - admin privileges required' using errcode = '42501';
  end if;
end
$$;
comment on function internal.assert_admin() is
  'Raises the product''s 403 text (Access denied - admin privileges required) unless the caller is an admin or the service role.';

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

create or replace function internal.now()
returns timestamp with time zone
language sql
stable security definer
set search_path = ''
as $$
  select now() + coalesce((select c."offset" from internal.clock c where c.id), interval '0')
$$;
comment on function internal.now() is
  'The time every scheduled decision uses: now() plus the test clock offset. Security definer so every role can read the clock without reading the table.';

-- Row-level security ------------------------------------------------------------------------------

alter table internal.clock enable row level security;

-- Grants ------------------------------------------------------------------------------------------

grant usage on schema internal to authenticated, reachflow_runner, service_role;
grant usage on schema public to reachflow_runner;
grant select, update on internal.clock to service_role;

revoke execute on function internal.assert_admin() from public;
grant execute on function internal.assert_admin() to authenticated, service_role;

revoke execute on function internal.is_admin() from public;
grant execute on function internal.is_admin() to authenticated, service_role;

revoke execute on function internal.is_client_role() from public;
grant execute on function internal.is_client_role() to anon, authenticated, reachflow_runner, service_role;

revoke execute on function internal.is_valid_timezone(text) from public;
grant execute on function internal.is_valid_timezone(text) to anon, authenticated, reachflow_runner, service_role;

revoke execute on function internal.now() from public;
grant execute on function internal.now() to anon, authenticated, reachflow_runner, service_role;

revoke execute on function internal.refuse_view_write() from public;

revoke execute on function internal.set_updated_at() from public;
grant execute on function internal.set_updated_at() to authenticated, service_role;
