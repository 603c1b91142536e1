-- Security rules checked over the whole catalog, so a new table or function cannot forget them:
-- row-level security on every table, no EXECUTE for everyone on helpers, a fixed search_path on
-- every security definer function, and the secret tables out of every client role's reach.
begin;
select plan(11);

select tests.rls_enabled('public');
select tests.rls_enabled('internal');

select is(
  (select coalesce(array_agg(p.oid::regprocedure::text order by 1), '{}')
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'internal' and has_function_privilege('public', p.oid, 'execute')),
  '{}'::text[],
  'no internal helper is executable by PUBLIC');

select is(
  (select coalesce(array_agg(p.oid::regprocedure::text order by 1), '{}')
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'internal') and p.prosecdef
      and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c = 'search_path=""')),
  '{}'::text[],
  'every security definer function sets search_path to empty');

select is(
  (select coalesce(array_agg(p.oid::regprocedure::text order by 1), '{}')
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prokind = 'f'
      and (has_function_privilege('public', p.oid, 'execute') or has_function_privilege('anon', p.oid, 'execute'))),
  '{}'::text[],
  'no public function is executable by anon or PUBLIC');

select is(
  (select array_agg(privilege_type::text order by 1) from information_schema.role_table_grants
    where table_schema = 'public' and table_name = 'social_account_credentials'
      and grantee in ('anon', 'authenticated', 'PUBLIC')),
  null,
  'no client role has any privilege on social_account_credentials');

select is(
  (select count(*)::int from information_schema.column_privileges
    where table_schema = 'public' and table_name = 'social_account_credentials'
      and grantee in ('anon', 'authenticated', 'PUBLIC')),
  0,
  'no client role has a column privilege on social_account_credentials');

select ok(
  not has_schema_privilege('anon', 'pgboss', 'usage') and not has_schema_privilege('authenticated', 'pgboss', 'usage'),
  'the job queue schema is out of reach of the client roles');

select ok(
  not has_schema_privilege('anon', 'internal', 'create') and not has_schema_privilege('authenticated', 'internal', 'create'),
  'client roles cannot create objects in internal');

select is(
  (select coalesce(array_agg(c.oid::regclass::text order by 1), '{}')
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'internal') and c.relkind in ('r', 'p', 'v') and obj_description(c.oid, 'pg_class') is null),
  '{}'::text[],
  'every table and view says what it is for (comment on, shown in Supabase Studio)');

select is(
  (select coalesce(array_agg(p.oid::regprocedure::text order by 1), '{}')
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'internal') and obj_description(p.oid, 'pg_proc') is null),
  '{}'::text[],
  'every function says what it is for');

select * from finish();
rollback;
