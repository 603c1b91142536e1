-- Workspaces' foundation: a new customer owns a personal workspace (id = their user id) and works in
-- it; rows without a workspace take their parent's or the creator's active workspace; a person can
-- create workspaces and switch only to one they belong to; the policies' helper answers only for the
-- active workspace and the roles asked, and forgets a removed member at once.
begin;
select plan(16);

select tests.create_supabase_user('ws_owner');
select tests.create_supabase_user('ws_other');
select tests.give_plan('ws_owner', 5);

select results_eq(
  $$select w.id, m.role::text, p.active_workspace_id from public.workspaces w
      join public.workspace_members m on m.workspace_id = w.id
      join public.user_profiles p on p.id = m.user_id
     where m.user_id = tests.get_supabase_uid('ws_owner')$$,
  $$values (tests.get_supabase_uid('ws_owner'), 'owner', tests.get_supabase_uid('ws_owner'))$$,
  'sign-up creates a personal workspace with the user''s id, owned by them and active');

select tests.create_social_account('ws_owner', 'ws_x') as account \gset
select is((select workspace_id from public.social_accounts where id = :'account'),
  tests.get_supabase_uid('ws_owner'), 'an account created without a workspace lands in the owner''s active one');

-- a workspace of one's own, made active by creating it
select tests.authenticate_as('ws_owner');
select public.create_workspace('  Client A  ') as client_a \gset
select is((select name from public.workspaces where id = :'client_a'), 'Client A', 'the name is trimmed');
select is(internal.active_workspace_id(), :'client_a'::uuid, 'creating a workspace switches to it');
select results_eq($$select name, role::text, is_active, member_count from public.my_workspaces() order by name$$,
  $$values ('Client A', 'owner', true, 1)$$ ||
  format($$ union all select name, 'owner', false, 1 from public.workspaces where id = %L$$, tests.get_supabase_uid('ws_owner')),
  'my_workspaces lists both, the active one marked');
select throws_ok($$select public.create_workspace('   ')$$, '22023', 'Workspace name is required', 'a blank name is refused');
select throws_ok(format('select public.create_workspace(%L)', repeat('n', 61)), '22023',
  'Workspace name must be 60 characters or less', 'a long name is refused');

-- a top-level row from the client defaults to the active workspace; a child row follows its parent
insert into public.do_not_contact (user_id, platform, target_username) values (auth.uid(), 'twitter', 'ws_blocked');
select tests.clear_authentication();
select is((select workspace_id from public.do_not_contact where target_username = 'ws_blocked'), :'client_a'::uuid,
  'a client''s insert lands in the active workspace');
-- (the campaign's account must be in its workspace)
update public.social_accounts set workspace_id = :'client_a' where id = :'account';
insert into public.campaigns (user_id, workspace_id, account_id, name, sequences)
values (tests.get_supabase_uid('ws_owner'), :'client_a', :'account', 'In client A', '{"messages": ["hi"]}')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, user_id, username)
values (:'campaign', tests.get_supabase_uid('ws_owner'), 'lead_a');
select is((select workspace_id from public.campaign_leads where campaign_id = :'campaign'), :'client_a'::uuid,
  'a campaign''s lead inserted without a workspace takes the campaign''s');

-- switching
select tests.authenticate_as('ws_other');
select throws_ok(format('select public.set_active_workspace(%L)', :'client_a'), '42501',
  'You are not a member of this workspace.', 'nobody switches to a workspace they are not in');
select is(internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}'), tests.get_supabase_uid('ws_other'),
  'the helper answers the caller''s own active workspace');
select tests.clear_authentication();

insert into public.workspace_members (workspace_id, user_id, role)
values (:'client_a', tests.get_supabase_uid('ws_other'), 'agent');
select tests.authenticate_as('ws_other');
select lives_ok(format('select public.set_active_workspace(%L)', :'client_a'), 'a member switches to the workspace');
select is(internal.active_workspace_with_role('{owner,admin,editor}'), null,
  'an agent is not answered for the roles that edit campaigns');
select is(internal.active_workspace_with_role('{owner,admin,editor,agent}'), :'client_a'::uuid,
  '... and is for the inbox''s roles');
select tests.clear_authentication();

delete from public.workspace_members where workspace_id = :'client_a' and user_id = tests.get_supabase_uid('ws_other');
select tests.authenticate_as('ws_other');
select is(internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}'), tests.get_supabase_uid('ws_other'),
  'a removed member falls back to their own workspace on the next statement');
select is((select count(*)::int from public.workspaces where id = :'client_a'), 0,
  '... and no longer sees the workspace they left');
select tests.clear_authentication();

select * from finish();
rollback;
