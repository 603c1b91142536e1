-- Subscriptions, payments and processed Stripe events: written only by the webhook (service role),
-- read by their owner; the profile mirrors the deciding subscription.
begin;
select plan(20);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.create_supabase_user('boss', null, '{"role": "admin"}');

-- The webhook's writes, as the service role.
select tests.authenticate_as_service_role();
insert into public.subscriptions (id, user_id, status, plan_type, billing_period, accounts_purchased, stripe_subscription_id)
values ('5b000000-0000-4000-8000-0000000000aa', tests.get_supabase_uid('owner'), 'trialing', 'growth', 'yearly', 3, 'sub_test_1');
insert into public.payments (user_id, amount, status, description, stripe_invoice_id)
values (tests.get_supabase_uid('owner'), 9300, 'succeeded', 'Growth plan', 'in_test_1');
insert into public.stripe_events (id, type) values ('evt_test_1', 'checkout.session.completed');

select results_eq(
  $$select subscription_status, subscription_plan from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  $$values ('trialing', 'growth')$$,
  'a trialing subscription gives the profile its plan');

update public.subscriptions set status = 'past_due' where id = '5b000000-0000-4000-8000-0000000000aa';
select results_eq(
  $$select subscription_status, subscription_plan from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  $$values ('past_due', 'free')$$,
  'a past-due subscription leaves the customer on the free plan');

insert into public.subscriptions (user_id, status, plan_type, accounts_purchased, stripe_subscription_id)
values (tests.get_supabase_uid('owner'), 'active', 'starter', 1, 'sub_test_2');
select results_eq(
  $$select subscription_status, subscription_plan from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  $$values ('active', 'starter')$$,
  'a usable subscription wins over an older unusable one');

delete from public.subscriptions where stripe_subscription_id = 'sub_test_2';
update public.subscriptions set status = 'canceled' where id = '5b000000-0000-4000-8000-0000000000aa';
select results_eq(
  $$select subscription_status, subscription_plan from public.user_profiles where id = tests.get_supabase_uid('owner')$$,
  $$values ('canceled', 'free')$$,
  'cancelling mirrors canceled / free');

select throws_ok(
  $$insert into public.stripe_events (id, type) values ('evt_test_1', 'checkout.session.completed')$$,
  '23505', null, 'a Stripe event id is recorded once');
select throws_ok(
  $$insert into public.payments (user_id, amount, status) values (tests.get_supabase_uid('owner'), -1, 'succeeded')$$,
  '23514', null, 'a payment amount cannot be negative');
select throws_ok(
  $$insert into public.subscriptions (user_id, status, plan_type) values (tests.get_supabase_uid('owner'), 'paused', 'growth')$$,
  '23514', null, 'only Stripe''s subscription statuses are accepted');
select throws_ok(
  $$insert into public.payments (user_id, amount, status, stripe_invoice_id) values (tests.get_supabase_uid('owner'), 1, 'succeeded', 'in_test_1')$$,
  '23505', null, 'an invoice is recorded as one payment');

select tests.authenticate_as('owner');
select results_eq($$select plan_type, accounts_purchased from public.subscriptions$$, $$values ('growth', 3)$$,
  'the owner reads their subscriptions');
select results_eq($$select amount, description from public.payments$$, $$values (9300, 'Growth plan')$$,
  'the owner reads their payments');
select is_empty($$select 1 from public.stripe_events$$, 'customers cannot read processed Stripe events');
select throws_ok($$update public.subscriptions set accounts_purchased = 50$$, '42501', 'permission denied for table subscriptions',
  'customers cannot change their subscription');
select throws_ok($$insert into public.payments (user_id, amount, status) values (auth.uid(), 1, 'succeeded')$$,
  '42501', 'permission denied for table payments', 'customers cannot record payments');
select throws_ok($$delete from public.payments$$, '42501', 'permission denied for table payments',
  'customers cannot delete payments');
select throws_ok($$insert into public.stripe_events (id, type) values ('evt_x', 'x')$$, '42501',
  'permission denied for table stripe_events', 'customers cannot mark Stripe events processed');

select tests.authenticate_as('other');
select is_empty($$select 1 from public.subscriptions union all select 1 from public.payments$$,
  'another customer sees none of it');

select tests.authenticate_as('boss');
select results_eq($$select id, type from public.stripe_events where id = 'evt_test_1'$$, $$values ('evt_test_1', 'checkout.session.completed')$$,
  'an admin can read processed Stripe events');
select is_empty($$select 1 from public.payments$$, 'an admin reads customers'' payments only through the admin function');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.subscriptions$$, '42501', 'permission denied for table subscriptions',
  'anonymous visitors cannot read subscriptions');
select throws_ok($$select * from public.payments$$, '42501', 'permission denied for table payments',
  'anonymous visitors cannot read payments');

select * from finish();
rollback;
