-- The api function's one-transaction operations: account creation under the plan limit with its
-- credentials and test job, pause / start / delete keeping the job queue consistent, and the daily
-- usage per account. Each acts only on the caller's own rows.
begin;
select plan(44);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.create_supabase_user('free');
select tests.create_supabase_user('lapsed');
select tests.give_plan('owner', 3, 'growth', 'trialing');
select tests.give_plan('lapsed', 2, 'growth', 'canceled');
select tests.give_plan('other', 5);

-- create_social_account ------------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok(
  format($$select public.create_social_account(%L, 'twitter', 'sneaky', null, 'k1', 'k1:abc')$$, tests.get_supabase_uid('owner')),
  '42501', 'permission denied for function create_social_account', 'customers cannot call it themselves');

select tests.authenticate_as_service_role();
select public.create_social_account(tests.get_supabase_uid('owner'), 'twitter', 'owner_x', 'proxy.example.com:8080',
  'k1', 'k1:c2VhbGVk', true) as created \gset
select results_eq(
  format($$select status, username, has_chat_passcode, proxy_url from public.social_accounts where id = %L$$, (:'created'::jsonb) ->> 'id'),
  $$values ('testing', 'owner_x', true, 'proxy.example.com:8080')$$,
  'the account is created in testing status');
select results_eq(
  format($$select key_id, ciphertext from public.social_account_credentials where account_id = %L$$, (:'created'::jsonb) ->> 'id'),
  $$values ('k1', 'k1:c2VhbGVk')$$,
  'its sealed credentials are stored beside it');
select tests.clear_authentication();
select results_eq(
  format($$select name, data ->> 'accountId', state::text from pgboss.job where id = %L$$, (:'created'::jsonb) ->> 'test_job_id'),
  format($$values ('account.test', %L, 'created')$$, (:'created'::jsonb) ->> 'id'),
  'and an account.test job is queued for it');
select tests.authenticate_as_service_role();
select throws_ok(
  format($$select public.create_social_account(%L, 'twitter', 'OWNER_X', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('owner')),
  '23505', 'This account is already connected', 'the same username on the same platform is refused (any case)');
select throws_ok(
  format($$select public.create_social_account(%L, 'linkedin', 'owner_li', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('owner')),
  '22023', 'This platform cannot be connected yet', 'coming-soon platforms are refused');
select throws_ok(
  format($$select public.create_social_account(%L, 'twitter', 'owner_k', null, 'k2', 'k1:eA==')$$, tests.get_supabase_uid('owner')),
  '22023', 'Credentials must be sealed with the named key', 'the key id must match the sealed value');
select lives_ok(
  format($$select public.create_social_account(%L, 'instagram', 'owner.ig', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('owner')),
  'a second account on a 3-account plan');
select lives_ok(
  format($$select public.create_social_account(%L, 'twitter', 'owner_third', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('owner')),
  'a third');
select throws_ok(
  format($$select public.create_social_account(%L, 'twitter', 'owner_fourth', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('owner')),
  'P0001', 'Account limit reached. You have 3/3 accounts.', 'but not a fourth');
select results_eq(
  format($$select count(*)::int from public.social_account_credentials c join public.social_accounts a on a.id = c.account_id where a.user_id = %L$$, tests.get_supabase_uid('owner')),
  $$values (3)$$,
  'a refused create leaves no credentials behind');
select lives_ok(
  format($$select public.create_social_account(%L, 'twitter', 'free_one', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('free')),
  'the free plan has one account');
select throws_ok(
  format($$select public.create_social_account(%L, 'twitter', 'free_two', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('free')),
  'P0001', 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
  'and the free plan''s text for a second');
select lives_ok(
  format($$select public.create_social_account(%L, 'twitter', 'lapsed_one', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('lapsed')),
  'a lapsed plan falls back to one account');
select throws_ok(
  format($$select public.create_social_account(%L, 'twitter', 'lapsed_two', null, 'k1', 'k1:eA==')$$, tests.get_supabase_uid('lapsed')),
  'P0001', 'Subscription is not active', 'and says the subscription is not active for a second');
select throws_ok(
  $$select public.create_social_account('00000000-0000-4000-8000-000000000000', 'twitter', 'ghost', null, 'k1', 'k1:eA==')$$,
  'PT404', 'User not authenticated', 'a user without a profile is refused');

-- DM campaigns: pause and delete keep the queue consistent ---------------------------------------
select tests.clear_authentication();
select tests.create_social_account('other', 'other_x') as other_account \gset
update public.social_accounts set status = 'active', warmup_phase = 5 where id = ((:'created'::jsonb) ->> 'id')::uuid;
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('owner'), 'Source', ((:'created'::jsonb) ->> 'id')::uuid, '[{"type": "keyword", "value": "saas"}]', 2)
returning id as source \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username)
values (:'source', tests.get_supabase_uid('owner'), 'ann'), (:'source', tests.get_supabase_uid('owner'), 'ben');
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, run_immediately)
values (tests.get_supabase_uid('owner'), 'Outreach', ((:'created'::jsonb) ->> 'id')::uuid, :'source',
        '{"messages": ["Hi {name}"]}', true)
returning id as campaign \gset
select internal.enqueue_job('campaign.tick', jsonb_build_object('campaignId', :'campaign', 'accountId', (:'created'::jsonb) ->> 'id'),
  'campaign:' || :'campaign') as tick \gset

select tests.authenticate_as('owner');
select results_eq($$select c.campaign_id::text, c.leads from public.campaign_lead_counts() c$$,
  format($$values (%L, 2::bigint)$$, :'campaign'), 'the owner''s campaign has its two leads');
select tests.authenticate_as('other');
select is((select count(*)::int from public.campaign_lead_counts()), 0, 'another customer sees none of its lead counts');
select throws_ok(format($$select public.pause_campaign(%L)$$, :'campaign'), 'PT404', 'Campaign not found',
  'another customer cannot pause it');
select throws_ok(format($$select public.delete_campaign(%L)$$, :'campaign'), 'PT404', 'Campaign not found',
  'nor delete it');

select tests.authenticate_as('owner');
select results_eq(format($$select public.pause_campaign(%L) ->> 'status'$$, :'campaign'), $$values ('paused')$$,
  'the owner pauses a running campaign');
select tests.clear_authentication();
select results_eq(format($$select state::text from pgboss.job where id = %L$$, :'tick'), $$values ('cancelled')$$,
  'its waiting tick is cancelled');
select tests.authenticate_as('owner');
select results_eq(format($$select public.pause_campaign(%L) ->> 'status'$$, :'campaign'), $$values ('paused')$$,
  'pausing again changes nothing');
update public.campaigns set status = 'running' where id = :'campaign';
select tests.clear_authentication();
select internal.enqueue_job('campaign.tick', jsonb_build_object('campaignId', :'campaign'), 'campaign:' || :'campaign') as tick2 \gset
update pgboss.job set state = 'active', started_on = now() where id = :'tick2';
select internal.enqueue_job('campaign.tick', jsonb_build_object('campaignId', :'campaign'), 'campaign:' || :'campaign') as tick3 \gset
select tests.authenticate_as('owner');
select lives_ok(format($$select public.delete_campaign(%L)$$, :'campaign'), 'the owner deletes the campaign');
select tests.clear_authentication();
select results_eq(
  format($$select id::text, state::text from pgboss.job where data ->> 'campaignId' = %L order by created_on$$, :'campaign'),
  format($$values (%L, 'cancelled'), (%L, 'active')$$, :'tick', :'tick2'),
  'its waiting tick is gone; the running one is left to see the campaign is gone');
select is((select count(*)::int from public.campaigns where id = :'campaign'), 0, 'the campaign is gone');

insert into public.campaigns (user_id, name, account_id, sequences)
values (tests.get_supabase_uid('owner'), 'Draft', ((:'created'::jsonb) ->> 'id')::uuid, '{"messages": ["Hi"]}')
returning id as draft \gset
select tests.authenticate_as('owner');
select throws_ok(format($$select public.pause_campaign(%L)$$, :'draft'), 'PT409',
  'Only a running campaign can be paused (this one is draft)', 'a draft cannot be paused');

-- Scraping campaigns: start, pause, delete ----------------------------------------------------------
select tests.authenticate_as('other');
select throws_ok(format($$select public.start_scraping_campaign(%L)$$, :'source'), 'PT404', 'Scraping campaign not found',
  'another customer cannot start it');
select tests.authenticate_as('owner');
select results_eq(
  format($$select r ->> 'status', r ->> 'run_job_id' is not null from public.start_scraping_campaign(%L) r$$, :'source'),
  $$values ('running', true)$$,
  'the owner starts it and its first run is queued at once (the account is active)');
select results_eq(
  format($$select public.start_scraping_campaign(%L) ->> 'run_job_id'$$, :'source'),
  $$values (null::text)$$,
  'starting again queues no second run while one waits');
select results_eq(format($$select public.pause_scraping_campaign(%L) ->> 'status'$$, :'source'), $$values ('paused')$$,
  'the owner pauses it');
select tests.clear_authentication();
select results_eq(
  format($$select count(*)::int from pgboss.job where name = 'scrape.run' and data ->> 'scrapingCampaignId' = %L and state = 'created'$$, :'source'),
  $$values (0)$$, 'no run is left waiting after the pause');
select tests.authenticate_as('owner');
select results_eq(format($$select public.start_scraping_campaign(%L) ->> 'status'$$, :'source'), $$values ('running')$$,
  'a paused campaign resumes');

insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, run_immediately)
values (auth.uid(), 'Uses source', ((:'created'::jsonb) ->> 'id')::uuid, :'source', '{"messages": ["Hi"]}', true);
select throws_ok(format($$select public.delete_scraping_campaign(%L)$$, :'source'), 'PT409',
  'This scraping campaign is the lead source of the DM campaign "Uses source": delete that campaign first',
  'a scraping campaign feeding a launched DM campaign cannot be deleted');
delete from public.campaigns where name = 'Uses source';
select lives_ok(format($$select public.delete_scraping_campaign(%L)$$, :'source'), 'then it can');
select tests.clear_authentication();
select results_eq(
  format($$select count(*)::int from pgboss.job where name = 'scrape.run' and data ->> 'scrapingCampaignId' = %L and state in ('created', 'retry')$$, :'source'),
  $$values (0)$$, 'and its waiting runs are removed');

-- Daily usage ------------------------------------------------------------------------------------
select tests.freeze_time('2026-03-02 12:00+00');
update public.social_accounts
   set messages_sent_today = 7, sent_today_on = '2026-03-02', daily_message_limit = 40, warmup_phase = 2
 where id = ((:'created'::jsonb) ->> 'id')::uuid;
insert into public.campaigns (user_id, name, account_id, sequences, run_immediately, daily_message_limit, schedule)
values (tests.get_supabase_uid('owner'), 'Sending', ((:'created'::jsonb) ->> 'id')::uuid, '{"messages": ["Hi"]}', true, 15,
        '{"timezone": "UTC"}');
update public.campaigns set messages_sent_today = 12, sent_today_on = '2026-03-02' where name = 'Sending';
select tests.authenticate_as('owner');
select results_eq(
  format($$select sent_today, account_limit, warmup_limit, platform_limit, campaign_limit, sending_campaigns, daily_cap, remaining_today
             from public.account_daily_usage() where account_id = %L$$, (:'created'::jsonb) ->> 'id'),
  $$values (7, 40, 20, 450, 15, 1, 15, 3)$$,
  'sent today, every cap, the lowest of them, and what is left (the campaign has 3 of its 15 left)');
select results_eq(
  $$select username, campaign_limit, daily_cap, remaining_today from public.account_daily_usage() where username = 'owner_third'$$,
  $$values ('owner_third', null::int, 10, 10)$$,
  'a new account in warm-up phase 1 without a sending campaign: 10 a day, all left');
select is((select count(*)::int from public.account_daily_usage()), 3, 'the owner sees their three accounts only');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.account_daily_usage()$$, '42501', 'permission denied for function account_daily_usage',
  'visitors cannot call it');

-- Deleting an account ----------------------------------------------------------------------------
select tests.clear_authentication();
select internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', :'other_account'), 'inbox:' || :'other_account') as sync_job \gset
select tests.authenticate_as('owner');
select throws_ok(format($$select public.delete_social_account(%L)$$, :'other_account'), 'PT404', 'Account not found',
  'a customer cannot delete another customer''s account');
select tests.authenticate_as('other');
select lives_ok(format($$select public.delete_social_account(%L)$$, :'other_account'), 'the owner deletes it');
select tests.clear_authentication();
select is((select count(*)::int from pgboss.job where id = :'sync_job'), 0, 'its waiting jobs are removed');
select is((select count(*)::int from public.social_accounts where id = :'other_account'), 0, 'the account is gone');

select * from finish();
rollback;
