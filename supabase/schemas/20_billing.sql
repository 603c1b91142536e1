-- Billing: Stripe subscriptions and payments as the webhook records them, and the processed events.

-- Tables ------------------------------------------------------------------------------------------

create table public.subscriptions (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  status text not null,
  plan_type text not null,
  billing_period text not null default 'monthly'::text,
  accounts_purchased integer not null default 1,
  stripe_customer_id text,
  stripe_subscription_id text,
  stripe_price_id text,
  current_period_start timestamp with time zone,
  current_period_end timestamp with time zone,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamp with time zone,
  trial_end timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  stripe_synced_at timestamp with time zone,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint subscriptions_pkey primary key (id),
  constraint subscriptions_stripe_subscription_id_key unique (stripe_subscription_id),
  constraint subscriptions_accounts_purchased_check check (((accounts_purchased >= 1) and (accounts_purchased <= 1000))),
  constraint subscriptions_billing_period_check check ((billing_period = any (array['monthly'::text, 'yearly'::text, 'quarterly'::text]))),
  constraint subscriptions_check check (((current_period_end is null) or (current_period_start is null) or (current_period_end >= current_period_start))),
  constraint subscriptions_plan_type_check check ((plan_type = any (array['starter'::text, 'growth'::text, 'enterprise'::text, 'bundle'::text]))),
  constraint subscriptions_status_check check ((status = any (array['active'::text, 'past_due'::text, 'canceled'::text, 'trialing'::text, 'incomplete'::text]))),
  constraint subscriptions_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint subscriptions_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.subscriptions is
  'Stripe subscriptions, one row per Stripe subscription. Written only by the stripe-webhook function.';
comment on column public.subscriptions.accounts_purchased is
  'How many social accounts the plan pays for (Stripe quantity); the account limit while active or trialing.';
comment on column public.subscriptions.cancel_at_period_end is
  'True when the customer cancelled: the plan stays usable until current_period_end.';
comment on column public.subscriptions.stripe_synced_at is
  'When the function fetched the Stripe subscription this row shows; an older fetch never overwrites a newer one.';
comment on column public.subscriptions.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.payments (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  subscription_id uuid,
  amount integer not null,
  currency text not null default 'usd'::text,
  status text not null,
  payment_type text not null default 'subscription'::text,
  description text,
  stripe_invoice_id text,
  stripe_payment_intent_id text,
  created_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint payments_pkey primary key (id),
  constraint payments_stripe_invoice_id_key unique (stripe_invoice_id),
  constraint payments_amount_check check ((amount >= 0)),
  constraint payments_currency_check check ((currency ~ '^[a-z]{3}$'::text)),
  constraint payments_status_check check ((status = any (array['succeeded'::text, 'failed'::text, 'pending'::text]))),
  constraint payments_subscription_id_fkey foreign key (subscription_id) references public.subscriptions(id) on delete set null,
  constraint payments_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint payments_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.payments is
  'Charges from Stripe invoices. amount is in cents (divide by 100 to show dollars).';
comment on column public.payments.amount is 'Amount in the smallest currency unit (cents).';
comment on column public.payments.stripe_invoice_id is
  'The Stripe invoice (in_...) this payment came from; the invoice button uses it.';
comment on column public.payments.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.stripe_events (
  id text not null,
  type text not null,
  processed_at timestamp with time zone not null default now(),
  constraint stripe_events_pkey primary key (id)
);
comment on table public.stripe_events is
  'Stripe event ids (evt_...) the webhook has processed, so a redelivered event is ignored. Admin and service only.';

-- Indexes -----------------------------------------------------------------------------------------

create index subscriptions_stripe_customer_id_idx on public.subscriptions (stripe_customer_id);
create index subscriptions_user_id_idx on public.subscriptions (user_id, created_at desc);
create index subscriptions_workspace_id_created_at_idx on public.subscriptions (workspace_id, created_at desc);

create index payments_user_id_created_at_idx on public.payments (user_id, created_at desc);
create index payments_workspace_id_created_at_idx on public.payments (workspace_id, created_at desc);

create index stripe_events_processed_at_idx on public.stripe_events (processed_at desc);

-- Triggers ----------------------------------------------------------------------------------------

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

create trigger subscriptions_fill_workspace_id before insert on public.subscriptions for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger subscriptions_set_updated_at before update on public.subscriptions for each row execute function internal.set_updated_at();

create trigger subscriptions_sync_profile after insert or delete or update on public.subscriptions for each row execute function internal.sync_profile_subscription();

create trigger payments_fill_workspace_id before insert on public.payments for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_subscription();

-- Row-level security ------------------------------------------------------------------------------

alter table public.subscriptions enable row level security;

create policy "Owners can read the workspace's subscriptions" on public.subscriptions
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.payments enable row level security;

create policy "Owners can read the workspace's payments" on public.payments
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.stripe_events enable row level security;

create policy "Admins can read processed Stripe events" on public.stripe_events
  for select
  to authenticated
  using (( select internal.is_admin() as is_admin));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.subscriptions from anon;
revoke insert, update, delete, truncate, references, trigger on public.subscriptions from authenticated;

revoke all on public.payments from anon;
revoke insert, update, delete, truncate, references, trigger on public.payments from authenticated;

revoke all on public.stripe_events from anon;
revoke insert, update, delete, truncate, references, trigger on public.stripe_events from authenticated;

revoke execute on function internal.sync_profile_subscription() from public;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.record_stripe_payment(p_payment jsonb, p_stripe_subscription_id text default null::text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  incoming public.payments := jsonb_populate_record(null::public.payments, p_payment);
  saved public.payments;
begin
  if incoming.stripe_invoice_id is null or incoming.user_id is null or incoming.amount is null or incoming.status is null then
    raise exception 'user_id, stripe_invoice_id, amount and status are required' using errcode = '22023';
  end if;
  insert into public.payments (user_id, subscription_id, amount, currency, status, payment_type, description,
    stripe_invoice_id, stripe_payment_intent_id, created_at)
  values (incoming.user_id,
    (select s.id from public.subscriptions s where s.stripe_subscription_id = p_stripe_subscription_id),
    incoming.amount, coalesce(incoming.currency, 'usd'), incoming.status,
    coalesce(incoming.payment_type, 'subscription'), incoming.description, incoming.stripe_invoice_id,
    incoming.stripe_payment_intent_id, coalesce(incoming.created_at, now()))
  on conflict (stripe_invoice_id) do update
    set amount = excluded.amount,
        currency = excluded.currency,
        status = excluded.status,
        description = coalesce(excluded.description, public.payments.description),
        subscription_id = coalesce(excluded.subscription_id, public.payments.subscription_id),
        stripe_payment_intent_id = coalesce(excluded.stripe_payment_intent_id, public.payments.stripe_payment_intent_id)
    -- An invoice that was paid stays paid, whatever a late or replayed failure says.
    where public.payments.status <> 'succeeded'
  returning * into saved;
  if saved.id is null then
    select * into saved from public.payments p where p.stripe_invoice_id = incoming.stripe_invoice_id;
  end if;
  return to_jsonb(saved);
end
$$;
comment on function public.record_stripe_payment(jsonb, text) is
  'Service role only: upserts the payment of a Stripe invoice (payments columns as JSON; amount in cents), linked to the subscription with that Stripe id. A succeeded payment is never changed back.';
revoke execute on function public.record_stripe_payment(jsonb, text) from public, anon, authenticated;

create or replace function public.record_stripe_subscription(p_subscription jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  incoming public.subscriptions := jsonb_populate_record(null::public.subscriptions, p_subscription);
  saved public.subscriptions;
begin
  if incoming.stripe_subscription_id is null or incoming.user_id is null or incoming.stripe_synced_at is null then
    raise exception 'user_id, stripe_subscription_id and stripe_synced_at are required' using errcode = '22023';
  end if;
  insert into public.subscriptions (user_id, status, plan_type, billing_period, accounts_purchased, stripe_customer_id,
    stripe_subscription_id, stripe_price_id, current_period_start, current_period_end, cancel_at_period_end,
    canceled_at, trial_end, stripe_synced_at)
  values (incoming.user_id, incoming.status, incoming.plan_type, coalesce(incoming.billing_period, 'monthly'),
    coalesce(incoming.accounts_purchased, 1), incoming.stripe_customer_id, incoming.stripe_subscription_id,
    incoming.stripe_price_id, incoming.current_period_start, incoming.current_period_end,
    coalesce(incoming.cancel_at_period_end, false), incoming.canceled_at, incoming.trial_end, incoming.stripe_synced_at)
  on conflict (stripe_subscription_id) do update
    set status = excluded.status,
        plan_type = excluded.plan_type,
        billing_period = excluded.billing_period,
        accounts_purchased = excluded.accounts_purchased,
        stripe_customer_id = excluded.stripe_customer_id,
        stripe_price_id = excluded.stripe_price_id,
        current_period_start = excluded.current_period_start,
        current_period_end = excluded.current_period_end,
        cancel_at_period_end = excluded.cancel_at_period_end,
        canceled_at = excluded.canceled_at,
        trial_end = excluded.trial_end,
        stripe_synced_at = excluded.stripe_synced_at
    where public.subscriptions.stripe_synced_at is null
       or public.subscriptions.stripe_synced_at <= excluded.stripe_synced_at
  returning * into saved;
  if saved.id is null then
    select * into saved from public.subscriptions s where s.stripe_subscription_id = incoming.stripe_subscription_id;
    return to_jsonb(saved) || '{"stale": true}'::jsonb;
  end if;
  return to_jsonb(saved) || '{"stale": false}'::jsonb;
end
$$;
comment on function public.record_stripe_subscription(jsonb) is
  'Service role only: upserts a subscription as fetched from Stripe (subscriptions columns as JSON). Returns the stored row with stale = true when a newer fetch was already stored.';
revoke execute on function public.record_stripe_subscription(jsonb) from public, anon, authenticated;
