-- Demo data for a fresh local stack: a customer with data on every screen and an operator.
--   demo@reachflow.test  / demo-password   (customer, trialing Growth plan for 2 accounts)
--   admin@reachflow.test / admin-password  (app_metadata.role = admin)
-- Dates are relative to now(), so the dashboard looks alive whenever the stack starts.
-- social_account_credentials stay empty: only the functions can encrypt credentials.

-- Users ----------------------------------------------------------------------------------------

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous)
values
  ('00000000-0000-0000-0000-000000000000', 'd0000000-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
   'demo@reachflow.test', extensions.crypt('demo-password', extensions.gen_salt('bf')), now() - interval '40 days',
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Dana Demo"}',
   now() - interval '40 days', now() - interval '1 day', now() - interval '1 day', false, false),
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
   'admin@reachflow.test', extensions.crypt('admin-password', extensions.gen_salt('bf')), now() - interval '90 days',
   '{"provider": "email", "providers": ["email"], "role": "admin"}', '{"full_name": "Ada Admin"}',
   now() - interval '90 days', now() - interval '1 day', now() - interval '1 day', false, false);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', u.last_sign_in_at, u.created_at, u.updated_at
  from auth.users u
 where u.id in ('d0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001');

-- Profiles were created by the sign-up trigger; the demo customer has finished onboarding.
update public.user_profiles
   set business_name = 'Demo Growth Co',
       onboarding_completed = true,
       post_onboarding = true,
       timezone = 'Europe/Berlin',
       onboarding_answers = '{"mainGoals": ["lead_generation", "sales"], "targetAudience": "B2B SaaS founders", "dailyMessageGoal": 50, "businessType": "agency", "billingPeriod": "yearly", "selectedPlan": "growth", "accountCount": 2}'
 where id = 'd0000000-0000-4000-8000-000000000001';

update public.user_profiles
   set business_name = 'Reachflow', onboarding_completed = true, post_onboarding = true
 where id = 'a0000000-0000-4000-8000-000000000001';
