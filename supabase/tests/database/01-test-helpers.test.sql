-- Test helpers every other test file uses, kept in the repo (as basejump's supabase_test_helpers):
-- create named users, act as a user / admin / anon / the service role / the runner, freeze the
-- clock, and check row-level security over the catalog. This file commits them (no rollback); it
-- only ever runs against a test database.

create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role, reachflow_runner;
-- pgTAP lives in `extensions`; the runner role needs to reach it while a test acts as the runner.
grant usage on schema extensions to reachflow_runner;

create or replace function tests.create_supabase_user(identifier text, email text default null, app_metadata jsonb default null)
returns uuid
language plpgsql
as $$
declare
  user_id uuid := gen_random_uuid();
begin
  insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values (user_id, 'authenticated', 'authenticated', coalesce(email, identifier || '@test.reachflow.test'), '', now(),
          '{"provider": "email", "providers": ["email"]}'::jsonb || coalesce(app_metadata, '{}'::jsonb),
          jsonb_build_object('test_identifier', identifier, 'full_name', initcap(identifier)), now(), now());
  return user_id;
end
$$;

-- Security definer so tests can look users up while acting as a client role.
create or replace function tests.get_supabase_uid(identifier text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select u.id from auth.users u where u.raw_user_meta_data ->> 'test_identifier' = identifier
$$;

create or replace function tests.authenticate_as(identifier text)
returns void
language plpgsql
as $$
declare
  found record;
begin
  set local role none;
  select id, email, raw_app_meta_data into found from auth.users where raw_user_meta_data ->> 'test_identifier' = identifier;
  if found.id is null then
    raise exception 'No test user "%"', identifier;
  end if;
  perform set_config('request.jwt.claims', jsonb_build_object('sub', found.id, 'role', 'authenticated', 'aud', 'authenticated',
    'email', found.email, 'app_metadata', found.raw_app_meta_data)::text, true);
  set local role authenticated;
end
$$;

create or replace function tests.authenticate_as_anon()
returns void
language plpgsql
as $$
begin
  set local role none;
  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  set local role anon;
end
$$;

create or replace function tests.authenticate_as_service_role()
returns void
language plpgsql
as $$
begin
  set local role none;
  perform set_config('request.jwt.claims', '{"role": "service_role"}', true);
  set local role service_role;
end
$$;

create or replace function tests.authenticate_as_runner()
returns void
language plpgsql
as $$
begin
  set local role none;
  perform set_config('request.jwt.claims', '', true);
  set local role reachflow_runner;
end
$$;

create or replace function tests.clear_authentication()
returns void
language plpgsql
as $$
begin
  set local role none;
  perform set_config('request.jwt.claims', '', true);
end
$$;

-- Freezes internal.now() at the given instant for the rest of the transaction (now() is constant in
-- a transaction, so the offset makes internal.now() exactly `at`).
create or replace function tests.freeze_time(at timestamptz)
returns void
language sql
as $$
  update internal.clock set "offset" = at - now()
$$;

-- Gives a test user an active Growth plan for that many accounts (the account limit is enforced on insert).
create or replace function tests.give_plan(identifier text, accounts integer default 10, plan text default 'growth', status text default 'active')
returns uuid
language sql
as $$
  insert into public.subscriptions (user_id, status, plan_type, accounts_purchased)
  values (tests.get_supabase_uid(identifier), status, plan, accounts)
  returning id
$$;

-- Connects a social account for a test user (as the social-accounts function would, with the service role's rights).
create or replace function tests.create_social_account(identifier text, username text, platform text default 'twitter',
  timezone text default 'UTC')
returns uuid
language sql
as $$
  insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase, timezone)
  select tests.get_supabase_uid(identifier), p.id, username, 'active', 5, timezone
    from public.platforms p where p.name = platform
  returning id
$$;

-- pgTAP assertion: every table of the schema has row-level security enabled.
create or replace function tests.rls_enabled(schema_name text)
returns text
language sql
as $$
  select extensions.is(
    (select coalesce(array_agg(c.relname::text order by c.relname), '{}')
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = schema_name and c.relkind in ('r', 'p') and not c.relrowsecurity),
    '{}'::text[],
    format('every table in schema %s has row-level security enabled', schema_name))
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role, reachflow_runner;

begin;
select plan(3);
select has_function('tests', 'create_supabase_user', array['text', 'text', 'jsonb'], 'tests.create_supabase_user() exists');
select has_function('tests', 'authenticate_as', array['text'], 'tests.authenticate_as() exists');
select has_function('tests', 'rls_enabled', array['text'], 'tests.rls_enabled() exists');
select * from finish();
rollback;
