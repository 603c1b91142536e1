-- DM campaigns, their leads, message logs, the contact ledger and do-not-contact: validation with
-- clear errors, the send state machine, counters kept by triggers, and who may do what.
begin;
select plan(49);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.give_plan('owner', 5);
select tests.give_plan('other', 5);
select tests.create_social_account('owner', 'owner_x') as owner_account \gset
select tests.create_social_account('owner', 'owner.ig', 'instagram') as owner_ig \gset
select tests.create_social_account('other', 'other_x') as other_account \gset

-- A completed scraping campaign with three valid leads and one filtered.
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('owner'), 'Source', :'owner_account', '[{"type": "keyword", "value": "saas"}]', 100)
returning id as source \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered)
values (:'source', tests.get_supabase_uid('owner'), 'ann', '{"full_name": "Ann Lee"}', false),
       (:'source', tests.get_supabase_uid('owner'), 'ben', '{}', false),
       (:'source', tests.get_supabase_uid('owner'), 'cat', '{}', false),
       (:'source', tests.get_supabase_uid('owner'), 'dan', '{}', true);
-- Ben already heard from this customer (another campaign); Cat asked not to be contacted.
insert into public.contact_ledger (user_id, platform, target_username) values (tests.get_supabase_uid('owner'), 'twitter', 'BEN');
insert into public.do_not_contact (user_id, platform, target_username, reason) values (tests.get_supabase_uid('owner'), 'twitter', 'cat', 'Replied "stop"');

-- Creating ---------------------------------------------------------------------------------------
select tests.authenticate_as('owner');
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences)
values (auth.uid(), 'Outreach', :'owner_account', :'source',
        '{"messages": ["Hi {name}!", "", ""], "followUpEnabled": true, "followUpMessages": ["Bump", " "], "followUpDays": 2}')
returning id as campaign \gset

select results_eq(
  format($$select status, message_template, schedule, daily_message_limit, sequences -> 'noFirstnameMessage' from public.campaigns where id = %L$$, :'campaign'),
  $$values ('draft', 'Hi {name}!',
    '{"timezone": "UTC", "timeFrom": "09:00", "timeTo": "17:00", "activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday"], "randomDaysOff": true}'::jsonb,
    50, '""'::jsonb)$$,
  'a new campaign is a draft with the default schedule (09:00-17:00 Mon-Fri UTC) and limit 50; the template is the first message');
select results_eq(
  format($$select username, state, skip_reason, next_send_at is not null, profile_data ->> 'full_name' from public.campaign_leads where campaign_id = %L order by username$$, :'campaign'),
  $$values ('ann', 'pending', null, true, 'Ann Lee'), ('ben', 'skipped', 'already_contacted', false, null), ('cat', 'skipped', 'do_not_contact', false, null)$$,
  'the source''s valid leads are attached; already contacted and do-not-contact people are skipped');

select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}')$$, :'other_account'),
  '23503', 'Choose one of your social accounts for this campaign', 'another customer''s account cannot be used');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences) values (auth.uid(), 'X', %L, %L, '{"messages": ["hi"]}')$$, :'owner_ig', :'source'),
  '22023', 'The lead source must be on the same platform as the account', 'X leads cannot be messaged from Instagram');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences) values (auth.uid(), 'X', %L, '{"messages": ["", "  "]}')$$, :'owner_account'),
  '22023', 'Write at least one initial message', 'a campaign needs one non-blank message');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences) values (auth.uid(), 'X', %L, '{"messages": ["hi"], "followUpDays": 31}')$$, :'owner_account'),
  '22023', 'Follow-up days must be a whole number from 1 to 30', 'follow-up days are 1-30');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, schedule) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', '{"timezone": "Mars/Olympus"}')$$, :'owner_account'),
  '22023', 'Unknown time zone "Mars/Olympus"', 'the time zone must be a real IANA zone');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, schedule) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', '{"timeFrom": "17:00", "timeTo": "09:00"}')$$, :'owner_account'),
  '22023', 'The schedule''s end time must be later than its start time', 'the window must end after it starts');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, schedule) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', '{"timeFrom": "9:00"}')$$, :'owner_account'),
  '22023', 'Schedule times must be HH:MM (00:00-23:59)', 'times are HH:MM');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, schedule) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', '{"activeDays": ["Monday"]}')$$, :'owner_account'),
  '22023', 'Active days are lowercase weekday names, got "Monday"', 'weekdays are lowercase names');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, schedule) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', '{"activeDays": []}')$$, :'owner_account'),
  '22023', 'Choose at least one active day', 'a schedule needs an active day');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, daily_message_limit) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', 501)$$, :'owner_account'),
  '23514', null, 'the daily limit is 1-500');
select throws_ok(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, messages_sent) values (auth.uid(), 'X', %L, '{"messages": ["hi"]}', 100)$$, :'owner_account'),
  '42501', 'permission denied for table campaigns', 'counters cannot be set by the customer');
select results_eq(
  format($$insert into public.campaigns (user_id, name, account_id, sequences, run_immediately) values (auth.uid(), 'Now', %L, '{"messages": ["hi"]}', true) returning status, started_at is not null$$, :'owner_account'),
  $$values ('running', true)$$,
  'run_immediately starts the campaign at once');

-- Status ---------------------------------------------------------------------------------------
select results_eq(format($$update public.campaigns set status = 'running' where id = %L returning status, started_at is not null$$, :'campaign'),
  $$values ('running', true)$$, 'the owner launches a draft');
select results_eq(format($$update public.campaigns set status = 'paused' where id = %L returning status, paused_at is not null$$, :'campaign'),
  $$values ('paused', true)$$, 'the owner pauses it');
select throws_ok(format($$update public.campaigns set status = 'completed' where id = %L$$, :'campaign'),
  '42501', 'A campaign cannot go from paused to completed', 'completing is the system''s call');
select throws_ok(format($$update public.campaigns set status = 'draft' where id = %L$$, :'campaign'),
  '42501', 'A campaign cannot go from paused to draft', 'a launched campaign does not go back to draft');
select results_eq(format($$update public.campaigns set status = 'running' where id = %L returning status, paused_at$$, :'campaign'),
  $$values ('running', null::timestamptz)$$, 'the owner resumes it');
select throws_ok(format($$update public.campaigns set status = 'error' where id = %L$$, :'campaign'),
  '42501', 'A campaign cannot go from running to error', 'customers cannot fail a campaign');
select throws_ok(format($$update public.campaigns set scraping_campaign_id = null where id = %L$$, :'campaign'),
  '22023', 'The lead source can only change while the campaign is a draft', 'the lead source is fixed once launched');
select throws_ok(format($$update public.campaigns set response_count = 9 where id = %L$$, :'campaign'),
  '42501', 'permission denied for table campaigns', 'the owner cannot change counters');
select throws_ok($$update public.campaign_leads set state = 'sent'$$, '42501', 'permission denied for table campaign_leads',
  'the owner cannot move leads through the send states');

select tests.authenticate_as('other');
select is_empty($$select 1 from public.campaigns union all select 1 from public.campaign_leads$$,
  'another customer sees none of the campaigns or their leads');
select is_empty(format($$update public.campaigns set status = 'paused' where id = %L returning 1$$, :'campaign'),
  'another customer cannot pause the campaign');
select is_empty(format($$delete from public.campaigns where id = %L returning 1$$, :'campaign'),
  'another customer cannot delete it');

select tests.authenticate_as_anon();
select throws_ok($$select * from public.campaigns$$, '42501', 'permission denied for table campaigns', 'visitors cannot read campaigns');
select throws_ok($$select * from public.dm_logs$$, '42501', 'permission denied for table dm_logs', 'visitors cannot read message logs');

-- The runner sends -----------------------------------------------------------------------------
select tests.authenticate_as_runner();
select id as ann from public.campaign_leads where campaign_id = :'campaign' and username = 'ann' \gset
update public.campaign_leads set state = 'sending' where id = :'ann';
select results_eq(format($$select state, attempts, next_send_at from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sending', 1, null::timestamptz)$$, 'writing the intent takes the lead out of the due list');
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent)
values (:'campaign', :'ann', :'owner_account', 0, 'sent', 'ann', 'Hi Ann!');
update public.campaign_leads set state = 'sent' where id = :'ann';
select results_eq(
  format($$select state, current_step, next_send_at = last_sent_at + interval '2 days' from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sent', 1, true)$$, 'a confirmed send moves the lead to the follow-up, due followUpDays later');
select results_eq(
  format($$select messages_sent, total_attempts, messages_sent_today, sent_today_on = (now() at time zone 'UTC')::date from public.campaigns where id = %L$$, :'campaign'),
  $$values (1, 1, 1, true)$$, 'the campaign counts the send, the attempt and today''s send');
select results_eq(format($$select messages_sent_today from public.social_accounts where id = %L$$, :'owner_account'),
  $$values (1)$$, 'so does the account');
select results_eq(format($$select target_username from public.contact_ledger where campaign_id = %L$$, :'campaign'),
  $$values ('ann')$$, 'the contact ledger remembers Ann for every other campaign');
select results_eq(format($$select message_type, user_id = tests.get_supabase_uid('owner') from public.dm_logs where campaign_lead_id = %L$$, :'ann'),
  $$values ('initial', true)$$, 'the log is an initial message owned by the customer');
select throws_ok(
  format($$insert into public.dm_logs (campaign_id, campaign_lead_id, step, status, target_username) values (%L, %L, 0, 'sent', 'ann')$$, :'campaign', :'ann'),
  '23505', null, 'a lead and step are logged once: a DM is never recorded twice');

-- The follow-up may have gone out but could not be confirmed; later it is confirmed.
update public.campaign_leads set state = 'sending' where id = :'ann';
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username)
values (:'campaign', :'ann', :'owner_account', 1, 'uncertain', 'ann');
update public.campaign_leads set state = 'uncertain' where id = :'ann';
select results_eq(
  format($$select c.messages_sent, c.total_attempts, c.messages_sent_today, l.next_send_at from public.campaigns c join public.campaign_leads l on l.campaign_id = c.id where l.id = %L$$, :'ann'),
  $$values (1, 2, 2, null::timestamptz)$$,
  'an uncertain send counts against today''s caps but not as sent, and is never due again by itself');
update public.dm_logs set status = 'sent' where campaign_lead_id = :'ann' and step = 1;
update public.campaign_leads set state = 'sent' where id = :'ann';
select results_eq(
  format($$select c.messages_sent, c.messages_sent_today, l.current_step, l.next_send_at, d.message_type from public.campaigns c join public.campaign_leads l on l.campaign_id = c.id join public.dm_logs d on d.campaign_lead_id = l.id and d.step = 1 where l.id = %L$$, :'ann'),
  $$values (2, 2, 2, null::timestamptz, 'follow_up')$$,
  'confirming it counts it as sent once; with no follow-up left the lead is done');

update public.campaign_leads set replied_at = now(), reply_text = 'Sounds good' where id = :'ann';
select results_eq(format($$select response_count from public.campaigns where id = %L$$, :'campaign'), $$values (1)$$,
  'a first reply counts as a response');
update public.campaign_leads set replied_at = now() + interval '1 hour' where id = :'ann';
select results_eq(format($$select response_count from public.campaigns where id = %L$$, :'campaign'), $$values (1)$$,
  '... once');
select tests.clear_authentication();
select results_eq(
  format($$select attempts, sent, failed, uncertain, replies from public.campaign_daily_stats where campaign_id = %L$$, :'campaign'),
  $$values (2, 2, 0, 0, 1)$$,
  'the day''s figures: two attempts, both sent once the uncertain one was confirmed, one reply');
select tests.authenticate_as_runner();
select throws_ok(format($$update public.campaigns set name = 'Renamed' where id = %L$$, :'campaign'),
  '42501', 'permission denied for table campaigns', 'the runner cannot rename campaigns');
select throws_ok(format($$delete from public.campaign_leads where id = %L$$, :'ann'),
  '42501', 'permission denied for table campaign_leads', 'the runner cannot delete leads');

-- Ledger and do-not-contact ---------------------------------------------------------------------
select tests.authenticate_as('owner');
select results_eq($$select count(*)::int from public.contact_ledger$$, $$values (2)$$, 'the owner reads their contact ledger');
select throws_ok($$insert into public.contact_ledger (user_id, platform, target_username) values (auth.uid(), 'twitter', 'zed')$$,
  '42501', 'permission denied for table contact_ledger', 'only sends write the ledger');
insert into public.do_not_contact (user_id, platform, target_username) values (auth.uid(), 'twitter', 'zed');
select throws_ok($$insert into public.do_not_contact (user_id, platform, target_username) values (auth.uid(), 'twitter', 'ZED')$$,
  '23505', null, 'do-not-contact entries are unique per platform, ignoring case');
select results_eq($$select sent from public.campaign_daily_stats$$, $$values (2)$$, 'the owner reads the daily figures');
select throws_ok($$update public.campaign_daily_stats set sent = 100$$, '42501', 'permission denied for table campaign_daily_stats',
  'only the triggers write them');
select tests.authenticate_as('other');
select is_empty($$select 1 from public.do_not_contact union all select 1 from public.contact_ledger union all select 1 from public.campaign_daily_stats$$,
  'another customer cannot see the lists');
select throws_ok(
  format($$insert into public.do_not_contact (user_id, platform, target_username) values (%L, 'twitter', 'x')$$, tests.get_supabase_uid('owner')),
  '42501', 'new row violates row-level security policy for table "do_not_contact"', 'nor add to someone else''s');

select * from finish();
rollback;
