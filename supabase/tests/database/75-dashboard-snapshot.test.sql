-- The dashboard's one-round-trip first screen: the same figures as the reads it combines, and only
-- the caller's own.
begin;
select plan(10);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.give_plan('owner', 5);
select tests.create_social_account('owner', 'owner_x') as account \gset
select tests.freeze_time('2025-03-12 12:00Z');

insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count, status)
values (tests.get_supabase_uid('owner'), 'Scrape', :'account', '[{"type": "followers", "value": "a"}]', 2, 'running')
returning id as scrape \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value, collected_at)
values (:'scrape', tests.get_supabase_uid('owner'), 'amy', '{}', false, 'followers', 'a', '2025-03-01 10:00Z');
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status, created_at)
values (tests.get_supabase_uid('owner'), 'Older', :'account', :'scrape', '{"messages": ["hi"]}', 'draft', '2025-03-01 09:00Z'),
       (tests.get_supabase_uid('owner'), 'Newer', :'account', null, '{"messages": ["hi"]}', 'running', '2025-03-02 09:00Z');
insert into public.campaign_leads (campaign_id, user_id, username, collected_at, last_sent_at, replied_at)
select c.id, c.user_id, 'lead' || i, '2025-03-01'::timestamptz, case when i <= 2 then '2025-03-11 10:00Z'::timestamptz end,
       case when i = 1 then '2025-03-11 11:00Z'::timestamptz end
  from public.campaigns c, generate_series(1, 3) i where c.name = 'Newer';

select tests.authenticate_as('owner');
select is(public.dashboard_snapshot() -> 'counts',
  '{"campaigns": 2, "leads": 4, "accounts": 1, "scraping": 1, "running": 2}'::jsonb,
  'owner: tab counts (leads count people: 3 + 1 campaign leads, the second copied from its scrape, so the scraped one is the same person), one running campaign and one running scrape');
select is(public.dashboard_snapshot() -> 'summary', (select to_jsonb(s) from public.dashboard_summary() s),
  'owner: the summary is dashboard_summary()');
select is(public.dashboard_snapshot() -> 'today', (select to_jsonb(t) from public.todays_overview() t),
  'owner: today is todays_overview()');
select is(public.dashboard_snapshot() ->> 'user_id', tests.get_supabase_uid('owner')::text, 'owner: names the caller');
select results_eq(
  $$select c ->> 'name', (c -> 'figures' -> 'target')::int, (c -> 'figures' -> 'contacted')::int, (c -> 'figures' -> 'replied')::int,
           c -> 'social_account' ->> 'username', c -> 'scraping_campaign' ->> 'name', c -> 'platform' ->> 'name'
      from jsonb_array_elements(public.dashboard_snapshot() -> 'campaigns') c$$,
  $$values ('Newer', 3, 2, 1, 'owner_x', null, 'twitter'), ('Older', 1, 0, 0, 'owner_x', 'Scrape', 'twitter')$$,
  'owner: campaign cards newest first with their figures, account, source and platform');
-- A card opened from the first screen edits the winner rule and AI writing from these rows: a
-- later refetch of the snapshot must not blank what the Campaigns tab's read gave.
select ok((select bool_and(c ?& array['ai_personalization', 'winner_after_sends', 'winner_chosen_at'])
             from jsonb_array_elements(public.dashboard_snapshot() -> 'campaigns') c),
  'owner: campaign rows carry AI writing and the winner rule, as the Campaigns tab''s read does');

select tests.authenticate_as('other');
select is(public.dashboard_snapshot() -> 'counts',
  '{"campaigns": 0, "leads": 0, "accounts": 0, "scraping": 0, "running": 0}'::jsonb,
  'another customer counts none of the owner''s records');
select is(public.dashboard_snapshot() -> 'campaigns', '[]'::jsonb, '... and sees none of their campaigns');
select is((public.dashboard_snapshot() -> 'summary' ->> 'messages_sent')::int, 0, '... nor their figures');

select tests.authenticate_as_anon();
select throws_ok($$select public.dashboard_snapshot()$$, '42501', 'permission denied for function dashboard_snapshot',
  'visitors cannot call the snapshot');

select * from finish();
rollback;
