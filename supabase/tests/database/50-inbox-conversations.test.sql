-- Conversations inbox: the runner stores threads idempotently, read markers of the
-- platform are honoured only when the runner had not opened the thread itself, customers see and
-- change only their own threads, answers are queued as an inbox.sync job and claimed once, and
-- "Check now" is limited to once a minute per account.
begin;
select plan(38);

select tests.create_supabase_user('inbox_owner');
select tests.create_supabase_user('inbox_other');
select tests.give_plan('inbox_owner', 5);
select tests.create_social_account('inbox_owner', 'owner_x') as account \gset
select tests.freeze_time('2026-11-26 10:00:00+00');

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('inbox_owner'), 'Founders', :'account', '{"messages": ["hi"]}', 'running')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, username, profile_data)
values (:'campaign', 'keen_lead', '{}'), (:'campaign', 'read_lead', '{}') ;
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at)
select :'campaign', l.id, :'account', 0, 'sent', l.username, 'hi', '2026-11-26 09:00:00+00'
  from public.campaign_leads l where l.campaign_id = :'campaign';

select tests.authenticate_as_runner();

-- a stranger Reachflow never wrote to is not kept
select is(internal.record_inbox_thread(:'account', 'stranger', null, 't-stranger', true, true,
  '[{"id": "s1", "text": "Hi there", "direction": "incoming", "at": "2026-11-26T09:30:00Z"}]'), null,
  'a conversation with someone Reachflow never messaged is not stored');

select is(internal.record_inbox_thread(:'account', '@keen_lead', '42', 't-keen', true, true,
  '[{"id": "m1", "text": "hi", "direction": "outgoing", "at": "2026-11-26T09:00:00Z"},
    {"id": "m2", "text": "Tell me more", "direction": "incoming", "at": "2026-11-26T09:30:00Z"}]') ->> 'inserted', '2',
  'the whole thread of a lead who replied is stored, both directions');
select is(internal.record_inbox_thread(:'account', 'keen_lead', '42', 't-keen', false, true,
  '[{"id": "m1", "text": "hi", "direction": "outgoing", "at": "2026-11-26T09:00:00Z"},
    {"id": "m2", "text": "Tell me more", "direction": "incoming", "at": "2026-11-26T09:30:00Z"}]') ->> 'inserted', '0',
  'the same thread synced again adds nothing');
select results_eq(
  $$select count(*)::int, sum(unread_count)::int from public.inbox_threads$$,
  $$values (1, 1)$$,
  'one thread, its reply unread (the platform marker read after our own opening says nothing)');

-- a message without a platform id is de-duplicated by its content
select is(internal.record_inbox_thread(:'account', 'keen_lead', '42', 't-keen', true, true,
  '[{"id": "", "text": "Are you there?", "direction": "incoming", "at": "2026-11-26T09:40:00Z"},
    {"id": "", "text": "Are you there?", "direction": "incoming", "at": "2026-11-26T09:40:00Z"}]') ->> 'inserted', '1',
  'id-less messages are de-duplicated by a stable hash');

-- read on the platform before the runner ever opened it: not unread here
select tests.clear_authentication();
select tests.freeze_time('2026-11-26 10:05:00+00');
select tests.authenticate_as_runner();
select is(internal.record_inbox_thread(:'account', 'read_lead', '43', 't-read', false, true,
  '[{"id": "r1", "text": "Saw it, thanks", "direction": "incoming", "at": "2026-11-26T10:01:00Z"}]') ->> 'new_incoming', '1',
  'a reply the customer already read on X is stored');
select results_eq(
  $$select unread_count, status from public.inbox_threads where peer_username = 'read_lead'$$,
  $$values (0, 'open')$$,
  'a reply read on the platform first is not counted unread');
select results_eq(
  $$select read_on_platform from public.inbox_messages where platform_message_id = 'r1'$$,
  $$values (true)$$, 'and says it was read on the platform');

-- later the keen lead writes again and the customer reads it on Instagram/X before the next sync opens it
select tests.clear_authentication();
select tests.freeze_time('2026-11-26 10:20:00+00');
select tests.authenticate_as_runner();
select ok(internal.record_inbox_thread(:'account', 'keen_lead', '42', 't-keen', true, false,
  '[{"id": "m3", "text": "Price?", "direction": "incoming", "at": "2026-11-26T10:15:00Z"}]') is not null,
  'a reply read without opening the thread (Instagram API) is stored unread');
select is(internal.apply_platform_read_markers(:'account', array['t-keen']), 1,
  'the platform then listing it read marks only the reply that came after the runner last opened it');
select results_eq($$select unread_count from public.inbox_threads where peer_username = 'keen_lead'$$,
  $$values (2)$$, 'replies the runner had opened itself stay unread');

-- the customer's view
select tests.authenticate_as('inbox_other');
select is_empty($$select 1 from public.inbox_threads$$, 'another customer sees no threads');
select is_empty($$select 1 from public.inbox_messages$$, 'nor their messages');
select throws_ok(
  format($$select public.queue_inbox_reply(%L, 'hello')$$,
         (select id from public.inbox_threads where peer_username = 'keen_lead')),
  'PT404', 'Conversation not found', 'nor can answer in them');

select tests.authenticate_as('inbox_owner');
select results_eq(
  $$select peer_username, unread_count, (select name from public.campaigns c where c.id = t.campaign_id)
      from public.inbox_threads t order by last_message_at desc$$,
  $$values ('keen_lead', 2, 'Founders'), ('read_lead', 0, 'Founders')$$,
  'the owner sees their threads newest first with the campaign');
select is((public.inbox_overview() ->> 'unread')::int, 1, 'the tab badge counts conversations with unread replies');
select throws_ok($$insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, status, dedupe_key)
  select id, user_id, account_id, 'incoming', 'forged', 'received', 'x' from public.inbox_threads limit 1$$,
  '42501', null, 'customers cannot write messages directly');
select throws_ok($$update public.inbox_threads set unread_count = 0$$, '42501', null,
  'nor change thread figures directly');

select lives_ok(format($$select public.mark_inbox_thread_read(%L)$$,
  (select id from public.inbox_threads where peer_username = 'keen_lead')), 'opening the thread');
select results_eq($$select unread_count from public.inbox_threads where peer_username = 'keen_lead'$$,
  $$values (0)$$, 'marks its replies read');
select lives_ok(format($$select public.set_inbox_thread_status(%L, 'handled')$$,
  (select id from public.inbox_threads where peer_username = 'keen_lead')), 'mark handled');

select throws_ok(format($$select public.queue_inbox_reply(%L, '   ')$$,
  (select id from public.inbox_threads where peer_username = 'keen_lead')),
  '22023', 'Write a message first.', 'an empty answer is refused with a reason');
select ok(public.queue_inbox_reply((select id from public.inbox_threads where peer_username = 'keen_lead'),
  ' Happy to share pricing ') is not null, 'an answer is queued');
select is((public.request_inbox_check(:'account') ->> 'queued')::int, 1, '"Check now" queues a sync');
select throws_ok(format($$select public.request_inbox_check(%L)$$, :'account'), 'PT429',
  'Checked less than a minute ago. Try again in 60 s.', 'a second "Check now" within the minute says when to retry');

-- the runner claims the answer once, and the job waits for it
select tests.clear_authentication();
select results_eq(
  $$select count(*)::int from pgboss.job where name = 'inbox.sync' and data ->> 'accountId' = $$ || quote_literal(:'account') || $$ and state = 'created'$$,
  $$values (1)$$, 'one inbox.sync job waits for the account (singleton)');
select tests.authenticate_as_runner();
select results_eq(
  format($$select body, platform_thread_id from internal.claim_inbox_reply(%L)$$, :'account'),
  $$values ('Happy to share pricing', 't-keen')$$, 'the runner claims the queued answer, trimmed');
select is_empty(format($$select 1 from internal.claim_inbox_reply(%L)$$, :'account'),
  'and it cannot be claimed twice');

-- what came of it: a sent answer counts as today's message of the account
select lives_ok(format($$select internal.finish_inbox_reply(
  (select id from public.inbox_messages where body = 'Happy to share pricing'), 'sent', 'p-1', 't-keen')$$),
  'the runner records the answer sent');
select tests.clear_authentication();
select results_eq($$select status, platform_message_id, dedupe_key from public.inbox_messages where body = 'Happy to share pricing'$$,
  $$values ('sent', 'p-1', 'id:p-1')$$, 'with the platform id, so the next sync knows it');
select results_eq($$select messages_sent_today from public.social_accounts where username = 'owner_x'$$,
  $$values (3)$$, 'an answer counts against the account''s daily cap, as the two campaign DMs did');

-- a refused answer fails with the reason; only a failed one may be sent again, by its owner
select tests.authenticate_as('inbox_owner');
select ok(public.queue_inbox_reply((select id from public.inbox_threads where peer_username = 'keen_lead'), 'Second try') is not null,
  'another answer is queued');
select tests.authenticate_as_runner();
select is(internal.fail_queued_inbox_replies(:'account', '@owner_x has reached today''s limit of 1 messages.'), 1,
  'queued answers the account cannot send fail with the reason');
select tests.authenticate_as('inbox_other');
select throws_ok(format($$select public.retry_inbox_reply(%L)$$, (select id from public.inbox_messages where body = 'Second try')),
  'PT404', 'Message not found', 'another customer cannot resend it');
select tests.authenticate_as('inbox_owner');
select throws_ok(format($$select public.retry_inbox_reply(%L)$$, (select id from public.inbox_messages where body = 'Happy to share pricing')),
  'PT409', 'Only a failed message can be sent again.', 'a sent answer is never sent again');
select lives_ok(format($$select public.retry_inbox_reply(%L)$$, (select id from public.inbox_messages where body = 'Second try')),
  'the owner queues the failed one again');

-- a new reply reopens a handled conversation
select tests.authenticate_as_runner();
select is(internal.record_inbox_thread(:'account', 'keen_lead', '42', 't-keen', true, true,
  '[{"id": "m9", "text": "Any update?", "direction": "incoming", "at": "2026-11-26T10:30:00Z"}]') ->> 'new_incoming', '1',
  'a later reply arrives');
select results_eq($$select status, unread_count from public.inbox_threads where peer_username = 'keen_lead'$$,
  $$values ('open', 1)$$, 'and reopens the handled conversation, unread');

select * from finish();
rollback;
