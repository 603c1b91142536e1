-- Billing state from Stripe: a newer fetch wins whatever order the writes come in, the profile
-- follows, a paid invoice stays paid, and only the service role may write.
begin;
select plan(12);

select tests.create_supabase_user('payer');

select tests.authenticate_as('payer');
select throws_ok(
  format($$select public.record_stripe_subscription('{"user_id": "%s", "stripe_subscription_id": "sub_x", "status": "active", "plan_type": "growth", "stripe_synced_at": "2026-01-01T00:00:00Z"}')$$,
    tests.get_supabase_uid('payer')),
  '42501', 'permission denied for function record_stripe_subscription', 'customers cannot write their own subscription');

select tests.authenticate_as_service_role();
select results_eq(
  format($$select r ->> 'status', (r ->> 'stale')::boolean from public.record_stripe_subscription(jsonb_build_object(
    'user_id', %L, 'stripe_subscription_id', 'sub_1', 'stripe_customer_id', 'cus_1', 'status', 'trialing',
    'plan_type', 'growth', 'billing_period', 'monthly', 'accounts_purchased', 3, 'cancel_at_period_end', false,
    'current_period_start', '2026-01-01T00:00:00Z', 'current_period_end', '2026-01-04T00:00:00Z',
    'stripe_synced_at', '2026-01-01T00:00:10Z')) r$$, tests.get_supabase_uid('payer')),
  $$values ('trialing', false)$$,
  'a first fetch is stored');
select results_eq(
  format($$select subscription_status, subscription_plan from public.user_profiles where id = %L$$, tests.get_supabase_uid('payer')),
  $$values ('trialing', 'growth')$$,
  'the profile follows');
select results_eq(
  format($$select r ->> 'status', (r ->> 'stale')::boolean from public.record_stripe_subscription(jsonb_build_object(
    'user_id', %L, 'stripe_subscription_id', 'sub_1', 'stripe_customer_id', 'cus_1', 'status', 'active',
    'plan_type', 'growth', 'accounts_purchased', 3, 'stripe_synced_at', '2026-01-04T00:00:10Z')) r$$, tests.get_supabase_uid('payer')),
  $$values ('active', false)$$,
  'a newer fetch replaces it');
select results_eq(
  format($$select r ->> 'status', (r ->> 'stale')::boolean from public.record_stripe_subscription(jsonb_build_object(
    'user_id', %L, 'stripe_subscription_id', 'sub_1', 'stripe_customer_id', 'cus_1', 'status', 'trialing',
    'plan_type', 'growth', 'accounts_purchased', 3, 'stripe_synced_at', '2026-01-02T00:00:00Z')) r$$, tests.get_supabase_uid('payer')),
  $$values ('active', true)$$,
  'an older fetch arriving late changes nothing');
select results_eq($$select count(*)::int from public.subscriptions where stripe_subscription_id = 'sub_1'$$, $$values (1)$$,
  'one row per Stripe subscription');
select throws_ok($$select public.record_stripe_subscription('{"stripe_subscription_id": "sub_2"}')$$, '22023',
  'user_id, stripe_subscription_id and stripe_synced_at are required', 'incomplete input is refused');

select results_eq(
  format($$select r ->> 'status', (r ->> 'amount')::int, r ->> 'subscription_id' is not null from public.record_stripe_payment(jsonb_build_object(
    'user_id', %L, 'stripe_invoice_id', 'in_1', 'amount', 11700, 'status', 'failed', 'description', 'Growth'), 'sub_1') r$$,
    tests.get_supabase_uid('payer')),
  $$values ('failed', 11700, true)$$,
  'a failed charge is recorded against its subscription');
select results_eq(
  format($$select r ->> 'status' from public.record_stripe_payment(jsonb_build_object(
    'user_id', %L, 'stripe_invoice_id', 'in_1', 'amount', 11700, 'status', 'succeeded'), 'sub_1') r$$,
    tests.get_supabase_uid('payer')),
  $$values ('succeeded')$$,
  'the retry that succeeds updates the same row');
select results_eq(
  format($$select r ->> 'status' from public.record_stripe_payment(jsonb_build_object(
    'user_id', %L, 'stripe_invoice_id', 'in_1', 'amount', 11700, 'status', 'failed'), 'sub_1') r$$,
    tests.get_supabase_uid('payer')),
  $$values ('succeeded')$$,
  'a late failure never turns a paid invoice back');
select results_eq($$select count(*)::int, min(description) from public.payments where stripe_invoice_id = 'in_1'$$,
  $$values (1, 'Growth')$$, 'one payment per invoice, its description kept');

select tests.authenticate_as('payer');
select results_eq($$select amount, status from public.payments$$, $$values (11700, 'succeeded')$$,
  'the customer reads their payment');

select * from finish();
rollback;
