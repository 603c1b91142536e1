-- Billing as Stripe reports it: subscriptions, payments (amounts in cents) and the ids of processed
-- Stripe events (so the webhook handles each event once). Only the stripe-webhook function (service
-- role) writes these; customers read their own subscriptions and payments. A trigger mirrors the
-- current subscription onto user_profiles.subscription_status / subscription_plan.

-- Tables ---------------------------------------------------------------------------------------

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  status text not null check (status in ('active', 'past_due', 'canceled', 'trialing', 'incomplete')),
  plan_type text not null check (plan_type in ('starter', 'growth', 'enterprise', 'bundle')),
  billing_period text not null default 'monthly' check (billing_period in ('monthly', 'yearly', 'quarterly')),
  accounts_purchased integer not null default 1 check (accounts_purchased between 1 and 1000),
  stripe_customer_id text,
  stripe_subscription_id text unique,
  stripe_price_id text,
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamptz,
  trial_end timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (current_period_end is null or current_period_start is null or current_period_end >= current_period_start)
);

create index subscriptions_user_id_idx on public.subscriptions (user_id, created_at desc);
create index subscriptions_stripe_customer_id_idx on public.subscriptions (stripe_customer_id);

comment on table public.subscriptions is
  'Stripe subscriptions, one row per Stripe subscription. Written only by the stripe-webhook function.';
comment on column public.subscriptions.accounts_purchased is
  'How many social accounts the plan pays for (Stripe quantity); the account limit while active or trialing.';
comment on column public.subscriptions.cancel_at_period_end is
  'True when the customer cancelled: the plan stays usable until current_period_end.';

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  subscription_id uuid references public.subscriptions (id) on delete set null,
  amount integer not null check (amount >= 0),
  currency text not null default 'usd' check (currency ~ '^[a-z]{3}$'),
  status text not null check (status in ('succeeded', 'failed', 'pending')),
  payment_type text not null default 'subscription',
  description text,
  stripe_invoice_id text unique,
  stripe_payment_intent_id text,
  created_at timestamptz not null default now()
);

create index payments_user_id_created_at_idx on public.payments (user_id, created_at desc);

comment on table public.payments is 'Charges from Stripe invoices. amount is in cents (divide by 100 to show dollars).';
comment on column public.payments.amount is 'Amount in the smallest currency unit (cents).';
comment on column public.payments.stripe_invoice_id is 'The Stripe invoice (in_...) this payment came from; the invoice button uses it.';

create table public.stripe_events (
  id text primary key,
  type text not null,
  processed_at timestamptz not null default now()
);

create index stripe_events_processed_at_idx on public.stripe_events (processed_at desc);

comment on table public.stripe_events is
  'Stripe event ids (evt_...) the webhook has processed, so a redelivered event is ignored. Admin and service only.';

-- Triggers -------------------------------------------------------------------------------------

create trigger subscriptions_set_updated_at
  before update on public.subscriptions
  for each row execute function internal.set_updated_at();

create or replace function internal.sync_profile_subscription()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected_user uuid := coalesce(new.user_id, old.user_id);
  current_status text;
  current_plan text;
begin
  -- The subscription that decides what the customer has: a usable one first, else the newest.
  select s.status, s.plan_type
    into current_status, current_plan
    from public.subscriptions s
   where s.user_id = affected_user
   order by (s.status in ('active', 'trialing')) desc, s.created_at desc
   limit 1;

  update public.user_profiles p
     set subscription_status = coalesce(current_status, 'none'),
         subscription_plan = case when current_status in ('active', 'trialing') then current_plan else 'free' end
   where p.id = affected_user;
  return null;
end
$$;
comment on function internal.sync_profile_subscription() is
  'AFTER write on subscriptions: mirrors the deciding subscription onto user_profiles (free unless active or trialing).';

create trigger subscriptions_sync_profile
  after insert or update or delete on public.subscriptions
  for each row execute function internal.sync_profile_subscription();

-- Policies -------------------------------------------------------------------------------------

alter table public.subscriptions enable row level security;
alter table public.payments enable row level security;
alter table public.stripe_events enable row level security;

create policy "Users can read their own subscriptions"
  on public.subscriptions for select
  to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read their own payments"
  on public.payments for select
  to authenticated
  using (user_id = (select auth.uid()));

create policy "Admins can read processed Stripe events"
  on public.stripe_events for select
  to authenticated
  using ((select internal.is_admin()));

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.subscriptions, public.payments, public.stripe_events from anon, authenticated;
grant select on public.subscriptions, public.payments, public.stripe_events to authenticated;
grant all on public.subscriptions, public.payments, public.stripe_events to service_role;
