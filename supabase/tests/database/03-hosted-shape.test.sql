-- The database has hosted Supabase's shape, and these tests run as hosted's postgres: not a
-- superuser, not a member of the Auth and Storage owners. If this regresses, every other pgTAP
-- file (and every migration) could again pass only thanks to superuser permissiveness.
begin;
select plan(26);

select is(current_user::text, 'postgres', 'the tests run as postgres');
select is((select rolsuper from pg_roles where rolname = 'postgres'), false, 'postgres is not a superuser');
select ok(
  (select rolcreaterole and rolcreatedb and rolreplication and rolbypassrls and rolcanlogin
     from pg_roles where rolname = 'postgres'),
  'postgres is CREATEROLE CREATEDB REPLICATION BYPASSRLS LOGIN, as hosted'
);
select is((select rolsuper from pg_roles where rolname = 'supabase_admin'), true, 'supabase_admin is the superuser');
select is((select rolname::text from pg_roles where oid = 10), 'supabase_admin', 'supabase_admin is the bootstrap superuser');
select is(
  (select array_agg(rolname::text order by rolname) from pg_roles where rolsuper),
  array['supabase_admin'],
  'no other role is a superuser'
);

-- Owners as hosted's supabase/postgres init scripts leave them (auth-schema, storage-schema): the
-- schemas belong to supabase_admin, everything in them to the Auth or Storage server's role.
select is((select nspowner::regrole::text from pg_namespace where nspname = 'auth'), 'supabase_admin', 'auth is owned by supabase_admin');
select is((select nspowner::regrole::text from pg_namespace where nspname = 'storage'), 'supabase_admin', 'storage is owned by supabase_admin');
select is(
  (select array_agg(distinct relowner::regrole::text) from pg_class where relnamespace = 'auth'::regnamespace and relkind in ('r', 'S')),
  array['supabase_auth_admin'],
  'every auth table and sequence is owned by supabase_auth_admin'
);
select is(
  (select array_agg(distinct proowner::regrole::text) from pg_proc where pronamespace = 'auth'::regnamespace),
  array['supabase_auth_admin'],
  'every auth function is owned by supabase_auth_admin'
);
select is(
  (select array_agg(distinct relowner::regrole::text) from pg_class where relnamespace = 'storage'::regnamespace and relkind in ('r', 'S')),
  array['supabase_storage_admin'],
  'every storage table, storage.objects included, is owned by supabase_storage_admin'
);
select is(
  (select array_agg(distinct proowner::regrole::text) from pg_proc where pronamespace = 'storage'::regnamespace),
  array['supabase_storage_admin'],
  'every storage function is owned by supabase_storage_admin'
);
-- supautils' policy_grants on hosted (stack/platform/ext/policy_grants.c here): postgres manages the
-- policies of storage.objects without owning it, and may do nothing else an owner may.
select lives_ok(
  $$create policy "shape test" on storage.objects for select to authenticated using (false)$$,
  'postgres may create a policy on storage.objects'
);
select lives_ok($$alter policy "shape test" on storage.objects using (true)$$, 'postgres may alter it');
select lives_ok($$drop policy "shape test" on storage.objects$$, 'postgres may drop it');
select throws_ok(
  'alter table storage.objects add column shape_test int',
  '42501',
  'must be owner of table objects',
  'postgres may not alter storage.objects itself'
);
select throws_ok(
  $$create policy "shape test" on auth.flow_state for select using (false)$$,
  '42501',
  'must be owner of table flow_state',
  'nor manage the policies of a table hosted does not grant'
);
-- Hosted loads pg-safeupdate into every Data API session (the authenticator role).
select is(
  (select array_agg(c) from pg_db_role_setting s, unnest(s.setconfig) c
    where s.setrole = 'authenticator'::regrole and s.setdatabase = 0 and c like 'session_preload_libraries=%'),
  array['session_preload_libraries=safeupdate'],
  'authenticator sessions preload safeupdate'
);

select ok(not pg_has_role('postgres', 'supabase_auth_admin', 'member'), 'postgres is not a member of supabase_auth_admin');
select ok(not pg_has_role('postgres', 'supabase_storage_admin', 'member'), 'postgres is not a member of supabase_storage_admin');
select ok(not pg_has_role('postgres', 'supabase_admin', 'member'), 'postgres is not a member of supabase_admin');
select ok(pg_has_role('postgres', 'reachflow_runner', 'usage'), 'postgres may set role reachflow_runner');

select is(
  (select extnamespace::regnamespace::text || ' by ' || extowner::regrole::text from pg_extension where extname = 'pg_cron'),
  'pg_catalog by supabase_admin',
  'pg_cron lives in pg_catalog, created by the superuser'
);
select ok(has_schema_privilege('postgres', 'cron', 'usage'), 'postgres may use the cron schema');
select is((select datdba::regrole::text from pg_database where datname = 'postgres'), 'postgres', 'postgres owns the project database');
select is(
  (select count(*)::int from cron.job where jobname like 'reachflow-%' and username <> 'postgres'),
  0,
  'the project''s cron jobs belong to postgres'
);

select * from finish();
rollback;
