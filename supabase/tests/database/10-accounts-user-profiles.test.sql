-- user_profiles: created at sign-up, readable and editable by their owner only, billing columns
-- written by the system only.
begin;
select plan(17);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.create_supabase_user('boss', null, '{"role": "admin"}');
insert into auth.users (id, aud, role, email, raw_user_meta_data)
values ('00000000-0000-4000-8000-00000000beef', 'authenticated', 'authenticated', 'g@example.test', '{"name": "Google Person", "picture": "https://example.test/p.png"}');

select results_eq(
  $$select full_name from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  $$values ('Owner')$$,
  'sign-up creates the profile with full_name from user metadata');
select results_eq(
  $$select full_name, avatar_url, onboarding_completed, post_onboarding, subscription_status, subscription_plan, timezone
      from public.user_profiles where id = '00000000-0000-4000-8000-00000000beef'$$,
  $$values ('Google Person', 'https://example.test/p.png', false, false, 'none', 'free', 'UTC')$$,
  'Google''s name and picture are used; new profiles start un-onboarded on the free plan');

select tests.authenticate_as('owner');
select results_eq($$select count(*)::int from public.user_profiles$$, $$values (1)$$, 'a customer sees only their own profile');
select results_eq(
  $$update public.user_profiles set full_name = 'New Name', business_name = 'Biz', onboarding_completed = true,
      post_onboarding = true, onboarding_answers = '{"mainGoals": ["sales"]}' returning full_name, onboarding_completed$$,
  $$values ('New Name', true)$$,
  'the owner edits name, business, onboarding flags and answers');
select throws_ok(
  $$update public.user_profiles set subscription_plan = 'enterprise'$$,
  '42501', 'permission denied for table user_profiles',
  'the owner cannot change their plan');
select throws_ok(
  $$update public.user_profiles set subscription_status = 'active'$$,
  '42501', 'permission denied for table user_profiles',
  'the owner cannot change their subscription status');
select throws_ok(
  $$update public.user_profiles set id = gen_random_uuid()$$,
  '42501', 'permission denied for table user_profiles',
  'the owner cannot change the profile id');
select throws_ok(
  $$update public.user_profiles set timezone = 'Mars/Olympus'$$,
  '23514', null,
  'an unknown time zone is refused');
select throws_ok(
  $$insert into public.user_profiles (id) values (gen_random_uuid())$$,
  '42501', 'permission denied for table user_profiles',
  'customers cannot create profiles');
select throws_ok(
  $$delete from public.user_profiles$$,
  '42501', 'permission denied for table user_profiles',
  'customers cannot delete profiles');

select tests.authenticate_as('other');
select is_empty(
  $$select 1 from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  'another customer cannot read the profile');
select is_empty(
  $$update public.user_profiles set full_name = 'Hacked' where id = tests.get_supabase_uid('owner') returning 1$$,
  'another customer cannot update the profile');

select tests.authenticate_as('boss');
select results_eq($$select count(*)::int from public.user_profiles$$, $$values (1)$$,
  'an admin reads other profiles only through the admin function, not the client');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.user_profiles$$, '42501', 'permission denied for table user_profiles',
  'anonymous visitors cannot read profiles');
select throws_ok($$update public.user_profiles set full_name = 'x'$$, '42501', 'permission denied for table user_profiles',
  'anonymous visitors cannot update profiles');

select tests.clear_authentication();
select results_eq(
  $$select full_name, business_name, onboarding_completed from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  $$values ('New Name', 'Biz', true)$$,
  'only the owner''s own edits landed');
select ok(
  (select updated_at >= created_at from public.user_profiles where id = tests.get_supabase_uid('owner')),
  'updated_at is stamped on update');

select * from finish();
rollback;
