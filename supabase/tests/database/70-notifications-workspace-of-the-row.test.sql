-- Notifications the system writes land in the workspace of the row they are about (the campaign's,
-- the account's, the scraping campaign's), not in whichever workspace its creator works in now:
-- the scheduler (completed, orphaned, warm-up), scraping completion, platform pauses (once per
-- workspace) and the Instagram callbacks. Billing notifications are the owner's, as billing is:
-- admins, editors, viewers and agents of the workspace neither see nor mark them.
begin;
select plan(19);

-- One person owns workspace A (their personal one) and works in client workspace B by now; A has
-- an admin, an editor, a viewer and an agent working in it.
select tests.create_supabase_user('nw');
select tests.get_supabase_uid('nw') as a \gset
select tests.give_plan('nw', 10);
select tests.create_supabase_user('nw_' || r) from unnest(array['admin', 'editor', 'viewer', 'agent']) r;
insert into public.workspace_members (workspace_id, user_id, role)
select :'a', tests.get_supabase_uid('nw_' || r), r::public.workspace_role from unnest(array['admin', 'editor', 'viewer', 'agent']) r;
update public.user_profiles set active_workspace_id = :'a' where id in (select user_id from public.workspace_members where workspace_id = :'a');

select tests.create_social_account('nw', 'nw_x') as account \gset
select tests.create_social_account('nw', 'nw_warming') as warming \gset
update public.social_accounts set warmup_phase = 1, warmup_started_at = now() - interval '8 days' where id = :'warming';
select (public.create_instagram_official_account(:'a', 'nw_shop', '17841000000000481', 'k1', 'k1:c2VhbGVk',
        internal.now() + interval '60 days')) ->> 'id' as shop \gset
select (public.create_instagram_official_account(:'a', 'nw_gone', '17841000000000482', 'k1', 'k1:c2VhbGVk',
        internal.now() + interval '60 days')) ->> 'id' as gone \gset
insert into public.campaigns (user_id, workspace_id, name, account_id, sequences, status)
values (:'a', :'a', 'Done', :'account', '{"messages": ["hi"]}', 'running') returning id as done \gset
insert into public.campaigns (user_id, workspace_id, name, account_id, sequences, status)
values (:'a', :'a', 'Orphan', :'account', '{"messages": ["hi"]}', 'running') returning id as orphan \gset
update public.campaigns set account_id = null where id = :'orphan';
insert into public.scraping_campaigns (user_id, workspace_id, name, account_id, sources, target_count, status)
values (:'a', :'a', 'Founders', :'account', '[{"type": "keyword", "value": "saas"}]', 1, 'running') returning id as scrape \gset

insert into public.workspaces (name, created_by) values ('Client B', :'a') returning id as b \gset
insert into public.workspace_members (workspace_id, user_id, role) values (:'b', :'a', 'owner');
update public.user_profiles set active_workspace_id = :'b' where id = :'a';
select is(internal.active_workspace_of(:'a'), :'b'::uuid, 'the creator works in B now');

-- Where each writer's notification lands: (in A, in B).
create or replace function pg_temp.landed(p_key text, p_value text, p_a uuid, p_b uuid)
returns table(in_a bigint, in_b bigint) language sql as $$
  select count(*) filter (where workspace_id = p_a), count(*) filter (where workspace_id = p_b)
    from public.notifications where metadata ->> p_key = p_value
$$;

-- The orphan is stopped first: the completion minute below is Done's slot, which the Orphan's own
-- random id shares one run in ten, and a completed orphan is no longer one to stop.
select ok(internal.scheduler_stop_orphaned_campaigns() >= 1, 'the scheduler stops the campaign whose account went');
select results_eq(format($$select * from pg_temp.landed('campaignId', %L, %L, %L)$$, :'orphan', :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'an orphaned campaign is told in its workspace');

select mod(pg_catalog.hashtext(:'done')::bigint + 2147483648, 10) as slot \gset
select ok(internal.scheduler_complete_campaigns('2025-03-12 16:00Z'::timestamptz + :'slot'::int * interval '1 minute') >= 1,
  'the scheduler completes the campaign');
select results_eq(format($$select * from pg_temp.landed('campaignId', %L, %L, %L)$$, :'done', :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'a completed campaign is told in its workspace');

select internal.scheduler_step_warmups(now());
select results_eq(format($$select * from pg_temp.landed('accountId', %L, %L, %L)$$, :'warming', :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'a warm-up phase is told in the account''s workspace');

select tests.authenticate_as_runner();
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username) values (:'scrape', gen_random_uuid(), 'nw_lead');
select tests.clear_authentication();
select results_eq(format($$select * from pg_temp.landed('scrapingCampaignId', %L, %L, %L)$$, :'scrape', :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'a scraping campaign reaching its target is told in its workspace');

select internal.notify_platform_customers('twitter', 'send', false);
select results_eq(
  format($$select count(*) filter (where workspace_id = %L), count(*) filter (where workspace_id = %L)
             from public.notifications where type = 'platform_paused'$$, :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'a platform pause is told once in each workspace with an account there, not where its people work');

select ok(internal.instagram_token_failed(:'shop', 'The token expired'), 'the Instagram token fails');
select results_eq(format($$select * from pg_temp.landed('accountId', %L, %L, %L)$$, :'shop', :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'a lost Instagram connection is told in the account''s workspace');

select public.delete_instagram_user_data('17841000000000482');
select results_eq(
  format($$select count(*) filter (where workspace_id = %L), count(*) filter (where workspace_id = %L)
             from public.notifications where title = 'Instagram account removed'$$, :'a', :'b'),
  $$values (1::bigint, 0::bigint)$$, 'an Instagram account deleted at Meta''s request is told in its workspace');

-- Billing notifications are the owner's ---------------------------------------------------------
update public.user_profiles set active_workspace_id = :'a' where id = :'a';
insert into public.notifications (workspace_id, user_id, type, title) values
  (:'a', :'a', 'payment_failed', 'Payment failed'),
  (:'a', :'a', 'subscription_started', 'Your subscription is active'),
  (:'a', :'a', 'lead_replied', 'New reply');

select tests.authenticate_as('nw');
select results_eq($$select count(*) from public.notifications where type in ('payment_failed', 'subscription_started')$$,
  $$values (2::bigint)$$, 'the owner sees the workspace''s billing notifications');
select results_eq($$update public.notifications set read = true where type = 'payment_failed' returning type$$,
  $$values ('payment_failed')$$, '... and marks them read');

select tests.authenticate_as('nw_admin');
select results_eq($$select count(*) filter (where type in ('payment_failed', 'subscription_started')), count(*) filter (where type = 'campaign_completed')
                    from public.notifications$$,
  $$values (0::bigint, 1::bigint)$$, 'an admin sees the workspace''s notifications but not its billing ones');
select is_empty($$update public.notifications set read = false where type = 'payment_failed' returning 1$$,
  '... nor marks them');
select is_empty($$delete from public.notifications where type = 'subscription_started' returning 1$$,
  '... nor deletes them');

select tests.authenticate_as('nw_editor');
select results_eq($$select count(*) filter (where type like 'payment\_%' or type like 'subscription\_%'), count(*) filter (where type = 'platform_paused')
                    from public.notifications$$,
  $$values (0::bigint, 1::bigint)$$, 'an editor neither');

select tests.authenticate_as('nw_viewer');
select results_eq($$select count(*) filter (where type like 'payment\_%' or type like 'subscription\_%'), count(*) filter (where type = 'scraping_completed')
                    from public.notifications$$,
  $$values (0::bigint, 1::bigint)$$, 'a viewer neither');

select tests.authenticate_as('nw_agent');
select results_eq($$select type from public.notifications$$, $$values ('lead_replied')$$,
  'an agent sees only the replies');

select * from finish();
rollback;
