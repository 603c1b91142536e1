-- What the dashboard reads: summary cards, today's overview, the combined lead view, campaign and
-- scraping statistics - each computed from a known dataset at a frozen time, and each showing a
-- customer only their own data.
begin;
select plan(19);

select tests.create_supabase_user('reader');
select tests.create_supabase_user('other');
select tests.give_plan('reader', 5);
update public.user_profiles set timezone = 'America/New_York' where id = tests.get_supabase_uid('reader');
select tests.create_social_account('reader', 'reader_x') as account \gset
update public.social_accounts set created_at = '2025-03-08 10:00Z' where id = :'account';
select tests.freeze_time('2025-03-12 12:00Z');

-- Scraped leads: one with a display name, one with only a full name, one with neither (filtered).
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('reader'), 'Scrape', :'account', '[{"type": "followers", "value": "a"}, {"type": "hashtag", "value": "b"}]', 2)
returning id as scrape \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value, collected_at)
values (:'scrape', tests.get_supabase_uid('reader'), 'amy', '{"display_name": "Amy A", "full_name": "Amy Full", "email": "amy@x.test", "job_title": "CEO", "business": "Biz", "bio": "Hi"}', false, 'followers', 'a', '2025-03-01 10:00Z'),
       (:'scrape', tests.get_supabase_uid('reader'), 'bo', '{"full_name": "Bo Full", "company": "Co", "title": "CTO"}', false, 'followers', 'a', '2025-03-01 12:00Z'),
       (:'scrape', tests.get_supabase_uid('reader'), 'cy', '{}', true, 'hashtag', 'b', '2025-03-01 14:00Z');

insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status, started_at)
values (tests.get_supabase_uid('reader'), 'Outreach', :'account', :'scrape', '{"messages": ["hi"]}', 'running', '2025-03-10 09:00Z')
returning id as campaign \gset

-- History: 5 sent long ago; the week before: 3 sent + 1 error; this week: 6 sent + 2 failed.
insert into public.campaign_leads (campaign_id, user_id, username, collected_at)
select :'campaign', tests.get_supabase_uid('reader'), 'h' || i, '2025-02-01'::timestamptz + i * interval '1 hour' from generate_series(1, 17) i;
insert into public.dm_logs (campaign_id, campaign_lead_id, step, status, target_username, sent_at)
select :'campaign', l.id, 0, x.status, l.username, x.sent_at
  from (select row_number() over (order by username) as n, id, username from public.campaign_leads where campaign_id = :'campaign' and username like 'h%') l
  join (values (1, 'sent', '2025-02-10 12:00Z'::timestamptz), (2, 'sent', '2025-02-11 12:00Z'), (3, 'sent', '2025-02-12 12:00Z'),
               (4, 'sent', '2025-02-13 12:00Z'), (5, 'sent', '2025-02-14 12:00Z'),
               (6, 'sent', '2025-03-01 12:00Z'), (7, 'sent', '2025-03-02 12:00Z'), (8, 'sent', '2025-03-03 12:00Z'), (9, 'error', '2025-03-04 12:00Z'),
               (10, 'sent', '2025-03-06 12:00Z'), (11, 'sent', '2025-03-07 12:00Z'), (12, 'sent', '2025-03-08 12:00Z'),
               (13, 'sent', '2025-03-12 03:00Z'), (14, 'sent', '2025-03-12 05:00Z'), (15, 'sent', '2025-03-12 11:00Z'),
               (16, 'failed', '2025-03-11 12:00Z'), (17, 'failed', '2025-03-11 13:00Z')) as x (n, status, sent_at) on x.n = l.n;
update public.campaign_leads set replied_at = '2025-03-12 06:00Z' where campaign_id = :'campaign' and username = 'h13';
update public.campaign_leads set replied_at = '2025-03-11 06:00Z' where campaign_id = :'campaign' and username = 'h14';

select tests.authenticate_as('reader');
select results_eq($$select * from public.dashboard_summary()$$,
  $$values (14::bigint, 100.0, 82.4, 0.0, 1::bigint, 1::bigint, 1::bigint, 1::bigint)$$,
  'summary: 14 sent (6 this week vs 3 the week before: +100%), 82.4% delivered (75% both weeks), 1 active account and campaign, both new this week');
select results_eq($$select * from public.todays_overview()$$,
  $$values ('2025-03-12'::date, 'America/New_York', 2::bigint, 1::bigint, 0::bigint)$$,
  'today in New York (from 04:00 UTC): 2 sent, 1 reply, estimate floor(15%)');

select results_eq(
  $$select source, username, display_name, email, company, title, avatar, status from public.lead_view
     where source = 'scraping' order by collected_at desc$$,
  $$values ('scraping', 'cy', 'cy', null, null, null, 'C', 'filtered'),
           ('scraping', 'bo', 'Bo Full', null, 'Co', 'CTO', 'B', 'active'),
           ('scraping', 'amy', 'Amy A', 'amy@x.test', 'Biz', 'CEO', 'A', 'active')$$,
  'scraped leads with the product''s fallbacks: display name, else full name, else username; company or business; title or job title');
select results_eq(
  $$select campaign_name, status from public.lead_view where source = 'campaign' and username in ('amy', 'h13', 'h16') order by username$$,
  $$values ('Outreach', 'pending'), ('Outreach', 'replied'), ('Outreach', 'pending')$$,
  'campaign leads carry their campaign''s name and state, replied once they answered');
select results_eq($$select count(*)::int from public.lead_view$$, $$values (22)$$,
  'the view counts both kinds (17 history + 2 attached + 3 scraped)');
select results_eq(
  $$select username, source from public.lead_view order by collected_at desc, source limit 3 offset 1$$,
  $$values ('bo', 'campaign'), ('bo', 'scraping'), ('amy', 'campaign')$$,
  'the view pages by collected_at, newest first, both kinds merged');

select results_eq(
  format($$select s -> 'messagesSent', s -> 'totalAttempts', s -> 'responses', s -> 'replyRate', s -> 'deliveryRate', s -> 'totalLeads', jsonb_array_length(s -> 'perDay')
           from public.campaign_stats(%L) s$$, :'campaign'),
  $$values ('14'::jsonb, '17'::jsonb, '2'::jsonb, '14.3'::jsonb, '82.4'::jsonb, '19'::jsonb, 30)$$,
  'campaign statistics: sent, attempts, responses, reply rate 2/14, delivery 14/17, leads, 30 days of history');
select results_eq(
  format($$select d -> 'sent', d -> 'failed', d -> 'replies' from public.campaign_stats(%L) s, jsonb_array_elements(s -> 'perDay') d where d ->> 'date' = '2025-03-11'$$, :'campaign'),
  $$values ('0'::jsonb, '2'::jsonb, '1'::jsonb)$$,
  'per-day figures are counted in the campaign''s time zone');
select results_eq(
  format($$select s -> 'collected', s -> 'valid', s -> 'successRate', s -> 'collectionRate', s -> 'qualityScore', s -> 'sources' -> 0, jsonb_array_length(s -> 'recent')
           from public.scraping_campaign_stats(%L) s$$, :'scrape'),
  $$values ('3'::jsonb, '2'::jsonb, '66.7'::jsonb, '100.0'::jsonb, '50.0'::jsonb,
           '{"type": "followers", "value": "a", "count": 2, "percentage": 66.7}'::jsonb, 3)$$,
  'scraping statistics: success and collection rates, quality (valid leads with a bio), sources with percentages');

select tests.authenticate_as('other');
select results_eq($$select * from public.dashboard_summary()$$,
  $$values (0::bigint, 0::numeric, null::numeric, null::numeric, 0::bigint, 0::bigint, 0::bigint, 0::bigint)$$,
  'another customer''s summary is empty (no Delivery Rate before anything was sent)');
select is_empty($$select 1 from public.lead_view$$, 'another customer sees no leads in the view');
select throws_ok(format($$select public.campaign_stats(%L)$$, :'campaign'), 'PT404', 'Campaign not found',
  'another customer''s campaign is not found');
select throws_ok(format($$select public.scraping_campaign_stats(%L)$$, :'scrape'), 'PT404', 'Campaign not found',
  '... nor their scraping campaign');
select results_eq($$select sent_today, replies_today from public.todays_overview()$$, $$values (0::bigint, 0::bigint)$$,
  'another customer''s today is empty');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.lead_view$$, '42501', 'permission denied for view lead_view', 'visitors cannot read the lead view');
select throws_ok($$select public.dashboard_summary()$$, '42501', 'permission denied for function dashboard_summary',
  'visitors cannot call the summary');
select throws_ok($$select public.check_account_limit()$$, '42501', 'permission denied for function check_account_limit',
  'visitors cannot call the limit check');

select tests.authenticate_as('reader');
select throws_ok(
  format($$select public.request_account_test(%L)$$, (select id from public.social_accounts where username = 'seed_never' union all select gen_random_uuid() limit 1)),
  'PT404', 'Account not found', 'an account test can only be requested for one''s own account');
select isnt(public.request_account_test(:'account'), null, 'the owner queues a test of their account');

select * from finish();
rollback;
