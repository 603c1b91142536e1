-- The plan belongs to the workspace: one owner's workspaces each count their own accounts against
-- their own subscriptions, a workspace without a plan has the free limit (refused at its second
-- account) and sends nothing, except the person's personal workspace, which keeps the free plan's
-- sending; a subscription is recorded under the workspace its checkout named, and the workspace
-- mirrors its plan and keeps its Stripe customer; every member reads the same limit and owner.
begin;
select plan(22);

-- pg_cron runs the scheduler every minute on this database: keep it off our rows until rollback.
lock table public.campaign_leads, public.campaigns, public.social_accounts in exclusive mode;

select tests.create_supabase_user('wp_owner');
select tests.create_supabase_user('wp_editor');
update public.user_profiles set full_name = 'Olivia Owner' where id = tests.get_supabase_uid('wp_owner');
select tests.give_plan('wp_owner', 2, 'growth');

select tests.authenticate_as('wp_owner');
select public.create_workspace('Client B') as client_b \gset
select public.create_workspace('Client C') as client_c \gset
select tests.clear_authentication();

-- Client B's checkout: bought from Client C's screen would still name B (the metadata decides).
select is((public.record_stripe_subscription(jsonb_build_object(
    'user_id', tests.get_supabase_uid('wp_owner'), 'workspace_id', :'client_b', 'status', 'active',
    'plan_type', 'growth', 'accounts_purchased', 3, 'stripe_customer_id', 'cus_wp_b',
    'stripe_subscription_id', 'sub_wp_b', 'stripe_synced_at', '2026-12-01T10:00:00Z')) ->> 'workspace_id')::uuid,
  :'client_b'::uuid, 'a subscription is recorded under the workspace its checkout named');
select results_eq(
  format($$select subscription_plan, subscription_status, stripe_customer_id from public.workspaces where id = %L$$, :'client_b'),
  $$values ('growth', 'active', 'cus_wp_b')$$,
  'the workspace mirrors its plan and keeps its Stripe customer');
select results_eq(
  format($$select subscription_plan, subscription_status, stripe_customer_id from public.workspaces where id = %L$$, :'client_c'),
  $$values ('free', 'none', null::text)$$,
  'a workspace without a subscription is on the free plan');
select is((public.record_stripe_subscription(jsonb_build_object(
    'user_id', tests.get_supabase_uid('wp_owner'), 'status', 'active', 'plan_type', 'growth',
    'accounts_purchased', 3, 'stripe_customer_id', 'cus_wp_b', 'stripe_subscription_id', 'sub_wp_b',
    'stripe_synced_at', '2026-12-01T10:05:00Z')) ->> 'workspace_id')::uuid,
  :'client_b'::uuid, 'a later fetch without a workspace never moves the subscription');

-- Client B: three accounts bought, three allowed, whoever adds them.
select tests.authenticate_as('wp_owner');
select public.set_active_workspace(:'client_b');
select results_eq($$select (public.check_account_limit() ->> 'limit')::int, public.check_account_limit() ->> 'planType'$$,
  $$values (3, 'growth')$$, 'Client B''s limit is its own plan''s 3 accounts');
select tests.clear_authentication();
select tests.create_social_account('wp_owner', 'wp_b1');
select tests.create_social_account('wp_owner', 'wp_b2');
insert into public.workspace_members (workspace_id, user_id, role) values (:'client_b', tests.get_supabase_uid('wp_editor'), 'editor');
update public.user_profiles set active_workspace_id = :'client_b' where id = tests.get_supabase_uid('wp_editor');
select is(internal.account_limit_refusal(tests.get_supabase_uid('wp_editor')), null,
  'a member adding the third account fits the workspace''s plan');
select tests.create_social_account('wp_editor', 'wp_b3') as b3 \gset
select is((select workspace_id from public.social_accounts where id = :'b3'), :'client_b'::uuid,
  'the member''s account lands in the workspace');
select throws_ok($$select tests.create_social_account('wp_owner', 'wp_b4')$$, 'P0001',
  'Account limit reached. You have 3/3 accounts.', 'Client B is refused at its fourth account, counting every member''s');
select is(internal.account_limit_refusal(tests.get_supabase_uid('wp_owner')),
  'Account limit reached. You have 3/3 accounts.', 'the refusal says the workspace''s count');
select tests.authenticate_as('wp_editor');
select results_eq(
  $$select (x ->> 'currentCount')::int, (x ->> 'limit')::int, (x ->> 'canAddAccount')::boolean from public.check_account_limit() x$$,
  $$values (3, 3, false)$$, 'a member who may not read the billing still sees the workspace''s count and limit');
select results_eq(
  $$select name, role::text, personal, plan_type, subscription_status, sends, owner_name from public.active_workspace_plan()$$,
  $$values ('Client B', 'editor', false, 'growth', 'active', true, 'Olivia Owner')$$,
  'a member reads the workspace''s plan, that it sends, and who owns it');

-- The personal workspace keeps its own 2 accounts.
select tests.authenticate_as('wp_owner');
select public.set_active_workspace(tests.get_supabase_uid('wp_owner'));
select tests.clear_authentication();
select tests.create_social_account('wp_owner', 'wp_p1') as personal_account \gset
select tests.create_social_account('wp_owner', 'wp_p2');
select throws_ok($$select tests.create_social_account('wp_owner', 'wp_p3')$$, 'P0001',
  'Account limit reached. You have 2/2 accounts.', 'the personal workspace is held to its own plan of 2');

-- Client C has no plan: the free limit of one account.
select tests.authenticate_as('wp_owner');
select public.set_active_workspace(:'client_c');
select tests.clear_authentication();
select tests.create_social_account('wp_owner', 'wp_c1') as c1 \gset
select is(internal.account_limit_refusal(tests.get_supabase_uid('wp_owner')),
  'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
  'a workspace without a plan is refused at its first account beyond the free one');
select throws_ok($$select tests.create_social_account('wp_owner', 'wp_c2')$$, 'P0001',
  'Account limit reached. You have 1/1 accounts.', 'the insert itself is refused too');
select tests.authenticate_as('wp_owner');
select results_eq(
  $$select role::text, personal, plan_type, subscription_status, sends, owner_name from public.active_workspace_plan()$$,
  $$values ('owner', false, 'free', 'none', false, 'Olivia Owner')$$,
  'the owner reads that Client C has no plan and sends nothing');
select public.set_active_workspace(tests.get_supabase_uid('wp_owner'));
select results_eq($$select personal, sends from public.active_workspace_plan()$$, $$values (true, true)$$,
  'the personal workspace is marked personal');
select tests.clear_authentication();

-- The scheduler: a due campaign in each workspace.
select tests.freeze_time('2026-12-01 12:00:00+00');
create function pg_temp.due_campaign(p_workspace uuid, p_account uuid) returns uuid language plpgsql as $$
declare
  campaign uuid;
begin
  insert into public.campaigns (user_id, workspace_id, name, account_id, sequences, status, schedule)
  values ((select a.user_id from public.social_accounts a where a.id = p_account), p_workspace, 'Due ' || p_account, p_account, '{"messages": ["hi"]}', 'running',
          jsonb_build_object('timezone', 'UTC', 'timeFrom', '00:00', 'timeTo', '23:59', 'randomDaysOff', false,
            'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]'::jsonb))
  returning id into campaign;
  insert into public.campaign_leads (campaign_id, user_id, username, next_send_at)
  values (campaign, (select c.user_id from public.campaigns c where c.id = campaign), 'lead_' || substr(md5(p_account::text), 1, 8), '2000-01-01');
  return campaign;
end $$;
create function pg_temp.ticked(p_campaign uuid) returns boolean language sql as $$
  select exists (select 1 from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign
                    and state < 'completed') $$;
select pg_temp.due_campaign(:'client_b', :'b3') as in_b \gset
select pg_temp.due_campaign(:'client_c', :'c1') as in_c \gset
select pg_temp.due_campaign(tests.get_supabase_uid('wp_owner'), :'personal_account') as in_personal \gset
select internal.scheduler_queue_campaign_ticks(internal.now(), 1000);
select ok(pg_temp.ticked(:'in_b'), 'a campaign of a workspace with a plan is ticked');
select ok(not pg_temp.ticked(:'in_c'), 'a campaign of a workspace without a plan is not');
select ok(pg_temp.ticked(:'in_personal'), 'a campaign of the personal workspace is ticked, as on the free plan before');

-- Client B's plan ends: its campaigns stop being ticked, its limit falls to the free one.
delete from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || :'in_b';
update public.subscriptions set status = 'canceled' where stripe_subscription_id = 'sub_wp_b';
select results_eq(format($$select subscription_plan, subscription_status from public.workspaces where id = %L$$, :'client_b'),
  $$values ('free', 'canceled')$$, 'the mirror follows the subscription');
select internal.scheduler_queue_campaign_ticks(internal.now(), 1000);
select ok(not pg_temp.ticked(:'in_b'), 'once the plan ends, the workspace''s campaigns are not ticked');
select tests.authenticate_as('wp_editor');
select results_eq($$select (x ->> 'limit')::int, x ->> 'error' from public.check_account_limit() x$$,
  $$values (1, 'Subscription is not active')$$, 'and its members are told the subscription is not active');
select tests.clear_authentication();

select * from finish();
rollback;
