-- A second customer for the workspaces data migration's proof (workspaces-migration.test.ts), in the
-- schema as it was before 20261129082031_workspaces.sql: at least one row in every tenant table, two
-- in some, so the seeded demo customer and this one together leave no table empty. Loaded as the
-- superuser with triggers off (as the runner, the functions and Stripe's webhook would have written
-- these rows), so every column the triggers would derive is written here.

insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', 'c2000000-0000-4000-8000-000000000002', 'authenticated',
        'authenticated', 'second@reachflow.test', '{"provider": "email"}', '{"full_name": "Sam Second"}',
        now() - interval '20 days', now());

set session_replication_role = replica;

insert into public.social_accounts (id, user_id, platform_id, username, status, connection)
select 'c2a00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', id, 'second_x', 'active', 'browser'
  from public.platforms where name = 'twitter';
insert into public.social_accounts (id, user_id, platform_id, username, status, connection)
select 'c2a00000-0000-4000-8000-000000000002', 'c2000000-0000-4000-8000-000000000002', id, 'second_ig', 'active', 'official'
  from public.platforms where name = 'instagram';

insert into public.x_oauth_requests (user_id, state_hash, key_id, sealed, redirect_uri, expires_at)
values ('c2000000-0000-4000-8000-000000000002', repeat('c2', 32), 'local1', 'local1:c2VhbGVk',
        'https://app.reachflow.test/connect/x/callback', now() + interval '10 minutes');
insert into internal.instagram_oauth_states (state_hash, user_id, expires_at)
values (repeat('2c', 32), 'c2000000-0000-4000-8000-000000000002', now() + interval '10 minutes');
insert into public.x_api_usage (account_id, user_id, day, kind, unit_key)
values ('c2a00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', current_date, 'own_read', 'inbox'),
       ('c2a00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', current_date, 'dm_create', 'lead_one');

insert into public.instagram_automations (id, account_id, user_id, name, trigger, keywords, reply_text, followup_text,
  followup_delay_minutes)
values ('c2b00000-0000-4000-8000-000000000001', 'c2a00000-0000-4000-8000-000000000002', 'c2000000-0000-4000-8000-000000000002',
        'Price answers', 'dm_keyword', '{price}', 'Here are our prices', 'Still there?', 60);
insert into public.instagram_automation_runs (id, automation_id, user_id, account_id, trigger_key, person_id, status, message_id)
values ('c2c00000-0000-4000-8000-000000000001', 'c2b00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002',
        'c2a00000-0000-4000-8000-000000000002', 'message:second-mid', '3001', 'sent', 'second-answer');
insert into public.instagram_automation_followups (run_id, automation_id, user_id, account_id, person_id, sent_after, due_at)
values ('c2c00000-0000-4000-8000-000000000001', 'c2b00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002',
        'c2a00000-0000-4000-8000-000000000002', '3001', now(), now() + interval '60 minutes');

insert into public.subscriptions (id, user_id, status, plan_type, billing_period, accounts_purchased, stripe_customer_id,
  stripe_subscription_id)
values ('c2d00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'active', 'starter', 'monthly', 1,
        'cus_second', 'sub_second');
insert into public.payments (user_id, subscription_id, amount, currency, status, payment_type, stripe_invoice_id)
values ('c2000000-0000-4000-8000-000000000002', 'c2d00000-0000-4000-8000-000000000001', 4900, 'usd', 'succeeded', 'subscription',
        'in_second_1'),
       ('c2000000-0000-4000-8000-000000000002', 'c2d00000-0000-4000-8000-000000000001', 4900, 'usd', 'failed', 'subscription',
        'in_second_2');

insert into public.lead_lists (id, user_id, name, lead_count)
values ('c2e00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'Second list', 2);
insert into public.scraping_campaigns (id, user_id, account_id, platform_id, name, sources, status)
select 'c2f00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'c2a00000-0000-4000-8000-000000000001',
       id, 'Second scrape', '[{"type": "keyword", "value": "saas"}]', 'completed'
  from public.platforms where name = 'twitter';
insert into public.scraping_campaign_leads (id, scraping_campaign_id, user_id, username)
values ('c2100000-0000-4000-8000-000000000001', 'c2f00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'lead_one'),
       ('c2100000-0000-4000-8000-000000000002', 'c2f00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'lead_two');
insert into public.lead_list_members (lead_list_id, scraping_lead_id, user_id)
values ('c2e00000-0000-4000-8000-000000000001', 'c2100000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002'),
       ('c2e00000-0000-4000-8000-000000000001', 'c2100000-0000-4000-8000-000000000002', 'c2000000-0000-4000-8000-000000000002');

insert into public.campaigns (id, user_id, account_id, platform_id, name, sequences, status, scraping_campaign_id)
select 'c2200000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'c2a00000-0000-4000-8000-000000000001',
       id, 'Second campaign', '{"messages": ["hi"]}', 'running', 'c2f00000-0000-4000-8000-000000000001'
  from public.platforms where name = 'twitter';
insert into public.campaign_leads (id, campaign_id, user_id, username, scraping_lead_id, state)
values ('c2300000-0000-4000-8000-000000000001', 'c2200000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002',
        'lead_one', 'c2100000-0000-4000-8000-000000000001', 'sent'),
       ('c2300000-0000-4000-8000-000000000002', 'c2200000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002',
        'lead_two', 'c2100000-0000-4000-8000-000000000002', 'pending');
insert into public.campaign_daily_stats (campaign_id, user_id, day, attempts, sent)
values ('c2200000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', current_date, 1, 1);
insert into public.message_variants (id, campaign_id, user_id, step, kind, slot, template)
values ('c2400000-0000-4000-8000-000000000001', 'c2200000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002',
        0, 'opening', 0, 'hi');
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, user_id, step, message_type, status, target_username,
  message_sent, variant_id, variant_index)
values ('c2200000-0000-4000-8000-000000000001', 'c2300000-0000-4000-8000-000000000001', 'c2a00000-0000-4000-8000-000000000001',
        'c2000000-0000-4000-8000-000000000002', 0, 'initial', 'sent', 'lead_one', 'hi', 'c2400000-0000-4000-8000-000000000001', 0);
insert into public.contact_ledger (user_id, platform, target_username, campaign_id, account_id)
values ('c2000000-0000-4000-8000-000000000002', 'twitter', 'lead_one', 'c2200000-0000-4000-8000-000000000001',
        'c2a00000-0000-4000-8000-000000000001');
insert into public.do_not_contact (user_id, platform, target_username, reason)
values ('c2000000-0000-4000-8000-000000000002', 'twitter', 'stop_me', 'asked'),
       ('c2000000-0000-4000-8000-000000000002', 'instagram', 'stop_me_too', 'asked');
insert into public.opt_out_settings (user_id) values ('c2000000-0000-4000-8000-000000000002');

insert into public.inbox_threads (id, user_id, account_id, peer_username, campaign_id, campaign_lead_id, unread_count)
values ('c2500000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'c2a00000-0000-4000-8000-000000000001',
        'lead_one', 'c2200000-0000-4000-8000-000000000001', 'c2300000-0000-4000-8000-000000000001', 1);
insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, status, dedupe_key)
values ('c2500000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'c2a00000-0000-4000-8000-000000000001',
        'outgoing', 'hi', 'sent', 'second-out'),
       ('c2500000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', 'c2a00000-0000-4000-8000-000000000001',
        'incoming', 'hello back', 'received', 'second-in');
insert into public.inbox_check_requests (account_id, user_id, requested_at)
values ('c2a00000-0000-4000-8000-000000000001', 'c2000000-0000-4000-8000-000000000002', now());
insert into public.ai_usage (user_id, day, requests, tokens)
values ('c2000000-0000-4000-8000-000000000002', current_date, 1, 120);
insert into public.notifications (user_id, type, title)
values ('c2000000-0000-4000-8000-000000000002', 'campaign_started', 'Second campaign started');

set session_replication_role = origin;
