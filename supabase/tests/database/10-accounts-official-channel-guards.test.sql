-- What an official account cannot do: an official Instagram account starts no DM campaign (Instagram's
-- API only answers people who wrote first) and no official account scrapes (that needs the browser);
-- an official X account still runs DM campaigns, and browser accounts are untouched.
begin;
select plan(6);

select tests.create_supabase_user('ch_owner');
select tests.give_plan('ch_owner', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('ch_owner'), 'ch_ig_official', '17841000000000091',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as ig_official \gset
select (public.connect_official_x_account(tests.get_supabase_uid('ch_owner'), 'ch_x_official', '1690000091', 'k1', 'k1:dG9rZW5z')) ->> 'id' as x_official \gset
select tests.create_social_account('ch_owner', 'ch_ig_browser', 'instagram') as ig_browser \gset

select tests.authenticate_as('ch_owner');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences) values (%L, 'IG', %L, '{"messages": ["hi"]}')$$,
         tests.get_supabase_uid('ch_owner'), :'ig_official'),
  '22023', 'This Instagram account is connected through the official API, which only answers people who write first: use its automations, or choose a browser-connected account for DM campaigns',
  'an official Instagram account starts no DM campaign');
select lives_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences) values (%L, 'X API', %L, '{"messages": ["hi"]}')$$,
         tests.get_supabase_uid('ch_owner'), :'x_official'),
  'an official X account runs DM campaigns through the API');
select lives_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences) values (%L, 'IG browser', %L, '{"messages": ["hi"]}')$$,
         tests.get_supabase_uid('ch_owner'), :'ig_browser'),
  'a browser Instagram account still does');
select throws_ok(
  format($$update public.campaigns set account_id = %L where name = 'IG browser'$$, :'ig_official'),
  '22023', null, 'nor can a campaign be moved onto the official Instagram account');
select throws_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count) values (%L, 'Scrape', %L, '[{"type": "followers", "value": "a"}]', 2)$$,
         tests.get_supabase_uid('ch_owner'), :'x_official'),
  '22023', 'This account is connected through the official API, which cannot search for leads: choose a browser-connected account for scraping',
  'no official account scrapes');
select lives_ok(
  format($$insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count) values (%L, 'Scrape', %L, '[{"type": "followers", "value": "a"}]', 2)$$,
         tests.get_supabase_uid('ch_owner'), :'ig_browser'),
  'a browser account scrapes');

select * from finish();
rollback;
