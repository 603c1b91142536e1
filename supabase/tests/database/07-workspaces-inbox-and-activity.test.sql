-- Workspaces, part 3: a conversation is assigned only to a member who may use the inbox, and only
-- by one; leaving or becoming a viewer unassigns; internal notes are read and added by the inbox
-- roles, changed only by their author, never readable by the runner; the activity log is written by
-- triggers on every path with the right actor (the caller, or null = Reachflow), read by owners and
-- admins only, written by nobody else.
begin;
select plan(44);

select tests.create_supabase_user('wa_owner');
select tests.create_supabase_user('wa_admin');
select tests.create_supabase_user('wa_editor');
select tests.create_supabase_user('wa_agent');
select tests.create_supabase_user('wa_viewer');
select tests.create_supabase_user('wa_out');
select tests.give_plan('wa_owner', 5);
select tests.freeze_time('2026-11-28 09:00:00+00');

select tests.get_supabase_uid('wa_owner') as ws \gset
insert into public.workspace_members (workspace_id, user_id, role)
select :'ws', tests.get_supabase_uid('wa_' || r), r::public.workspace_role
  from unnest(array['admin', 'editor', 'agent', 'viewer']) r;
update public.user_profiles set active_workspace_id = :'ws'
 where id in (select user_id from public.workspace_members where workspace_id = :'ws');

select tests.create_social_account('wa_owner', 'wa_x') as account \gset
insert into public.inbox_threads (user_id, account_id, peer_username, last_message_at)
values (tests.get_supabase_uid('wa_owner'), :'account', 'keen_lead', internal.now())
returning id as thread \gset

-- Assignment -------------------------------------------------------------------------------------

select tests.authenticate_as('wa_agent');
select lives_ok(format('select public.assign_thread(%L, %L)', :'thread', tests.get_supabase_uid('wa_agent')),
  'an agent assigns a conversation to themselves');
select tests.authenticate_as('wa_editor');
select lives_ok(format('select public.assign_thread(%L, %L)', :'thread', tests.get_supabase_uid('wa_admin')),
  'an editor assigns it to an admin');
select throws_ok(format('select public.assign_thread(%L, %L)', :'thread', tests.get_supabase_uid('wa_out')),
  '22023', 'That person is not a member of this workspace.', 'a non-member cannot be assigned');
select throws_ok(format('select public.assign_thread(%L, %L)', :'thread', tests.get_supabase_uid('wa_viewer')),
  '22023', 'A viewer cannot use the inbox. Change their role first.', 'a viewer cannot be assigned');
select tests.authenticate_as('wa_viewer');
select throws_ok(format('select public.assign_thread(%L, null)', :'thread'),
  '42501', 'Your role in this workspace does not allow this.', 'a viewer cannot assign');
select tests.authenticate_as('wa_out');
select throws_ok(format('select public.assign_thread(%L, null)', :'thread'),
  'PT404', 'Conversation not found', 'someone from another workspace does not even find the conversation');
select tests.clear_authentication();
select is((select assigned_to from public.inbox_threads where id = :'thread'), tests.get_supabase_uid('wa_admin'),
  'refused calls changed nothing');

select tests.authenticate_as('wa_owner');
select lives_ok(format('select public.assign_thread(%L, null)', :'thread'), 'the owner unassigns it');
select tests.clear_authentication();
select is((select assigned_to from public.inbox_threads where id = :'thread'), null, 'unassigned');

select tests.authenticate_as('wa_owner');
select public.assign_thread(:'thread', tests.get_supabase_uid('wa_agent'));
select tests.clear_authentication();
update public.workspace_members set role = 'viewer' where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wa_agent');
select is((select assigned_to from public.inbox_threads where id = :'thread'), null,
  'an assignee who becomes a viewer no longer holds the conversation');
update public.workspace_members set role = 'agent' where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wa_agent');

select tests.authenticate_as('wa_owner');
select public.assign_thread(:'thread', tests.get_supabase_uid('wa_editor'));
select tests.clear_authentication();
delete from public.workspace_members where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wa_editor');
select is((select assigned_to from public.inbox_threads where id = :'thread'), null,
  'removing a member unassigns their conversations');
insert into public.workspace_members (workspace_id, user_id, role) values (:'ws', tests.get_supabase_uid('wa_editor'), 'editor');
-- Removal forgot the workspace the editor worked in; joining again switches them back, as accepting an invitation does.
update public.user_profiles set active_workspace_id = :'ws' where id = tests.get_supabase_uid('wa_editor');

select bag_eq(
  format($$select actor_label, subject_label, details ->> 'assigned_to' as assigned_to from public.workspace_activity
     where workspace_id = %L and action = 'inbox.assigned'$$, :'ws'),
  $$values ('wa_agent@test.reachflow.test', '@keen_lead', 'wa_agent@test.reachflow.test'),
           ('wa_editor@test.reachflow.test', '@keen_lead', 'wa_admin@test.reachflow.test'),
           ('wa_owner@test.reachflow.test', '@keen_lead', null),
           ('wa_owner@test.reachflow.test', '@keen_lead', 'wa_agent@test.reachflow.test'),
           (null, '@keen_lead', null),
           ('wa_owner@test.reachflow.test', '@keen_lead', 'wa_editor@test.reachflow.test'),
           (null, '@keen_lead', null)$$,
  'every assignment is logged with who did it (Reachflow when a member''s change unassigned it)');

-- Internal notes ---------------------------------------------------------------------------------

select tests.authenticate_as('wa_agent');
insert into public.inbox_thread_notes (thread_id, body) values (:'thread', '  Agent: wants the robot arm demo  ');
select tests.authenticate_as('wa_editor');
insert into public.inbox_thread_notes (thread_id, body) values (:'thread', 'Editor: price sent last week');
select tests.authenticate_as('wa_admin');
insert into public.inbox_thread_notes (thread_id, body) values (:'thread', 'Admin note');
select tests.authenticate_as('wa_owner');
insert into public.inbox_thread_notes (thread_id, body) values (:'thread', 'Owner note');
select tests.clear_authentication();
select results_eq(
  $$select n.body, n.workspace_id, u.raw_user_meta_data ->> 'test_identifier'
      from public.inbox_thread_notes n join auth.users u on u.id = n.author_id order by n.body$$,
  format($$values ('Admin note', %1$L::uuid, 'wa_admin'), ('Agent: wants the robot arm demo', %1$L, 'wa_agent'),
                  ('Editor: price sent last week', %1$L, 'wa_editor'), ('Owner note', %1$L, 'wa_owner')$$, :'ws'),
  'every inbox role adds notes: trimmed, in the thread''s workspace, by the caller');

select tests.authenticate_as('wa_viewer');
select throws_ok(format($$insert into public.inbox_thread_notes (thread_id, body) values (%L, 'Viewer note')$$, :'thread'),
  '42501', 'new row violates row-level security policy for table "inbox_thread_notes"', 'a viewer cannot add a note');
select is((select count(*)::int from public.inbox_thread_notes), 0, 'a viewer reads no notes');
select tests.authenticate_as('wa_out');
select throws_ok(format($$insert into public.inbox_thread_notes (thread_id, body) values (%L, 'Outsider')$$, :'thread'),
  '42501', 'new row violates row-level security policy for table "inbox_thread_notes"',
  'someone of another workspace cannot add a note to its conversation');
select is((select count(*)::int from public.inbox_thread_notes), 0, 'nor read its notes');

select tests.authenticate_as('wa_agent');
select is((select count(*)::int from public.inbox_thread_notes), 4, 'an agent reads the team''s notes');
select throws_ok(format($$insert into public.inbox_thread_notes (thread_id, workspace_id, body) values (%L, %L, 'x')$$,
  :'thread', tests.get_supabase_uid('wa_out')), '42501', 'permission denied for table inbox_thread_notes',
  'the workspace is never the client''s to choose');
select throws_ok(format($$insert into public.inbox_thread_notes (thread_id, body) values (%L, '   ')$$, :'thread'),
  '23514', null, 'a blank note is refused');
select throws_ok(format($$insert into public.inbox_thread_notes (thread_id, body) values (%L, %L)$$, :'thread', repeat('n', 2001)),
  '23514', null, 'a note over 2,000 characters is refused');
update public.inbox_thread_notes set body = 'Agent: demo booked for Tuesday' where body like 'Agent:%';
update public.inbox_thread_notes set body = 'Changed by the agent' where body like 'Editor:%';
delete from public.inbox_thread_notes where body = 'Owner note';
select tests.clear_authentication();
select results_eq($$select body from public.inbox_thread_notes order by body$$,
  $$values ('Admin note'), ('Agent: demo booked for Tuesday'), ('Editor: price sent last week'), ('Owner note')$$,
  'an author edits their own note; nobody else''s note changes or goes');
select tests.authenticate_as('wa_owner');
delete from public.inbox_thread_notes where body = 'Owner note';
select tests.authenticate_as('wa_agent');
select throws_ok($$update public.inbox_thread_notes set author_id = null$$, '42501',
  'permission denied for table inbox_thread_notes', 'the author is never the client''s to change');
select tests.clear_authentication();
select is((select count(*)::int from public.inbox_thread_notes where body = 'Owner note'), 0, 'an author deletes their own note');

select tests.authenticate_as_runner();
select throws_ok($$select body from public.inbox_thread_notes$$, '42501', 'permission denied for table inbox_thread_notes',
  'the runner cannot read notes, so no send path can carry one to the lead');
select tests.clear_authentication();

-- Activity: what is logged, by whom ------------------------------------------------------------

select results_eq(
  format($$select subject_label, actor_id, details ->> 'role' from public.workspace_activity
     where workspace_id = %L and action = 'member.joined' and details ->> 'role' in ('admin', 'agent', 'viewer')
     order by subject_label$$, :'ws'),
  $$values ('wa_admin@test.reachflow.test', null::uuid, 'admin'), ('wa_agent@test.reachflow.test', null, 'agent'),
           ('wa_viewer@test.reachflow.test', null, 'viewer')$$,
  'members who joined are logged with their role (no caller: Reachflow)');

select tests.authenticate_as('wa_owner');
insert into public.campaigns (user_id, name, account_id, sequences) values (auth.uid(), 'Founders', :'account', '{"messages": ["hi"]}')
returning id as campaign \gset
update public.campaigns set status = 'running' where id = :'campaign';
update public.campaigns set status = 'paused' where id = :'campaign';
update public.campaigns set status = 'queued' where id = :'campaign';
select tests.clear_authentication();
-- the runner's own status moves: between sending states nothing is logged; its pause is Reachflow's
select tests.authenticate_as_runner();
update public.campaigns set status = 'running' where id = :'campaign';
update public.campaigns set status = 'paused' where id = :'campaign';
select tests.clear_authentication();
select bag_eq(
  format($$select action, actor_label, details ->> 'from' as "from", details ->> 'to' as "to" from public.workspace_activity
     where workspace_id = %L and subject_type = 'campaign'$$, :'ws'),
  $$values ('campaign.launched', 'wa_owner@test.reachflow.test', 'draft', 'running'),
           ('campaign.paused', 'wa_owner@test.reachflow.test', 'running', 'paused'),
           ('campaign.resumed', 'wa_owner@test.reachflow.test', 'paused', 'queued'),
           ('campaign.paused', null, 'running', 'paused')$$,
  'launched, paused, resumed by the owner; paused by Reachflow');
select tests.clear_authentication();

select tests.authenticate_as('wa_owner');
insert into public.campaigns (user_id, name, account_id, sequences, run_immediately)
values (auth.uid(), 'Straight away', :'account', '{"messages": ["hi"]}', true);
select public.queue_inbox_reply(:'thread', 'Sure, Tuesday works');
select tests.clear_authentication();
select is((select actor_label from public.workspace_activity where action = 'campaign.launched' and subject_label = 'Straight away'),
  'wa_owner@test.reachflow.test', 'a campaign created running is logged launched');
select results_eq(
  format($$select actor_label, subject_type, subject_id, subject_label, details from public.workspace_activity
     where workspace_id = %L and action = 'inbox.answered'$$, :'ws'),
  format($$values ('wa_owner@test.reachflow.test', 'conversation', %L::uuid, '@keen_lead', '{}'::jsonb)$$, :'thread'),
  'an answer from the inbox is logged with who answered (its text is not)');
-- the runner recording a message is not a person answering
insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
values (:'thread', tests.get_supabase_uid('wa_owner'), :'account', 'outgoing', 'echo', 'reachflow', 'sent', 'echo');
select is((select count(*)::int from public.workspace_activity where workspace_id = :'ws' and action = 'inbox.answered'), 1,
  'an outgoing record without a caller logs no answer');

-- members change through RPCs the admin calls (another part of this issue): the admin as caller
select set_config('request.jwt.claims', json_build_object('sub', tests.get_supabase_uid('wa_admin'), 'role', 'authenticated')::text, true);
update public.workspace_members set role = 'admin' where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wa_agent');
delete from public.workspace_members where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wa_viewer');
select set_config('request.jwt.claims', '', true);
select results_eq(
  format($$select action, actor_label, subject_label, details from public.workspace_activity
     where workspace_id = %L and action in ('member.role_changed', 'member.removed') and actor_id is not null
     order by action$$, :'ws'),
  $$values ('member.removed', 'wa_admin@test.reachflow.test', 'wa_viewer@test.reachflow.test', '{"role": "viewer"}'::jsonb),
           ('member.role_changed', 'wa_admin@test.reachflow.test', 'wa_agent@test.reachflow.test', '{"from": "agent", "to": "admin"}'::jsonb)$$,
  'a role change and a removal are logged with the admin who made them');
update public.workspace_members set role = 'agent' where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wa_agent');

select tests.create_social_account('wa_owner', 'wa_second') as second \gset
select tests.authenticate_as('wa_owner');
select public.delete_social_account(:'second');
select tests.clear_authentication();
select results_eq(
  $$select action, actor_label, details ->> 'platform' from public.workspace_activity where subject_label = '@wa_second' order by action$$,
  $$values ('account.connected', 'wa_owner@test.reachflow.test', 'twitter'), ('account.removed', 'wa_owner@test.reachflow.test', 'twitter')$$,
  'an account connected with the service role is logged as its creator''s; its removal as the caller''s');

select (public.create_instagram_official_account(tests.get_supabase_uid('wa_owner'), 'wa_official', '17841000000000099',
        'k1', 'k1:c2VhbGVk', internal.now() + interval '60 days')) ->> 'id' as official \gset
select tests.authenticate_as('wa_owner');
insert into public.instagram_automations (account_id, name, trigger, keywords, reply_text)
values (:'official', 'Price', 'dm_keyword', '{price}', 'It costs 10') returning id as automation \gset
update public.instagram_automations set enabled = false where id = :'automation';
update public.instagram_automations set enabled = true where id = :'automation';
select tests.clear_authentication();
select results_eq(
  format($$select action, actor_label from public.workspace_activity where workspace_id = %L and subject_type = 'automation'
     order by action$$, :'ws'),
  $$values ('automation.created', 'wa_owner@test.reachflow.test'), ('automation.disabled', 'wa_owner@test.reachflow.test'),
           ('automation.enabled', 'wa_owner@test.reachflow.test')$$,
  'an automation created, disabled and enabled is logged');

-- Activity: who reads it -------------------------------------------------------------------------

select count(*)::int as logged from public.workspace_activity where workspace_id = :'ws' \gset
select tests.authenticate_as('wa_owner');
select is((select count(*)::int from public.workspace_activity), :logged, 'the owner reads the whole log');
select throws_ok($$insert into public.workspace_activity (workspace_id, action, subject_type) values (auth.uid(), 'member.joined', 'member')$$,
  '42501', 'permission denied for table workspace_activity', 'nobody writes the log but the triggers');
select throws_ok($$delete from public.workspace_activity$$, '42501', 'permission denied for table workspace_activity',
  'nor deletes from it');
select tests.authenticate_as('wa_admin');
select is((select count(*)::int from public.workspace_activity), :logged, 'an admin reads the whole log');
select tests.authenticate_as('wa_editor');
select is((select count(*)::int from public.workspace_activity), 0, 'an editor reads none of it');
select tests.authenticate_as('wa_agent');
select is((select count(*)::int from public.workspace_activity), 0, 'an agent reads none of it');
select tests.authenticate_as('wa_out');
select is((select count(*)::int from public.workspace_activity where workspace_id = :'ws'), 0,
  'another workspace''s owner reads none of it');
select tests.authenticate_as_runner();
select throws_ok($$select 1 from public.workspace_activity$$, '42501', 'permission denied for table workspace_activity',
  'the runner has no access to the log');
select tests.clear_authentication();

-- the people the assign control and the filters list: the Members page's read, open to an agent
select tests.authenticate_as('wa_agent');
select results_eq(format('select email, role::text from public.workspace_member_list(%L)', :'ws'),
  $$values ('wa_owner@test.reachflow.test', 'owner'), ('wa_admin@test.reachflow.test', 'admin'),
           ('wa_editor@test.reachflow.test', 'editor'), ('wa_agent@test.reachflow.test', 'agent')$$,
  'an agent lists the workspace''s members, the assignees, by role');
select tests.clear_authentication();

-- deleting a workspace removes its members and accounts without logging into a workspace that is gone
select tests.authenticate_as('wa_out');
select public.create_workspace('Short-lived') as doomed \gset
select tests.clear_authentication();
insert into public.workspace_members (workspace_id, user_id, role) values (:'doomed', tests.get_supabase_uid('wa_agent'), 'agent');
select lives_ok(format('delete from public.workspaces where id = %L', :'doomed'), 'a workspace with members can be deleted');
select is((select count(*)::int from public.workspace_activity where workspace_id = :'doomed'), 0, 'and its log goes with it');

select * from finish();
rollback;
