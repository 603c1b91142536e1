-- Workspace members: invitations (one use, 7 days by the test clock, revocable, resendable, only for the
-- invited e-mail), the member list, role changes, removal, leaving, renaming, deleting and handing
-- over a workspace, each refused with the spec's words to non-members and to roles too low, and the
-- last owner rule.
begin;
select plan(59);

select tests.create_supabase_user('wm_owner', 'wm_owner@test.reachflow.test');
select tests.create_supabase_user('wm_admin', 'wm_admin@test.reachflow.test');
select tests.create_supabase_user('wm_agent', 'wm_agent@test.reachflow.test');
select tests.create_supabase_user('wm_late', 'wm_late@test.reachflow.test');
select tests.create_supabase_user('wm_stranger', 'wm_stranger@test.reachflow.test');

select tests.authenticate_as('wm_owner');
select public.create_workspace('Agency Client') as ws \gset
select tests.clear_authentication();

-- Invitations ---------------------------------------------------------------------------------------
select tests.authenticate_as('wm_stranger');
select throws_ok(format($$select * from public.invite_member(%L, 'x@example.com', 'agent')$$, :'ws'), '42501',
  'You are not a member of this workspace.', 'a non-member cannot invite');
select tests.clear_authentication();

select tests.authenticate_as('wm_owner');
select token as admin_token from public.invite_member(:'ws', '  WM_Admin@Test.Reachflow.Test ', 'admin') \gset
select is((select email from public.workspace_invitations where workspace_id = :'ws'),
  'wm_admin@test.reachflow.test', 'the e-mail is trimmed and lowercased');
select is((select token_hash from public.workspace_invitations where workspace_id = :'ws'),
  encode(sha256(convert_to(:'admin_token', 'UTF8')), 'hex'), 'only the token''s SHA-256 is stored');
select is((select expires_at - created_at from public.workspace_invitations where workspace_id = :'ws'),
  interval '7 days', 'an invitation lasts 7 days');
select throws_ok(format($$select * from public.invite_member(%L, 'not-an-address', 'agent')$$, :'ws'), '22023',
  'Enter a valid e-mail address', 'a malformed address is refused');
select throws_ok(format($$select * from public.invite_member(%L, 'x@example.com', 'owner')$$, :'ws'), '22023',
  'Invite as admin, editor, agent or viewer; make someone the owner after they join.', 'nobody is invited as owner');
select throws_ok(format($$select * from public.invite_member(%L, 'wm_admin@test.reachflow.test', 'viewer')$$, :'ws'), '23505',
  'This e-mail address already has a pending invitation. Resend it instead.', 'a pending duplicate is refused');
select throws_ok(format($$select * from public.invite_member(%L, 'wm_owner@test.reachflow.test', 'viewer')$$, :'ws'), '23505',
  'This person is already a member of this workspace.', 'an existing member is refused');
select tests.clear_authentication();

-- accepting: only the invited address, then one use
select tests.authenticate_as('wm_stranger');
select throws_ok(format('select public.accept_invitation(%L)', :'admin_token'), '42501',
  'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
  'another account cannot accept');
select throws_ok($$select public.accept_invitation('not-a-token')$$, '22023',
  'This invitation link is not valid. Ask for a new invitation.', 'an unknown token is refused');
select is((select count(*)::int from public.workspace_invitations), 0, 'a non-member reads no invitations');
select tests.clear_authentication();

select tests.authenticate_as('wm_admin');
select is(public.accept_invitation(:'admin_token'), :'ws'::uuid, 'the invited person accepts');
select is(internal.active_workspace_id(), :'ws'::uuid, '... and is switched to the workspace');
select is(internal.workspace_role(:'ws'), 'admin'::public.workspace_role, '... with the invited role');
select throws_ok(format('select public.accept_invitation(%L)', :'admin_token'), '22023',
  'This invitation was already used.', 'a link works once');

-- an admin invites, resends and revokes
select token as agent_token, invitation_id as agent_invitation
  from public.invite_member(:'ws', 'wm_agent@test.reachflow.test', 'agent') \gset
select token as agent_token_2 from public.resend_invitation(:'agent_invitation') \gset
select isnt(:'agent_token_2'::text, :'agent_token'::text, 'resending makes a new token');
select token as stranger_token, invitation_id as stranger_invitation
  from public.invite_member(:'ws', 'wm_stranger@test.reachflow.test', 'viewer') \gset
select lives_ok(format('select public.revoke_invitation(%L)', :'stranger_invitation'), 'an admin revokes an invitation');
select results_eq($$select email, role::text, revoked_at is not null from public.workspace_invitations
                     where accepted_at is null order by email$$,
  $$values ('wm_agent@test.reachflow.test', 'agent', false), ('wm_stranger@test.reachflow.test', 'viewer', true)$$,
  'an admin reads the workspace''s pending and revoked invitations');
select throws_ok(format('select * from public.resend_invitation(%L)', :'stranger_invitation'), '22023',
  'This invitation was revoked.', 'a revoked invitation is not resent');
select tests.clear_authentication();

select tests.authenticate_as('wm_stranger');
select throws_ok(format('select public.accept_invitation(%L)', :'stranger_token'), '22023',
  'This invitation was revoked.', 'a revoked link is refused');
select throws_ok(format('select public.revoke_invitation(%L)', :'agent_invitation'), '42501',
  'You are not a member of this workspace.', 'a non-member cannot revoke');
select tests.clear_authentication();

select tests.authenticate_as('wm_agent');
select throws_ok(format('select public.accept_invitation(%L)', :'agent_token'), '22023',
  'This invitation link is not valid. Ask for a new invitation.', 'the link before a resend no longer works');
select is(public.accept_invitation(:'agent_token_2'), :'ws'::uuid, 'the resent link works');
select throws_ok(format($$select * from public.invite_member(%L, 'x@example.com', 'agent')$$, :'ws'), '42501',
  'Your role in this workspace does not allow this.', 'an agent cannot invite');
select is((select count(*)::int from public.workspace_invitations), 0, 'an agent reads no invitations');
select tests.clear_authentication();

-- expiry by the test clock
select tests.authenticate_as('wm_owner');
select token as late_token, invitation_id as late_invitation
  from public.invite_member(:'ws', 'wm_late@test.reachflow.test', 'editor') \gset
select tests.clear_authentication();
select tests.freeze_time(now() + interval '7 days 1 minute');
select tests.authenticate_as('wm_late');
select throws_ok(format('select public.accept_invitation(%L)', :'late_token'), '22023',
  'This invitation has expired. Ask for a new invitation.', 'an invitation expires after 7 days');
select tests.clear_authentication();
select tests.authenticate_as('wm_owner');
select lives_ok(format($$select * from public.invite_member(%L, 'wm_late@test.reachflow.test', 'editor')$$, :'ws'),
  'an expired invitation does not block a new one');
select token as late_token_2 from public.resend_invitation(:'late_invitation') \gset
select tests.clear_authentication();
select tests.authenticate_as('wm_late');
select is(public.accept_invitation(:'late_token_2'), :'ws'::uuid, 'a resent expired invitation works for 7 more days');
select tests.clear_authentication();

-- The member list ------------------------------------------------------------------------------------
select tests.authenticate_as('wm_agent');
select results_eq(format('select email, role::text from public.workspace_member_list(%L)', :'ws'),
  $$values ('wm_owner@test.reachflow.test', 'owner'), ('wm_admin@test.reachflow.test', 'admin'),
           ('wm_late@test.reachflow.test', 'editor'), ('wm_agent@test.reachflow.test', 'agent')$$,
  'every member lists the members with their e-mails and roles, by role');
select tests.clear_authentication();
select tests.authenticate_as('wm_stranger');
select throws_ok(format('select * from public.workspace_member_list(%L)', :'ws'), '42501',
  'You are not a member of this workspace.', 'a non-member cannot list the members');
select tests.clear_authentication();

-- Roles -----------------------------------------------------------------------------------------------
select tests.authenticate_as('wm_admin');
select lives_ok(format($$select public.change_member_role(%L, %L, 'viewer')$$, :'ws', tests.get_supabase_uid('wm_late')),
  'an admin changes an editor to viewer');
select throws_ok(format($$select public.change_member_role(%L, %L, 'owner')$$, :'ws', tests.get_supabase_uid('wm_late')),
  '42501', 'Your role in this workspace does not allow this.', 'an admin cannot make an owner');
select throws_ok(format($$select public.change_member_role(%L, %L, 'admin')$$, :'ws', tests.get_supabase_uid('wm_owner')),
  '42501', 'Your role in this workspace does not allow this.', 'an admin cannot demote an owner');
select throws_ok(format($$select public.remove_member(%L, %L)$$, :'ws', tests.get_supabase_uid('wm_owner')),
  '42501', 'Your role in this workspace does not allow this.', 'an admin cannot remove an owner');
select throws_ok(format($$select public.rename_workspace(%L, '   ')$$, :'ws'), '22023',
  'Workspace name is required', 'a blank name is refused');
select lives_ok(format($$select public.rename_workspace(%L, ' Client One ')$$, :'ws'), 'an admin renames the workspace');
select throws_ok(format($$select public.delete_workspace(%L, 'Client One')$$, :'ws'), '42501',
  'Your role in this workspace does not allow this.', 'an admin cannot delete the workspace');
select throws_ok(format($$select public.transfer_ownership(%L, %L)$$, :'ws', tests.get_supabase_uid('wm_admin')), '42501',
  'Your role in this workspace does not allow this.', 'an admin cannot take ownership');
select tests.clear_authentication();
select is((select name from public.workspaces where id = :'ws'), 'Client One', 'the new name is trimmed');

select tests.authenticate_as('wm_agent');
select throws_ok(format($$select public.change_member_role(%L, %L, 'agent')$$, :'ws', tests.get_supabase_uid('wm_late')),
  '42501', 'Your role in this workspace does not allow this.', 'an agent cannot change roles');
select throws_ok(format($$select public.rename_workspace(%L, 'Mine')$$, :'ws'), '42501',
  'Your role in this workspace does not allow this.', 'an agent cannot rename');
select tests.clear_authentication();

-- The last owner ----------------------------------------------------------------------------------
select tests.authenticate_as('wm_owner');
select throws_ok(format($$select public.change_member_role(%L, %L, 'admin')$$, :'ws', tests.get_supabase_uid('wm_owner')),
  '42501', 'A workspace needs an owner. Make someone else the owner first.', 'the last owner cannot be demoted');
select throws_ok(format($$select public.remove_member(%L, %L)$$, :'ws', tests.get_supabase_uid('wm_owner')),
  '42501', 'A workspace needs an owner. Make someone else the owner first.', 'the last owner cannot be removed');
select throws_ok(format('select public.leave_workspace(%L)', :'ws'), '42501',
  'A workspace needs an owner. Make someone else the owner first.', 'the last owner cannot leave');
select lives_ok(format($$select public.transfer_ownership(%L, %L)$$, :'ws', tests.get_supabase_uid('wm_admin')),
  'the owner hands the workspace to the admin');
select results_eq(format($$select email, role::text from public.workspace_member_list(%L) where role in ('owner', 'admin')$$, :'ws'),
  $$values ('wm_admin@test.reachflow.test', 'owner'), ('wm_owner@test.reachflow.test', 'admin')$$,
  '... who becomes owner while the former owner becomes admin');
select lives_ok(format('select public.leave_workspace(%L)', :'ws'), 'the former owner, now admin, may leave');
select tests.clear_authentication();
select is((select active_workspace_id from public.user_profiles where id = tests.get_supabase_uid('wm_owner')), null,
  '... and no longer remembers the workspace they left');

-- Removal cuts access at once -------------------------------------------------------------------
select tests.authenticate_as('wm_admin');
select lives_ok(format($$select public.remove_member(%L, %L)$$, :'ws', tests.get_supabase_uid('wm_agent')),
  'the owner removes the agent');
select tests.clear_authentication();
select is((select active_workspace_id from public.user_profiles where id = tests.get_supabase_uid('wm_agent')), null,
  'the removed agent''s profile no longer names the workspace they worked in');
select tests.authenticate_as('wm_agent');
select is((select count(*)::int from public.workspaces where id = :'ws'), 0, 'the removed agent no longer sees the workspace');
select isnt(internal.active_workspace_id(), :'ws'::uuid, '... and works in their own workspace again');
select throws_ok(format('select public.leave_workspace(%L)', :'ws'), '42501',
  'You are not a member of this workspace.', '... and is no longer a member');
select throws_ok(format('select public.leave_workspace(%L)', tests.get_supabase_uid('wm_agent')), '22023',
  'You cannot leave the only workspace you belong to.', 'nobody leaves their only workspace');
select tests.clear_authentication();

-- Deleting ------------------------------------------------------------------------------------------
select tests.authenticate_as('wm_admin');
select throws_ok(format($$select public.delete_workspace(%L, 'client one')$$, :'ws'), '22023',
  'Type the workspace name exactly to delete it.', 'the typed name must match exactly');
select lives_ok(format($$select public.delete_workspace(%L, 'Client One')$$, :'ws'), 'the owner deletes the workspace');
select is(internal.active_workspace_id(), tests.get_supabase_uid('wm_admin'), '... and falls back to their own workspace');
select throws_ok(format($$select public.delete_workspace(%L, (select name from public.workspaces where id = %L))$$,
  tests.get_supabase_uid('wm_admin'), tests.get_supabase_uid('wm_admin')), '22023',
  'You cannot delete the only workspace you belong to.', 'nobody deletes their only workspace');
select tests.clear_authentication();
select is((select count(*)::int from public.workspace_invitations where workspace_id = :'ws'), 0,
  'the workspace''s invitations went with it');

select * from finish();
rollback;
