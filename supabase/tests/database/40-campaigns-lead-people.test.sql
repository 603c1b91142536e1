-- The Leads tab's people and the one-call tab badges (item 10): a person scraped
-- by two campaigns and messaged by a third is one row whose status is their latest across sources
-- (a reply wins over the scraped "active"), with every source listed; counts count people; another
-- customer sees none of it.
begin;
select plan(9);

select tests.create_supabase_user('people');
select tests.create_supabase_user('stranger');
select tests.give_plan('people', 5);
select tests.create_social_account('people', 'people_x') as account \gset

insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('people'), 'Scrape A', :'account', '[{"type": "followers", "value": "a"}]', 10)
returning id as scrape_a \gset
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('people'), 'Scrape B', :'account', '[{"type": "followers", "value": "b"}]', 10)
returning id as scrape_b \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value, collected_at)
values (:'scrape_a', tests.get_supabase_uid('people'), 'Dana', '{"display_name": "Dana D"}', false, 'followers', 'a', '2025-03-01 10:00Z'),
       (:'scrape_b', tests.get_supabase_uid('people'), 'dana', '{}', false, 'followers', 'b', '2025-03-02 10:00Z'),
       (:'scrape_a', tests.get_supabase_uid('people'), 'eli', '{}', false, 'followers', 'a', '2025-03-01 11:00Z'),
       (:'scrape_b', tests.get_supabase_uid('people'), 'fay', '{}', true, 'followers', 'b', '2025-03-01 12:00Z');

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('people'), 'Outreach', :'account', '{"messages": ["hi"]}', 'running')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, user_id, username, collected_at)
values (:'campaign', tests.get_supabase_uid('people'), 'dana', '2025-03-03 10:00Z'),
       (:'campaign', tests.get_supabase_uid('people'), 'eli', '2025-03-03 11:00Z');
update public.campaign_leads set replied_at = '2025-03-04 09:00Z' where campaign_id = :'campaign' and username = 'dana';

select tests.authenticate_as('people');
select results_eq($$select count(*)::int from public.lead_view$$, $$values (6)$$,
  'six source rows (the per-source view is unchanged)');
select results_eq($$select count(*)::int from public.lead_people$$, $$values (3)$$,
  'three people: dana (3 sources), eli (2), fay (1)');
select results_eq(
  $$select username, status, source_count, sources, display_name from public.lead_people where lower(username) = 'dana'$$,
  $$values ('dana', 'replied', 3, array['Outreach', 'Scrape A', 'Scrape B'], 'Dana D')$$,
  'dana: one row, replied (not the scraped Active), every source listed, the name from the row that has one');
select results_eq($$select status from public.lead_people where username = 'eli'$$, $$values ('pending')$$,
  'eli: the DM campaign''s state outranks the scraped one');
select results_eq($$select status from public.lead_people where username = 'fay'$$, $$values ('filtered')$$,
  'fay: only scraped, filtered');
select results_eq(
  format($$select count(*)::int from public.lead_people where campaign_ids @> array[%L::uuid]$$, :'scrape_b'),
  $$values (2)$$, 'the campaign filter finds the people Scrape B collected');
select results_eq($$select (public.dashboard_counts() ->> 'leads')::int, (public.dashboard_snapshot() -> 'counts' ->> 'leads')::int$$,
  $$values (3, 3)$$, 'the Leads badge counts people, in the one-call counts and in the snapshot');

select tests.authenticate_as('stranger');
select is_empty($$select 1 from public.lead_people$$, 'another customer sees nobody');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.lead_people$$, '42501', 'permission denied for view lead_people',
  'visitors cannot read it');

select * from finish();
rollback;
