-- Scraping campaigns, scraped leads and lead lists: customers create, start, pause and delete
-- their own; the runner collects; triggers keep counters, the campaign's lead list and completion.
begin;
select plan(32);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.give_plan('owner', 5);
select tests.give_plan('other', 5);
select tests.create_social_account('owner', 'owner_x') as owner_account \gset
select tests.create_social_account('other', 'other_x') as other_account \gset

select tests.authenticate_as('owner');
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (auth.uid(), 'Founders', :'owner_account',
        '[{"type": "followers", "value": "saasfounder"}, {"type": "hashtag", "value": "buildinpublic"}]', 3);
select id as campaign from public.scraping_campaigns \gset

select results_eq(
  $$select s.status, s.collected_count, s.leads_collected, p.name, s.filters
      from public.scraping_campaigns s join public.platforms p on p.id = s.platform_id$$,
  $$values ('pending', 0, 0, 'twitter',
           '{"min_followers": 0, "max_followers": null, "verified_only": false, "has_bio": false, "exclude_business": false}'::jsonb)$$,
  'a new campaign is pending, takes its platform from the account and gets the default filters');
select results_eq(
  $$select l.name, l.lead_count from public.lead_lists l join public.scraping_campaigns s on s.lead_list_id = l.id$$,
  $$values ('Founders Leads', 0)$$,
  'it gets its own lead list');

-- Validation -----------------------------------------------------------------------------------
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources) values (auth.uid(), 'Theirs', %L, '[{"type": "followers", "value": "x"}]')$$, :'other_account'),
  '23503', 'Choose one of your social accounts for this campaign', 'another customer''s account cannot be used');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources) values (auth.uid(), 'Tags', %L, '[{"type": "hashtag", "value": "#growth"}]')$$, :'owner_account'),
  '22023', 'Enter hashtags without #', 'hashtags are entered without #');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources) values (auth.uid(), 'At', %L, '[{"type": "followers", "value": "@naval"}]')$$, :'owner_account'),
  '22023', 'Enter usernames without @', 'usernames are entered without @');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources) values (auth.uid(), 'Odd', %L, '[{"type": "likes", "value": "x"}]')$$, :'owner_account'),
  '22023', 'source type must be followers, following, hashtag or keyword', 'only the four source types exist');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources) values (auth.uid(), 'None', %L, '[]')$$, :'owner_account'),
  '22023', 'sources must be a non-empty list of {type, value}', 'a campaign needs a source');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count) values (auth.uid(), 'Big', %L, '[{"type": "keyword", "value": "ai"}]', 10001)$$, :'owner_account'),
  '23514', null, 'the target count is at most 10,000');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, filters) values (auth.uid(), 'F', %L, '[{"type": "keyword", "value": "ai"}]', '{"min_followers": 500, "max_followers": 100}')$$, :'owner_account'),
  '22023', 'max_followers must be empty (no limit) or at least min_followers', 'max followers cannot be below min followers');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, filters) values (auth.uid(), 'F', %L, '[{"type": "keyword", "value": "ai"}]', '{"min_follower": 5}')$$, :'owner_account'),
  '22023', 'unknown filter "min_follower"', 'a misspelt filter is refused');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, status) values (auth.uid(), 'S', %L, '[{"type": "keyword", "value": "ai"}]', 'running')$$, :'owner_account'),
  '42501', 'permission denied for table scraping_campaigns', 'a campaign cannot be created running');

-- Status and protected columns ------------------------------------------------------------------
select results_eq(
  $$update public.scraping_campaigns set status = 'running' returning status, started_at is not null, next_run_at is not null$$,
  $$values ('running', true, true)$$,
  'the owner starts a pending campaign; the scheduler may run it at once');
select throws_ok($$update public.scraping_campaigns set status = 'completed'$$, '42501',
  'A scraping campaign cannot go from running to completed', 'completing is the system''s call');
select throws_ok($$update public.scraping_campaigns set collected_count = 999$$, '42501',
  'permission denied for table scraping_campaigns', 'the owner cannot change the counters');
select throws_ok($$update public.scraping_campaigns set account_id = null$$, '42501',
  'permission denied for table scraping_campaigns', 'the owner cannot move it to another account');

select tests.authenticate_as('other');
select is_empty($$select 1 from public.scraping_campaigns$$, 'another customer cannot see the campaign');
select is_empty($$update public.scraping_campaigns set status = 'paused' returning 1$$, 'another customer cannot pause it');
select is_empty($$select 1 from public.lead_lists$$, 'another customer cannot see its lead list');

-- The runner collects --------------------------------------------------------------------------
select tests.authenticate_as_runner();
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, filter_reason, source_type, source_value)
values (:'campaign', gen_random_uuid(), '@ada', '{"display_name": "Ada"}', false, null, 'followers', 'saasfounder'),
       (:'campaign', gen_random_uuid(), 'bob', '{}', true, 'No bio', 'hashtag', 'buildinpublic');
select tests.clear_authentication();
select results_eq(
  format($$select username, user_id = tests.get_supabase_uid('owner') from public.scraping_campaign_leads where scraping_campaign_id = %L order by username$$, :'campaign'),
  $$values ('ada', true), ('bob', true)$$,
  'leads belong to the campaign''s owner whatever the writer says, without a leading @');
select results_eq(format($$select status, collected_count, leads_collected from public.scraping_campaigns where id = %L$$, :'campaign'), $$values ('running', 2, 1)$$,
  'counters count every collected profile and the valid ones');
select results_eq(format($$select lead_count from public.lead_lists where scraping_campaign_id = %L$$, :'campaign'), $$values (1)$$, 'only valid leads join the campaign''s list');

select tests.authenticate_as_runner();
select throws_ok(
  format($$insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username) values (%L, gen_random_uuid(), 'ADA')$$, :'campaign'),
  '23505', null, 'a profile is collected once per campaign (case-insensitive)');
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username) values (:'campaign', gen_random_uuid(), 'cy'), (:'campaign', gen_random_uuid(), 'di');
select tests.clear_authentication();
select results_eq(format($$select status, leads_collected, completed_at is not null from public.scraping_campaigns where id = %L$$, :'campaign'), $$values ('completed', 3, true)$$,
  'reaching the target completes the campaign');
select results_eq($$select type, message from public.notifications where user_id = tests.get_supabase_uid('owner')$$,
  $$values ('scraping_completed', '"Founders" collected 3 valid leads.')$$, '... and tells the customer');

-- Reading leads and lists ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select results_eq($$select count(*)::int from public.scraping_campaign_leads$$, $$values (4)$$, 'the owner reads the leads');
select throws_ok($$update public.scraping_campaign_leads set is_filtered = false$$, '42501',
  'permission denied for table scraping_campaign_leads', 'the owner cannot edit collected leads');
insert into public.lead_lists (user_id, name) values (auth.uid(), 'Favourites');
insert into public.lead_list_members (lead_list_id, scraping_lead_id, user_id)
select l.id, s.id, auth.uid() from public.lead_lists l, public.scraping_campaign_leads s where l.name = 'Favourites' and s.username in ('ada', 'cy');
select results_eq($$select lead_count from public.lead_lists where name = 'Favourites'$$, $$values (2)$$, 'lists count their members');
delete from public.lead_list_members where scraping_lead_id = (select id from public.scraping_campaign_leads where username = 'cy')
  and lead_list_id = (select id from public.lead_lists where name = 'Favourites');
select results_eq($$select lead_count from public.lead_lists where name = 'Favourites'$$, $$values (1)$$, '... also when one is removed');

select tests.authenticate_as('other');
select is_empty($$select 1 from public.scraping_campaign_leads$$, 'another customer cannot read the leads');
insert into public.lead_lists (user_id, name) values (auth.uid(), 'Mine');
select throws_ok(
  $$insert into public.lead_list_members (lead_list_id, scraping_lead_id, user_id)
    select l.id, (select id from public.scraping_campaign_leads limit 1), auth.uid() from public.lead_lists l$$,
  '42501', 'The list and the lead must both be yours', 'another customer cannot put someone else''s lead in a list');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.scraping_campaigns$$, '42501', 'permission denied for table scraping_campaigns',
  'anonymous visitors cannot read scraping campaigns');

select tests.authenticate_as('owner');
delete from public.scraping_campaigns;
select tests.clear_authentication();
select is_empty(format($$select 1 from public.scraping_campaign_leads where scraping_campaign_id = %1$L union all select 1 from public.lead_lists where scraping_campaign_id = %1$L$$, :'campaign'),
  'deleting a campaign deletes its leads and its own list');

select * from finish();
rollback;
