-- An automation's follow-up: the table's checks mirror Instagram's rules (text as the reply, a delay
-- of 1 minute to 23 h 59 min, both or neither, never on a comment trigger); a sent DM schedules one
-- follow-up per run with its job started after the delay; the runner's claim sends at most once,
-- only when due, and skips, refuses or cancels with the reason in words; the minute's sweep queues
-- lost jobs and gives up on a send that never finished; the owner reads the results, nobody else.
begin;
select plan(39);

select tests.create_supabase_user('fu_owner');
select tests.create_supabase_user('fu_other');
select tests.give_plan('fu_owner', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('fu_owner'), 'fu_official', '17841000000000021',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as official \gset
select tests.freeze_time('2026-12-03 10:00:00+00');

-- Checks -------------------------------------------------------------------------------------------

select tests.authenticate_as('fu_owner');
prepare add_automation(text, text[], text, integer) as
  insert into public.instagram_automations (account_id, name, trigger, keywords, reply_text, followup_text, followup_delay_minutes)
  values ((select id from public.social_accounts where username = 'fu_official'), 'A', $1, $2, 'Here it is', $3, $4);
select lives_ok($$execute add_automation('dm_keyword', '{price}', 'Still interested?', 60)$$, 'a DM keyword automation with a follow-up after an hour');
select lives_ok($$execute add_automation('story_reply', '{}', 'Anything else?', 1439)$$, 'a story reply one, 23 h 59 min after');
select lives_ok($$execute add_automation('story_mention', '{}', 'Thanks again!', 1)$$, 'a story mention one, a minute after');
select lives_ok($$execute add_automation('dm_keyword', '{x}', null, null)$$, 'no follow-up at all');
select throws_ok($$execute add_automation('comment_keyword', '{guide}', 'Still interested?', 60)$$, '23514', null,
  'a comment keyword automation has no follow-up: a comment opens no 24-hour window');
select throws_ok($$execute add_automation('dm_keyword', '{price}', 'Still interested?', null)$$, '23514', null, 'a text needs a delay');
select throws_ok($$execute add_automation('dm_keyword', '{price}', null, 60)$$, '23514', null, 'a delay needs a text');
select throws_ok($$execute add_automation('dm_keyword', '{price}', 'Hi', 0)$$, '23514', null, 'a delay of at least a minute');
select throws_ok($$execute add_automation('dm_keyword', '{price}', 'Hi', 1440)$$, '23514', null, 'a delay of 24 hours is too late for the window');
select throws_ok($$execute add_automation('dm_keyword', '{price}', '', 60)$$, '23514', null, 'an empty text');
select throws_ok(format($$execute add_automation('dm_keyword', '{price}', %L, 60)$$, repeat('é', 501)), '23514', null,
  'at most 1,000 bytes, as the reply (501 two-byte letters are 1,002)');
select tests.clear_authentication();

select id as price from public.instagram_automations where followup_delay_minutes = 60 \gset
select id as plain from public.instagram_automations where followup_text is null \gset

-- what the people wrote: p1 the keyword at 09:59, p2 at 09:59 and again at 10:30
insert into internal.instagram_webhook_events (event_key, instagram_account_id, field, kind, occurred_at, payload) values
  ('message:f1', '17841000000000021', 'messages', 'message', '2026-12-03 09:59:00+00', '{"sender": {"id": "p1"}, "message": {"text": "price?"}}'),
  ('message:f2', '17841000000000021', 'messages', 'message', '2026-12-03 09:59:00+00', '{"sender": {"id": "p2"}, "message": {"text": "price?"}}'),
  ('message:f3', '17841000000000021', 'messages', 'message', '2026-12-03 10:30:00+00', '{"sender": {"id": "p2"}, "message": {"text": "thanks, ordering"}}'),
  -- the account's own echo to p1 is not p1 answering
  ('message:f4', '17841000000000021', 'messages', 'echo', '2026-12-03 10:20:00+00', '{"sender": {"id": "17841000000000021"}, "recipient": {"id": "p1"}, "message": {"text": "x"}}');
insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, status) values
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:f1', 'p1', 'sent'),
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:f2', 'p2', 'sent'),
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:f9', 'p9', 'refused'),
  (:'plain', tests.get_supabase_uid('fu_owner'), :'official', 'message:f8', 'p8', 'sent');
select id as run1 from public.instagram_automation_runs where trigger_key = 'message:f1' \gset
select id as run2 from public.instagram_automation_runs where trigger_key = 'message:f2' \gset
select id as run9 from public.instagram_automation_runs where trigger_key = 'message:f9' \gset
select id as run8 from public.instagram_automation_runs where trigger_key = 'message:f8' \gset

-- Scheduling ---------------------------------------------------------------------------------------

select tests.authenticate_as_runner();
select internal.schedule_instagram_followup(:'run1') as fu1 \gset
select internal.schedule_instagram_followup(:'run2') as fu2 \gset
select isnt(:'fu1'::uuid, null::uuid, 'a sent DM of an automation with a follow-up schedules it');
select is(internal.schedule_instagram_followup(:'run1'), null, 'once per run, however often it is asked');
select is(internal.schedule_instagram_followup(:'run9'), null, 'a refused DM has no follow-up');
select is(internal.schedule_instagram_followup(:'run8'), null, 'an automation without a follow-up has none');
select tests.clear_authentication();
select results_eq(
  format($$select f.due_at, j.name, j.start_after - now() from public.instagram_automation_followups f join pgboss.job j on j.id = f.job_id where f.id = %L$$, :'fu1'),
  $$values ('2026-12-03 11:00:00+00'::timestamptz, 'instagram.followup'::text, interval '1 hour')$$,
  'due an hour after the DM, its job started an hour from now');

-- Claiming -----------------------------------------------------------------------------------------

select tests.authenticate_as_runner();
select is((select action from internal.begin_instagram_followup(:'fu1')), 'early', 'not before it is due');
select tests.clear_authentication();
select is((select status from public.instagram_automation_followups where id = :'fu1'), 'scheduled', 'and still scheduled');

select tests.freeze_time('2026-12-03 11:00:30+00');
select tests.authenticate_as_runner();
select results_eq(format($$select action, followup_text, person_id, account_id from internal.begin_instagram_followup(%L)$$, :'fu1'),
  format($$values ('send'::text, 'Still interested?'::text, 'p1'::text, %L::uuid)$$, :'official'),
  'due, p1 did not answer (an echo is the account): sent to p1 with the text');
select is((select action from internal.begin_instagram_followup(:'fu1')), 'done', 'a second job claims nothing');
select lives_ok(format($$select internal.finish_instagram_followup(%L, 'sent', null, 'mid.1')$$, :'fu1'), 'recorded sent');
select lives_ok(format($$select internal.finish_instagram_followup(%L, 'failed', 'late', null)$$, :'fu1'), 'a late second finish');
select results_eq(
  format($$select action, followup_text from internal.begin_instagram_followup(%L)$$, :'fu2'),
  $$values ('skipped'::text, null::text)$$, 'p2 answered after the DM: skipped');
select tests.clear_authentication();
select results_eq(
  format($$select status, reason, message_id from public.instagram_automation_followups where id in (%L, %L) order by person_id$$, :'fu1', :'fu2'),
  $$values ('sent'::text, null::text, 'mid.1'::text), ('skipped', 'They answered before the follow-up was due.', null)$$,
  'sent once (the late finish changed nothing), skipped with the reason');

-- past the window, paused, the account not working
select tests.freeze_time('2026-12-03 10:00:00+00');
insert into internal.instagram_webhook_events (event_key, instagram_account_id, field, kind, occurred_at, payload) values
  ('message:g1', '17841000000000021', 'messages', 'message', '2026-12-02 10:30:00+00', '{"sender": {"id": "q1"}, "message": {"text": "price"}}'),
  ('message:g2', '17841000000000021', 'messages', 'message', '2026-12-03 09:59:00+00', '{"sender": {"id": "q2"}, "message": {"text": "price"}}'),
  ('message:g3', '17841000000000021', 'messages', 'message', '2026-12-03 09:59:00+00', '{"sender": {"id": "q3"}, "message": {"text": "price"}}');
insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, status) values
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:g1', 'q1', 'sent'),
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:g2', 'q2', 'sent'),
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:g3', 'q3', 'sent');
select internal.schedule_instagram_followup(id) as gq1 from public.instagram_automation_runs where trigger_key = 'message:g1' \gset
select internal.schedule_instagram_followup(id) as gq2 from public.instagram_automation_runs where trigger_key = 'message:g2' \gset
select internal.schedule_instagram_followup(id) as gq3 from public.instagram_automation_runs where trigger_key = 'message:g3' \gset
select tests.freeze_time('2026-12-03 11:01:00+00');
select is((select action from internal.begin_instagram_followup(:'gq1')), 'refused', 'q1 last wrote 24.5 hours ago: refused');
select is((select reason from public.instagram_automation_followups where id = :'gq1'),
  'Their last message is more than 24 hours old: Instagram allows a message only within 24 hours of it, so the follow-up was not sent.',
  'with the reason in words');
update public.instagram_automations set enabled = false where id = :'price';
select is((select action from internal.begin_instagram_followup(:'gq2')), 'cancelled', 'the automation was paused: nothing is sent');
update public.instagram_automations set enabled = true where id = :'price';
update public.social_accounts set status = 'error' where id = :'official';
select is((select action from internal.begin_instagram_followup(:'gq3')), 'cancelled', 'the account is not working: nothing is sent');
update public.social_accounts set status = 'active' where id = :'official';
select is((select reason from public.instagram_automation_followups where id = :'gq3'),
  'The Instagram account was not connected when the follow-up was due.', 'said so');

-- The minute's sweep -------------------------------------------------------------------------------

insert into internal.instagram_webhook_events (event_key, instagram_account_id, field, kind, occurred_at, payload) values
  ('message:h1', '17841000000000021', 'messages', 'message', '2026-12-03 11:00:00+00', '{"sender": {"id": "r1"}, "message": {"text": "price"}}');
insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, status) values
  (:'price', tests.get_supabase_uid('fu_owner'), :'official', 'message:h1', 'r1', 'sent');
select internal.schedule_instagram_followup(id) as hr1 from public.instagram_automation_runs where trigger_key = 'message:h1' \gset
select is(internal.enqueue_due_instagram_followups(), 0, 'nothing overdue: its own job will start it');
-- the test clock moves 90 minutes on; its job would start only an hour from now on the real clock
select tests.freeze_time('2026-12-03 12:31:00+00');
select is(internal.enqueue_due_instagram_followups(), 1, 'overdue: its job is queued now');
select is((select count(*)::int from pgboss.job j where j.name = 'instagram.followup' and j.data ->> 'followupId' = :'hr1' and j.start_after <= now()),
  1, 'to start at once');
select is(internal.enqueue_due_instagram_followups(), 0, 'not twice while it waits');
update public.instagram_automation_followups set status = 'sending', updated_at = now() - interval '16 minutes' where id = :'hr1';
select internal.enqueue_due_instagram_followups();
select results_eq(format($$select status, reason from public.instagram_automation_followups where id = %L$$, :'hr1'),
  $$values ('failed'::text, 'The runner stopped while sending the follow-up: whether Instagram delivered it is unknown.'::text)$$,
  'a send that never finished is failed, not sent again');

-- Results and access -------------------------------------------------------------------------------

select tests.authenticate_as('fu_owner');
select results_eq(
  format($$select waiting, sent, skipped, not_sent from public.instagram_followup_results() where automation_id = %L$$, :'price'),
  $$values (0, 1, 1, 4)$$, 'the owner reads sent 1, skipped 1, not sent 4');
select ok(
  (select reasons @> '[{"reason": "The automation was paused before the follow-up was due.", "count": 1}]'::jsonb
          and jsonb_array_length(reasons) = 4
     from public.instagram_followup_results() where automation_id = :'price'),
  'with the reasons');
select throws_ok(format($$update public.instagram_automation_followups set status = 'scheduled' where id = %L$$, :'hr1'), '42501', null,
  'a customer cannot change a follow-up');
select throws_ok(format($$select * from internal.begin_instagram_followup(%L)$$, :'fu1'), '42501', null,
  'nor claim one');
select tests.authenticate_as('fu_other');
select is((select count(*)::int from public.instagram_followup_results()) + (select count(*)::int from public.instagram_automation_followups),
  0, 'another customer reads none of them');
select tests.clear_authentication();

select * from finish();
rollback;
