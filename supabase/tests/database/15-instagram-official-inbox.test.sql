-- An official Instagram account's conversations in the inbox: every message by mid once in the
-- person's thread (found by their Instagram-scoped id); an outgoing message alone starts the
-- thread handled and the person's reply reopens it; an answer's echo is the same message; the
-- answer window (24 hours normal, 7 days with the human-agent tag, then closed) is refused at
-- queue time with its reason; only the runner records messages.
begin;
select plan(21);

select tests.create_supabase_user('igi_owner');
select tests.give_plan('igi_owner', 5);
select (public.create_instagram_official_account(tests.get_supabase_uid('igi_owner'), 'igi_studio', '17841000000000101',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as official \gset
select tests.create_social_account('igi_owner', 'igi_browser', 'instagram') as browser \gset

-- a DM from ana, delivered twice
select internal.record_instagram_message(:'official', '2000000000000001', 'ana', 'incoming', 'mid-a1', 'Hi there',
  internal.now() - interval '2 hours') ->> 'inserted' as first_insert \gset
select is(:'first_insert'::text, 'true', 'a DM is recorded');
select is(internal.record_instagram_message(:'official', '2000000000000001', 'ana', 'incoming', 'mid-a1', 'Hi there',
  internal.now() - interval '2 hours') ->> 'inserted', 'false', 'the same mid delivered again is not recorded again');
select id as ana_thread from public.inbox_threads where account_id = :'official' and peer_platform_id = '2000000000000001' \gset
select is((select count(*)::int from public.inbox_messages where thread_id = :'ana_thread'), 1, 'one message');
select results_eq(
  $$select peer_username, status, unread_count, last_message_direction, last_incoming_at = internal.now() - interval '2 hours'
      from public.inbox_threads where peer_platform_id = '2000000000000001'$$,
  $$values ('ana'::text, 'open'::text, 1, 'incoming'::text, true)$$,
  'the thread is open, unread, with the webhook''s time as the last incoming');
select is((select direction || '/' || status || '/' || origin || '/' || dedupe_key from public.inbox_messages where thread_id = :'ana_thread'),
  'incoming/received/platform/id:mid-a1', 'stored as received, keyed by its mid');

-- the username Instagram did not give (no profile yet) is the id until a message brings it
select internal.record_instagram_message(:'official', '2000000000000002', null, 'incoming', 'mid-b1', 'Mentioned you in their story', null);
select is((select peer_username from public.inbox_threads where peer_platform_id = '2000000000000002'), '2000000000000002',
  'without a username the thread shows the id');
select internal.record_instagram_message(:'official', '2000000000000002', 'ben', 'incoming', 'mid-b2', 'hello', null);
select is((select peer_username from public.inbox_threads where peer_platform_id = '2000000000000002'), 'ben',
  'and the username once it is known');

-- an automation's DM to a commenter who never wrote: a handled thread, reopened by their reply
select internal.record_instagram_message(:'official', '2000000000000003', 'cleo', 'outgoing', 'mid-c1', 'Here is the guide', null);
select results_eq(
  $$select status, unread_count, handled_at is not null, last_incoming_at is null from public.inbox_threads where peer_platform_id = '2000000000000003'$$,
  $$values ('handled'::text, 0, true, true)$$,
  'a thread only an outgoing message started is handled');
select is(internal.record_instagram_message(:'official', '2000000000000003', 'cleo', 'outgoing', 'mid-c1', 'Here is the guide', null) ->> 'inserted',
  'false', 'its echo (same mid) is the same message');
select internal.record_instagram_message(:'official', '2000000000000003', 'cleo', 'incoming', 'mid-c2', 'Thanks!', null);
select results_eq(
  $$select status, unread_count, handled_at is null from public.inbox_threads where peer_platform_id = '2000000000000003'$$,
  $$values ('open'::text, 1, true)$$,
  'the person''s reply reopens it');

select is(internal.record_instagram_message(:'browser', '2000000000000009', 'x', 'incoming', 'mid-x', 'x', null), null,
  'a browser account''s messages are not recorded this way');
select throws_ok($$select internal.record_instagram_message('00000000-0000-0000-0000-000000000000', '1', 'a', 'sideways', 'm', 't', null)$$,
  '22023', 'Direction must be incoming or outgoing', 'a direction is incoming or outgoing');

-- the window
select is(internal.instagram_answer_window(:'ana_thread'), 'standard', 'within 24 hours: a normal answer');
update public.inbox_messages set sent_at = internal.now() - interval '3 days' where thread_id = :'ana_thread';
select internal.refresh_inbox_thread(:'ana_thread');
select is(internal.instagram_answer_window(:'ana_thread'), 'human_agent', 'within 7 days: the human-agent tag');
update public.inbox_messages set sent_at = '2026-01-02 10:00+00'::timestamptz where thread_id = :'ana_thread';
select internal.refresh_inbox_thread(:'ana_thread');
select is(internal.instagram_answer_window(:'ana_thread'), 'closed', 'after 7 days: closed');

select tests.authenticate_as('igi_owner');
select throws_ok(format($$select public.queue_inbox_reply(%L, 'Still interested?')$$, :'ana_thread'),
  'PT409', '@ana last wrote on 2 Jan 2026, more than 7 days ago: Instagram allows an answer only within 7 days of the person''s last message. Nothing was sent.',
  'an answer after 7 days is refused at once, with the reason');
select throws_ok($$select internal.record_instagram_message(null, '1', 'a', 'incoming', 'm', 't', null)$$,
  '42501', null, 'a customer cannot record messages');
select tests.clear_authentication();

-- never wrote: refused with that reason
update public.inbox_messages set direction = 'outgoing', status = 'sent' where thread_id = :'ana_thread';
select internal.refresh_inbox_thread(:'ana_thread');
select tests.authenticate_as('igi_owner');
select throws_ok(format($$select public.queue_inbox_reply(%L, 'Hi')$$, :'ana_thread'),
  'PT409', '@ana has not written to @igi_studio yet: Instagram lets a business answer only people who wrote to it. Nothing was sent.',
  'an answer to someone who never wrote is refused');

-- an answer inside the window, and its echo arriving before the runner wrote down its mid
-- (both are written in this one transaction, so they share created_at: ordered by their mids)
select public.queue_inbox_reply((select id from public.inbox_threads where peer_platform_id = '2000000000000003'), 'Glad it helps') as answer \gset
select tests.clear_authentication();
select message_id from internal.claim_inbox_reply(:'official') \gset
select is(:'message_id'::uuid, :'answer'::uuid, 'the runner claims the answer');
select internal.record_instagram_message(:'official', '2000000000000003', 'cleo', 'outgoing', 'mid-c3', 'Glad it helps', null);
select internal.finish_inbox_reply(:'answer', 'sent', 'mid-c3', null, null);
select results_eq(
  $$select m.origin, m.status, m.dedupe_key from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
     where t.peer_platform_id = '2000000000000003' and m.direction = 'outgoing' order by m.dedupe_key$$,
  $$values ('platform'::text, 'sent'::text, 'id:mid-c1'::text), ('reachflow', 'sent', 'id:mid-c3')$$,
  'the echo and the answer are one message, sent');

-- a failed answer sent again after the 7 days: refused at once too
update public.inbox_messages set status = 'failed' where id = :'answer';
update public.inbox_messages set sent_at = '2026-01-02 10:00+00'::timestamptz
 where direction = 'incoming' and thread_id = (select id from public.inbox_threads where peer_platform_id = '2000000000000003');
select internal.refresh_inbox_thread(id) from public.inbox_threads where peer_platform_id = '2000000000000003';
select tests.authenticate_as('igi_owner');
select throws_ok(format($$select public.retry_inbox_reply(%L)$$, :'answer'),
  'PT409', '@cleo last wrote on 2 Jan 2026, more than 7 days ago: Instagram allows an answer only within 7 days of the person''s last message. Nothing was sent.',
  'a failed answer is not queued again once the 7 days are over');
select tests.clear_authentication();

select * from finish();
rollback;
