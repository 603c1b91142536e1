-- One profile row per auth user, created by a trigger when the user signs up. Users edit their own
-- name, business, avatar, time zone and onboarding flags; subscription_status and subscription_plan
-- mirror the billing tables and only the system writes them (column grants below).

-- Tables ---------------------------------------------------------------------------------------

create table public.user_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (char_length(full_name) <= 200),
  business_name text check (char_length(business_name) <= 200),
  avatar_url text check (char_length(avatar_url) <= 2048),
  onboarding_completed boolean not null default false,
  post_onboarding boolean not null default false,
  onboarding_answers jsonb not null default '{}'::jsonb check (jsonb_typeof(onboarding_answers) = 'object'),
  subscription_status text not null default 'none'
    check (subscription_status in ('none', 'active', 'trialing', 'past_due', 'canceled', 'incomplete')),
  subscription_plan text not null default 'free'
    check (subscription_plan in ('free', 'starter', 'growth', 'enterprise', 'bundle')),
  timezone text not null default 'UTC' check (internal.is_valid_timezone(timezone)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.user_profiles is
  'One row per customer (id = auth.users.id), created at sign-up. Billing columns are written by the system only.';
comment on column public.user_profiles.onboarding_completed is
  'False shows the onboarding wizard; set true when the user starts checkout or finishes the wizard.';
comment on column public.user_profiles.post_onboarding is
  'False shows the "Complete Your Setup" modal after onboarding; true once done or dismissed.';
comment on column public.user_profiles.onboarding_answers is
  'Wizard answers: mainGoals, targetAudience, dailyMessageGoal, businessType, billingPeriod, selectedPlan, accountCount.';
comment on column public.user_profiles.subscription_status is
  'Mirror of the customer''s current subscription status (none if never subscribed). Maintained by a trigger on subscriptions.';
comment on column public.user_profiles.subscription_plan is
  'Mirror of the current plan (free without an active or trialing subscription). Maintained by a trigger on subscriptions.';
comment on column public.user_profiles.timezone is 'IANA time zone for "today" figures on the dashboard.';

-- Triggers -------------------------------------------------------------------------------------

create trigger user_profiles_set_updated_at
  before update on public.user_profiles
  for each row execute function internal.set_updated_at();

create or replace function internal.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.user_profiles (id, full_name, avatar_url)
  values (
    new.id,
    nullif(trim(coalesce(new.raw_user_meta_data ->> 'full_name', new.raw_user_meta_data ->> 'name')), ''),
    nullif(coalesce(new.raw_user_meta_data ->> 'avatar_url', new.raw_user_meta_data ->> 'picture'), '')
  )
  on conflict (id) do nothing;
  return new;
end
$$;
comment on function internal.create_profile_for_new_user() is
  'AFTER INSERT on auth.users: creates the profile, taking full_name (or Google''s name) and avatar from user metadata.';

create trigger on_auth_user_created_create_profile
  after insert on auth.users
  for each row execute function internal.create_profile_for_new_user();

-- Policies -------------------------------------------------------------------------------------

alter table public.user_profiles enable row level security;

create policy "Users can read their own profile"
  on public.user_profiles for select
  to authenticated
  using (id = (select auth.uid()));

create policy "Users can update their own profile"
  on public.user_profiles for update
  to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.user_profiles from anon, authenticated;
grant select on public.user_profiles to authenticated;
grant update (full_name, business_name, avatar_url, onboarding_completed, post_onboarding,
  onboarding_answers, timezone, updated_at) on public.user_profiles to authenticated;
grant all on public.user_profiles to service_role;
