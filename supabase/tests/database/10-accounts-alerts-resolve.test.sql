-- An account alert is resolved (read, with resolvedAt) when the account is active again, whoever
-- makes it active; alerts about other accounts, other notifications and a still-broken account stay.
begin;
select plan(6);

select tests.create_supabase_user('alert_owner');
select tests.give_plan('alert_owner', 5);
select tests.create_social_account('alert_owner', 'alert_x') as account \gset
select tests.create_social_account('alert_owner', 'other_x') as other \gset

update public.social_accounts set status = 'error', flag_reason = 'signed out' where id in (:'account', :'other');
insert into public.notifications (user_id, type, title, message, metadata)
values (tests.get_supabase_uid('alert_owner'), 'account_flagged', 'Account needs attention',
        '@alert_x cannot sign in: signed out', jsonb_build_object('accountId', :'account', 'status', 'error')),
       (tests.get_supabase_uid('alert_owner'), 'account_flagged', 'Account needs attention',
        '@other_x cannot sign in: signed out', jsonb_build_object('accountId', :'other', 'status', 'error')),
       (tests.get_supabase_uid('alert_owner'), 'campaign_failed', 'Campaign stopped', '',
        jsonb_build_object('accountId', :'account'));

-- the account is fixed: a still failing test leaves it in error, the alert stays unread
update public.social_accounts set status = 'error', flag_reason = 'still signed out' where id = :'account';
select results_eq(
  $$select count(*)::int from public.notifications where user_id = tests.get_supabase_uid('alert_owner') and not read$$,
  $$values (3)$$,
  'an account still in error keeps its alert unread');

-- the runner's passing test makes it active (as account-test.ts does, as the runner role)
select tests.authenticate_as_runner();
update public.social_accounts set status = 'active', flag_reason = null where id = :'account';
select tests.clear_authentication();

select results_eq(
  format($$select read, read_at is not null, metadata ? 'resolvedAt' from public.notifications
            where type = 'account_flagged' and metadata ->> 'accountId' = %L$$, :'account'),
  $$values (true, true, true)$$,
  'the alert about the recovered account is read and resolved');
select results_eq(
  format($$select read from public.notifications where metadata ->> 'accountId' = %L$$, :'other'),
  $$values (false)$$, 'an alert about another account stays unread');
select results_eq(
  $$select read from public.notifications where user_id = tests.get_supabase_uid('alert_owner') and type = 'campaign_failed'$$,
  $$values (false)$$, 'other kinds of notifications stay unread');

-- a pause that runs out (the scheduler) resolves the "Account paused" alert the same way
update public.social_accounts set status = 'paused', paused_until = now() - interval '1 minute' where id = :'other';
insert into public.notifications (user_id, type, title, message, metadata)
values (tests.get_supabase_uid('alert_owner'), 'account_flagged', 'Account paused', '@other_x was paused',
        jsonb_build_object('accountId', :'other', 'status', 'paused'));
select internal.enqueue_due_work();
select results_eq(
  format($$select count(*)::int from public.notifications where metadata ->> 'accountId' = %L and not read$$, :'other'),
  $$values (0)$$, 'both alerts of the account that resumed are resolved');

-- the customer sees the resolution
select tests.authenticate_as('alert_owner');
select results_eq(
  $$select count(*)::int from public.notifications where metadata ? 'resolvedAt'$$,
  $$values (3)$$, 'the customer reads which alerts were resolved');

select * from finish();
rollback;
