-- A reply that arrives while the runner's page may still be on the X conversation (within 5 minutes
-- of its DM) stays unread even when X lists the conversation read: an open conversation reads what
-- arrives. A reply read on X well after the DM is the customer's reading.
begin;
select plan(3);

select tests.create_supabase_user('grace_owner');
select tests.give_plan('grace_owner', 5);
select tests.create_social_account('grace_owner', 'grace_x') as account \gset
select tests.freeze_time('2026-11-26 10:00:00+00');

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('grace_owner'), 'Grace', :'account', '{"messages": ["hi"]}', 'running')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, username, profile_data)
values (:'campaign', 'quick_lead', '{}'), (:'campaign', 'slow_lead', '{}');
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at)
select :'campaign', l.id, :'account', 0, 'sent', l.username, 'hi', '2026-11-26 09:50:00+00'
  from public.campaign_leads l where l.campaign_id = :'campaign';

select tests.authenticate_as_runner();
select internal.record_inbox_thread(:'account', 'quick_lead', '51', 't-quick', false, true,
  '[{"id": "q1", "text": "Oh hi!", "direction": "incoming", "at": "2026-11-26T09:50:02Z"}]');
select internal.record_inbox_thread(:'account', 'slow_lead', '52', 't-slow', false, true,
  '[{"id": "s1", "text": "Hello, later", "direction": "incoming", "at": "2026-11-26T09:58:00Z"}]');

select results_eq(
  $$select unread_count from public.inbox_threads where peer_username = 'quick_lead'$$,
  $$values (1)$$,
  'a reply 2 s after the DM, listed read on X, stays unread: the runner''s page may have read it');
select results_eq(
  $$select unread_count from public.inbox_threads where peer_username = 'slow_lead'$$,
  $$values (0)$$,
  'a reply 8 minutes after the DM, listed read on X, was read by the customer');
select results_eq(
  $$select read_on_platform from public.inbox_messages where platform_message_id = 'q1'$$,
  $$values (false)$$, 'and the quick one is not said to be read on the platform');

select * from finish();
rollback;
