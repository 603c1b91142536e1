-- The Supabase platform layer, part 1: the roles and schemas a hosted project has before any
-- migration runs. Only the local stack installs this; hosted Supabase already provides it.
-- Applied by `supabase_admin`, the bootstrap superuser (initdb -U supabase_admin), as on hosted.
-- Idempotent: the stack applies it on every start. docs/database.md "Hosted shape" lists what is
-- emulated rather than real.

do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit password 'postgres';
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin noinherit createrole login password 'postgres';
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin noinherit createrole login password 'postgres';
  end if;
  -- The project's owner role, as hosted: not a superuser. `supabase db push` and the SQL editor use it.
  if not exists (select from pg_roles where rolname = 'postgres') then
    create role postgres login password 'postgres';
  end if;
end
$$;

alter role supabase_admin superuser createdb createrole replication bypassrls login password 'postgres';
alter role postgres nosuperuser createrole createdb replication bypassrls login inherit;

grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
-- As hosted: postgres may read settings and statistics and end other sessions (SQL editor chores).
grant pg_monitor, pg_signal_backend to postgres;
-- Hosted Supabase no longer makes postgres a member of the Auth and Storage owners.
revoke supabase_auth_admin, supabase_storage_admin from postgres;

-- As hosted: postgres owns the project's database (and so the `public` schema, owned by
-- pg_database_owner) and may create schemas in it.
alter database postgres owner to postgres;

create schema if not exists extensions;
-- As hosted's initial schema ("Allow Extensions to be used in the API"): every role may use it.
grant usage on schema extensions to public;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;

-- As on hosted Supabase: the API roles may use the public schema and get default grants on what
-- postgres creates there; row-level security is what protects the rows.
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

alter role authenticator set statement_timeout = '8s';
-- As hosted (supabase/postgres migration 20220118070449_enable-safeupdate-postgrest): every Data API
-- session loads pg-safeupdate, so an UPDATE or DELETE without a WHERE clause fails (SQLSTATE 21000).
-- The local library is stack/platform/ext/safeupdate.c, found through dynamic_library_path.
alter role authenticator set session_preload_libraries = 'safeupdate';
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- The table the Supabase CLI keeps its applied migrations in (the CLI creates it as postgres).
create schema if not exists supabase_migrations authorization postgres;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);
create table if not exists supabase_migrations.seed_files (
  path text primary key,
  hash text not null
);
alter table supabase_migrations.schema_migrations owner to postgres;
alter table supabase_migrations.seed_files owner to postgres;

-- Hosted Supabase puts `extensions` on the search path of postgres and the API roles.
alter role postgres set search_path = "$user", public, extensions;
alter role anon set search_path = "$user", public, extensions;
alter role authenticated set search_path = "$user", public, extensions;
alter role service_role set search_path = "$user", public, extensions;
