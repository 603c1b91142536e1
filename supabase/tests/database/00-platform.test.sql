-- The platform layer our migrations rely on behaves as on hosted Supabase.
begin;
select plan(6);

select has_schema('auth');
select has_schema('storage');
select has_table('auth', 'users', 'auth.users exists');
select has_function('auth', 'uid', 'auth.uid() exists');

select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-8000-000000000001","role":"authenticated"}', true);
select is(auth.uid(), '00000000-0000-4000-8000-000000000001'::uuid, 'auth.uid() reads the sub claim');
select is(auth.role(), 'authenticated', 'auth.role() reads the role claim');

select * from finish();
rollback;
