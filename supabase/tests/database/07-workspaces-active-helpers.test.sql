-- The helpers every policy asks, in plpgsql (plans the session keeps): the active workspace is the
-- remembered one while still a member, else the personal one, else the first joined, else none; its
-- role is the role held in that workspace, not the best role elsewhere; and a kept plan never keeps
-- an answer (a change of membership shows on the next statement of the same session).
begin;
select plan(17);

select tests.create_supabase_user('wsh_person');
select tests.create_supabase_user('wsh_owner');
select tests.get_supabase_uid('wsh_person') as person \gset
select tests.get_supabase_uid('wsh_owner') as owner \gset
\set first_ws '00000000-0000-4000-8000-0000000000a1'
\set second_ws '00000000-0000-4000-8000-0000000000a2'
\set foreign_ws '00000000-0000-4000-8000-0000000000a3'
insert into public.workspaces (id, name, created_by)
values (:'first_ws', 'Joined last', :'owner'), (:'second_ws', 'Joined first', :'owner'), (:'foreign_ws', 'Not theirs', :'owner');
insert into public.workspace_members (workspace_id, user_id, role, created_at)
values (:'first_ws', :'owner', 'owner', now() - interval '3 days'), (:'second_ws', :'owner', 'owner', now() - interval '3 days'),
       (:'foreign_ws', :'owner', 'owner', now() - interval '3 days'),
       -- the second id sorts after the first, but was joined earlier: "first joined" is by time
       (:'second_ws', :'person', 'viewer', now() - interval '2 days'), (:'first_ws', :'person', 'editor', now() - interval '1 day');

select is(
  (select array_agg(p.proname || ': ' || l.lanname order by p.proname)
     from pg_catalog.pg_proc p join pg_catalog.pg_language l on l.oid = p.prolang
    where p.pronamespace = 'internal'::regnamespace
      and p.proname in ('active_workspace_id', 'active_workspace_of', 'active_workspace_with_role', 'has_role_on_workspace', 'workspace_role')),
  array['active_workspace_id: plpgsql', 'active_workspace_of: plpgsql', 'active_workspace_with_role: plpgsql',
        'has_role_on_workspace: plpgsql', 'workspace_role: plpgsql'],
  'the policies'' helpers are plpgsql, whose plans a session keeps (a security-definer SQL function is planned on every call)');

-- the remembered workspace, while a member
update public.user_profiles set active_workspace_id = :'first_ws' where id = :'person';
select tests.authenticate_as('wsh_person');
select is(internal.active_workspace_id(), :'first_ws'::uuid, 'the remembered workspace is the active one');
select is(internal.active_workspace_with_role('{owner,admin,editor}'), :'first_ws'::uuid, '... answered for the caller''s role there');
select is(internal.active_workspace_with_role('{viewer}'), null, '... and not for a role they do not hold there');
select is(internal.workspace_role(:'second_ws'), 'viewer'::public.workspace_role, 'workspace_role names the role in the workspace asked');
select ok(internal.has_role_on_workspace(:'second_ws'), 'a member has a role on a workspace that is not the active one');
select ok(not internal.has_role_on_workspace(:'second_ws', '{owner,admin,editor}'), '... but not one they do not hold there');
select ok(not internal.has_role_on_workspace(:'foreign_ws'), 'nobody has a role on a workspace they are not in');
select is(internal.workspace_role(:'foreign_ws'), null, '... nor a role name');
select tests.clear_authentication();

-- a remembered workspace that is no longer theirs (the profile still names it)
update public.user_profiles set active_workspace_id = :'foreign_ws' where id = :'person';
select tests.authenticate_as('wsh_person');
select is(internal.active_workspace_id(), :'person'::uuid, 'a remembered workspace they are not in falls back to their personal one');
select is(internal.active_workspace_with_role('{owner}'), :'person'::uuid, '... where they are the owner');
select tests.clear_authentication();
select is(internal.active_workspace_of(:'person'), :'person'::uuid, 'active_workspace_of answers the same for the person');

-- without a personal workspace: the first joined, with the role held there
delete from public.workspaces where id = :'person';
update public.user_profiles set active_workspace_id = :'foreign_ws' where id = :'person';
select tests.authenticate_as('wsh_person');
select is(internal.active_workspace_id(), :'second_ws'::uuid, 'without a personal workspace, the first joined is the active one');
select is(internal.active_workspace_with_role('{owner,admin,editor}'), null,
  '... answered only for the role there, though they edit in another workspace');
select is(internal.active_workspace_with_role('{viewer}'), :'second_ws'::uuid, '... where they are a viewer');
select tests.clear_authentication();

-- no membership left: nothing, on the next statement of the same session
delete from public.workspace_members where user_id = :'person';
select tests.authenticate_as('wsh_person');
select is(internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}'), null,
  'a person in no workspace has no active workspace, at once');
select tests.authenticate_as_service_role();
select is(internal.active_workspace_id(), null, 'a caller without a user has none');
select tests.clear_authentication();

select * from finish();
rollback;
