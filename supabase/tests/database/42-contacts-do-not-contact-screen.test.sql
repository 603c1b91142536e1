-- The do-not-contact screen's reads and writes, as the customer (RLS decides): adding many people
-- with one outcome each, the people added skipped at once in campaigns that still had a message
-- due for them, the list page with search and per-entry skipped counts, the overview, the opt-out
-- words with their rules, removal, and nobody else's list.
begin;
select plan(25);

select tests.create_supabase_user('dnc_owner');
select tests.create_supabase_user('dnc_other');
select tests.give_plan('dnc_owner', 5);
select tests.create_social_account('dnc_owner', 'dnc_x') as x_account \gset
select tests.create_social_account('dnc_owner', 'dnc_ig', 'instagram') as ig_account \gset

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('dnc_owner'), 'X outreach', :'x_account',
        '{"messages": ["hi"], "followUpEnabled": true, "followUpMessages": ["again"], "followUpDays": 3}', 'running')
returning id as x_campaign \gset
insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('dnc_owner'), 'IG outreach', :'ig_account', '{"messages": ["hi"]}', 'running')
returning id as ig_campaign \gset
insert into public.campaign_leads (campaign_id, username, profile_data)
values (:'x_campaign', 'zed', '{}'), (:'x_campaign', 'yan', '{}'), (:'x_campaign', 'wes', '{}'), (:'ig_campaign', 'zed', '{}');
-- yan already replied; wes got the first message and waits for a follow-up
update public.campaign_leads set replied_at = now() where campaign_id = :'x_campaign' and username = 'yan';
update public.campaign_leads set state = 'sent', last_sent_at = now() where campaign_id = :'x_campaign' and username = 'wes';

-- Adding -------------------------------------------------------------------------------------------
select tests.authenticate_as('dnc_owner');
select results_eq(
  $$select entry, platform, target_username, outcome, error from public.add_do_not_contact('[
      {"platform": "twitter", "username": "@ZED", "reason": "Asked by e-mail"},
      {"platform": "x", "username": "zed"},
      {"platform": "instagram", "username": "ana.b"},
      {"platform": "twitter", "username": "wes"},
      {"platform": "linkedin", "username": "carl"},
      {"platform": "twitter", "username": "not a name"},
      {"platform": "instagram", "username": ""},
      {"platform": "", "username": "dora"}
    ]'::jsonb)$$,
  $$values (1, 'twitter', 'ZED', 'added', null::text),
           (2, 'twitter', 'zed', 'duplicate', null),
           (3, 'instagram', 'ana.b', 'added', null),
           (4, 'twitter', 'wes', 'added', null),
           (5, 'linkedin', 'carl', 'invalid', 'Unknown platform "linkedin": use Twitter or Instagram.'),
           (6, 'twitter', 'not a name', 'invalid', '"not a name" is not an X username (1-15 letters, digits or _).'),
           (7, 'instagram', '', 'invalid', 'The username is empty.'),
           (8, '', 'dora', 'invalid', 'Choose a platform: Twitter or Instagram.')$$,
  'one outcome per entry, in order: @ dropped, x means Twitter, repeats merged, bad rows said and skipped');
select results_eq(
  $$select entry, outcome from public.add_do_not_contact('[{"platform": "twitter", "username": "zed"}, {"platform": "twitter", "username": "vic"}]')$$,
  $$values (1, 'already'), (2, 'added')$$, 'someone already on the list is "already", the others are added');
select results_eq(
  $$select platform, target_username, reason from public.do_not_contact order by lower(target_username)$$,
  $$values ('instagram', 'ana.b', 'manual'), ('twitter', 'vic', 'manual'), ('twitter', 'wes', 'manual'), ('twitter', 'ZED', 'Asked by e-mail')$$,
  'only the valid, first occurrences were stored, with their note');
select throws_ok(
  $$select * from public.add_do_not_contact('{"platform": "twitter"}')$$, '22023',
  'Entries must be a list of {platform, username}.', 'a body that is not a list is refused with a reason');

-- Campaigns skip them at once ------------------------------------------------------------------------
select tests.clear_authentication();
select results_eq(
  format($$select username, state, skip_reason, next_send_at is null from public.campaign_leads where campaign_id = %L order by username$$, :'x_campaign'),
  $$values ('wes', 'skipped', 'do_not_contact', true), ('yan', 'pending', null::text, true), ('zed', 'skipped', 'do_not_contact', true)$$,
  'the X campaign skips zed (first message due) and wes (follow-up due); yan, who replied, is left alone');
select results_eq(
  format($$select state from public.campaign_leads where campaign_id = %L$$, :'ig_campaign'),
  $$values ('pending')$$, 'zed on Instagram is another person: still pending');

-- The screen's reads ---------------------------------------------------------------------------------
select tests.authenticate_as('dnc_owner');
select results_eq(
  $$select target_username, skipped_leads, total from public.do_not_contact_entries()$$,
  $$values ('ana.b', 0::bigint, 4::bigint), ('vic', 0::bigint, 4::bigint), ('wes', 1::bigint, 4::bigint), ('ZED', 1::bigint, 4::bigint)$$,
  'the list, newest first (added together: by username), each entry with the leads it skipped');
select results_eq(
  $$select target_username from public.do_not_contact_entries('@ze')$$, $$values ('ZED')$$,
  'search finds a username (a leading @ is ignored)');
select results_eq(
  $$select target_username from public.do_not_contact_entries('e-mail')$$, $$values ('ZED')$$,
  'search finds a note');
select results_eq(
  $$select target_username from public.do_not_contact_entries(null, 'instagram')$$, $$values ('ana.b')$$,
  'filter by platform');
select results_eq(
  $$select count(*)::int from public.do_not_contact_entries('%')$$, $$values (0)$$,
  'a % in the search is a character, not a wildcard');
select results_eq(
  $$select target_username, total from public.do_not_contact_entries(null, null, 1, 1)$$,
  $$values ('vic', 4::bigint)$$, 'paged with limit and offset, the total still counts all matches');
select results_eq(
  $$select public.do_not_contact_overview()$$,
  $$values ('{"entries": 4, "skippedLeads": 2, "words": {"anywhere": ["unsubscribe"], "atStart": ["stop"], "custom": false}}'::jsonb)$$,
  'the overview: people, leads skipped because of the list, and the default words');

-- Opt-out words ------------------------------------------------------------------------------------
select results_eq(
  $$select public.set_opt_out_words(array['  Remove   Me ', 'remove me', 'not interested'], array['STOP'])$$,
  $$values ('{"anywhere": ["remove me", "not interested"], "atStart": ["stop"], "custom": true}'::jsonb)$$,
  'words are stored trimmed, in lower case, once each, in the order given');
select lives_ok($$select public.set_opt_out_words(array['remove me', 'not interested'], array['stop'])$$,
  'saving again replaces them');
select throws_ok(
  $$update public.opt_out_settings set anywhere = array['stop!!']$$, '22023',
  '"stop!!" can only hold letters, digits, spaces, '' and -.', 'punctuation is refused with the reason');
select throws_ok(
  $$select public.set_opt_out_words('{}', '{}')$$, '22023',
  'Keep at least one opt-out word: people must always be able to say stop.', 'the last word cannot go');
select throws_ok(
  format($$update public.opt_out_settings set anywhere = array[%L]$$, repeat('a', 41)), '22023',
  '"aaaaaaaaaaaaaaaaaaaa…" is too long: at most 40 characters.', 'nor can a word over 40 characters');
select throws_ok(
  $$update public.opt_out_settings set anywhere = (select array_agg('w' || g) from generate_series(1, 21) g)$$, '22023',
  'Each list holds at most 20 words.', 'nor more than 20 words in a list');
select results_eq(
  $$select public.do_not_contact_overview() -> 'words'$$,
  $$values ('{"anywhere": ["remove me", "not interested"], "atStart": ["stop"], "custom": true}'::jsonb)$$,
  'the overview shows the customer''s own words');

-- Removing ----------------------------------------------------------------------------------------
delete from public.do_not_contact where target_username = 'ZED';
select results_eq($$select count(*)::int from public.do_not_contact$$, $$values (3)$$, 'an entry can be removed');
select tests.clear_authentication();
select results_eq(
  format($$select state from public.campaign_leads where campaign_id = %L and username = 'zed'$$, :'x_campaign'),
  $$values ('skipped')$$, 'a lead already skipped stays skipped after the removal');

-- Nobody else's list -------------------------------------------------------------------------------
select tests.authenticate_as('dnc_other');
select results_eq(
  $$select (select count(*)::int from public.do_not_contact_entries()), (select count(*)::int from public.opt_out_settings),
           public.do_not_contact_overview() -> 'entries'$$,
  $$values (0, 0, '0'::jsonb)$$, 'another customer sees none of it');
delete from public.do_not_contact;
select public.add_do_not_contact('[{"platform": "twitter", "username": "vic"}]');
select tests.clear_authentication();
select results_eq(
  $$select count(*)::int from public.do_not_contact where user_id = tests.get_supabase_uid('dnc_owner')$$,
  $$values (3)$$, '... cannot remove it, and adding the same person goes to their own list');

select tests.authenticate_as_runner();
select results_eq(
  format($$select anywhere from public.opt_out_settings where user_id = %L$$, tests.get_supabase_uid('dnc_owner')),
  $$values (array['remove me', 'not interested'])$$, 'the runner reads the words it judges replies with');

select * from finish();
rollback;
