-- How billing state from Stripe lands in the database (the stripe-webhook function, and the api
-- function right after it changes a subscription). The functions always re-fetch the subscription
-- or invoice from Stripe; these RPCs write what they fetched so that events arriving late, twice or
-- out of order end in the right state:
--   record_stripe_subscription  upsert by stripe_subscription_id; a write older (stripe_synced_at)
--                               than the stored one changes nothing
--   record_stripe_payment       upsert by stripe_invoice_id; a succeeded payment stays succeeded
-- The profile's subscription_status / subscription_plan follow through the existing trigger.

-- Tables ---------------------------------------------------------------------------------------

alter table public.subscriptions add column stripe_synced_at timestamptz;
comment on column public.subscriptions.stripe_synced_at is
  'When the function fetched the Stripe subscription this row shows; an older fetch never overwrites a newer one.';

-- RPCs -----------------------------------------------------------------------------------------

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

create or replace function public.record_stripe_payment(p_payment jsonb, p_stripe_subscription_id text default null)
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

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function public.record_stripe_subscription(jsonb), public.record_stripe_payment(jsonb, text)
  from public, anon, authenticated;
grant execute on function public.record_stripe_subscription(jsonb), public.record_stripe_payment(jsonb, text)
  to service_role;
