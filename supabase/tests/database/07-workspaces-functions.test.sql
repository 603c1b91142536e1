-- Workspaces in the RPCs and the lead views: they answer for the caller's active workspace, whoever
-- created the rows; writing ones refuse a role too low with the product's words; reading ones show
-- the roles that may read, and nothing to the others.
begin;
select plan(14);

select tests.create_supabase_user('wf_' || r) from unnest(array['owner', 'editor', 'agent', 'viewer']) r;
select tests.get_supabase_uid('wf_owner') as ws \gset
insert into public.workspace_members (workspace_id, user_id, role)
select :'ws', tests.get_supabase_uid('wf_' || r), r::public.workspace_role from unnest(array['editor', 'agent', 'viewer']) r;
update public.user_profiles set active_workspace_id = :'ws'
 where id in (select user_id from public.workspace_members where workspace_id = :'ws');

select tests.give_plan('wf_owner', 5);
select tests.create_social_account('wf_owner', 'wf_x') as account \gset
insert into public.campaigns (user_id, name, account_id, sequences, status)
values (:'ws', 'Running', :'account', '{"messages": ["hi"]}', 'running') returning id as campaign \gset
insert into public.campaign_leads (campaign_id, user_id, username) values (:'campaign', :'ws', 'wf_lead');
insert into public.inbox_threads (user_id, account_id, peer_username, unread_count)
values (:'ws', :'account', 'wf_peer', 1) returning id as thread \gset

-- reading: every role that reads sees the owner's rows
select tests.authenticate_as('wf_viewer');
select is((public.dashboard_counts() ->> 'campaigns')::int, 1, 'a viewer''s dashboard counts the workspace''s campaign');
select is((select count(*)::int from public.lead_view), 1, 'a viewer''s Leads tab lists the workspace''s lead');
select is((select count(*)::int from public.campaign_figures()), 1, 'a viewer sees the campaign''s figures');
select is((public.inbox_overview() ->> 'unread')::int, 0, 'a viewer has no inbox: no unread conversation');
select tests.authenticate_as('wf_agent');
select is((select count(*)::int from public.lead_view), 0, 'an agent''s Leads tab is empty');
select is((public.inbox_overview() ->> 'unread')::int, 1, 'an agent sees the unread conversation');

-- writing: a role too low is told so; an editor acts on the owner's campaign
select tests.authenticate_as('wf_viewer');
select throws_ok(format('select public.pause_campaign(%L)', :'campaign'), '42501',
  'Your role in this workspace does not allow this.', 'a viewer cannot pause a campaign');
select throws_ok(format('select public.set_inbox_thread_status(%L, %L)', :'thread', 'handled'), '42501',
  'Your role in this workspace does not allow this.', 'nor mark a conversation handled');
select throws_ok($$select * from public.add_do_not_contact('[{"platform": "twitter", "username": "nope"}]')$$, '42501',
  'Your role in this workspace does not allow this.', 'nor add to the do-not-contact list');
select tests.authenticate_as('wf_agent');
select throws_ok(format('select public.delete_campaign(%L)', :'campaign'), '42501',
  'Your role in this workspace does not allow this.', 'an agent cannot delete a campaign');
select lives_ok(format('select public.set_inbox_thread_status(%L, %L)', :'thread', 'handled'), 'an agent marks a conversation handled');
select tests.authenticate_as('wf_editor');
select is(public.pause_campaign(:'campaign') ->> 'status', 'paused', 'an editor pauses the owner''s campaign');

-- a removed member is no longer a member of the workspace on their next call
select tests.clear_authentication();
delete from public.workspace_members where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wf_editor');
select tests.authenticate_as('wf_editor');
select throws_ok(format('select public.delete_campaign(%L)', :'campaign'), 'PT404', 'Campaign not found',
  'removed, the editor finds no campaign of the workspace (they are back in their own)');
select tests.clear_authentication();
delete from public.workspace_members where user_id = tests.get_supabase_uid('wf_editor');
select tests.authenticate_as('wf_editor');
select throws_ok(format('select public.delete_campaign(%L)', :'campaign'), '42501',
  'You are not a member of this workspace.', 'someone in no workspace is told they are not a member');
select tests.clear_authentication();

select * from finish();
rollback;
