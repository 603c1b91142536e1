-- The database has hosted Supabase's shape, and these tests run as hosted's postgres: not a
-- superuser, not a member of the Auth and Storage owners. If this regresses, every other pgTAP
-- file (and every migration) could again pass only thanks to superuser permissiveness.
begin;
select plan(19);

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

select is((select nspowner::regrole::text from pg_namespace where nspname = 'auth'), 'supabase_auth_admin', 'auth is owned by supabase_auth_admin');
select is((select nspowner::regrole::text from pg_namespace where nspname = 'storage'), 'supabase_storage_admin', 'storage is owned by supabase_storage_admin');
select is((select relowner::regrole::text from pg_class where oid = 'auth.users'::regclass), 'supabase_auth_admin', 'auth.users is owned by supabase_auth_admin');
select is((select relowner::regrole::text from pg_class where oid = 'storage.buckets'::regclass), 'supabase_storage_admin', 'storage.buckets is owned by supabase_storage_admin');
select is(
  (select array_agg(relname::text) from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'storage' and c.relkind = 'r' and c.relowner = 'postgres'::regrole),
  array['objects'],
  'in storage, postgres owns storage.objects alone (the emulation of supautils policy grants)'
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
