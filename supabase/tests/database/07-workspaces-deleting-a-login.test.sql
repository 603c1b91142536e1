-- Deleting a login never deletes a workspace's rows: what a member created in someone else's
-- workspace is handed to that workspace's owner; the workspaces they alone own go with them.
begin;
select plan(7);

select tests.create_supabase_user('dl_owner');
select tests.create_supabase_user('dl_member');
select tests.get_supabase_uid('dl_owner') as agency \gset
select tests.get_supabase_uid('dl_member') as member \gset
insert into public.workspace_members (workspace_id, user_id, role) values (:'agency', :'member', 'editor');

select tests.give_plan('dl_owner', 5);
select tests.create_social_account('dl_owner', 'dl_agency_x') as account \gset
-- the member's campaign and list in the agency's workspace, and a list in their own
insert into public.campaigns (user_id, workspace_id, name, account_id, sequences)
values (:'member', :'agency', 'By the member', :'account', '{"messages": ["hi"]}') returning id as campaign \gset
insert into public.campaign_leads (campaign_id, user_id, username) values (:'campaign', :'member', 'dl_lead');
insert into public.lead_lists (user_id, workspace_id, name) values (:'member', :'agency', 'Agency list');
insert into public.lead_lists (user_id, workspace_id, name) values (:'member', :'member', 'Own list');

delete from auth.users where id = :'member';

select results_eq($$select name, user_id from public.campaigns where workspace_id = tests.get_supabase_uid('dl_owner')$$,
  format('values (%L, %L::uuid)', 'By the member', :'agency'), 'the member''s campaign stays, now the owner''s');
select is((select count(*)::int from public.campaign_leads where campaign_id = :'campaign'), 1, '... with its lead');
select is((select user_id from public.lead_lists where name = 'Agency list'), :'agency'::uuid, 'their list in the agency stays');
select is((select count(*)::int from public.workspaces where id = :'member'), 0, 'their personal workspace is gone');
select is((select count(*)::int from public.lead_lists where name = 'Own list'), 0, '... with its rows');

-- the last owner of a workspace takes it with them
select tests.create_supabase_user('dl_solo');
select tests.authenticate_as('dl_solo');
select public.create_workspace('Solo client') as solo \gset
select tests.clear_authentication();
insert into public.lead_lists (user_id, workspace_id, name) values (tests.get_supabase_uid('dl_solo'), :'solo', 'Solo list');
delete from auth.users where id = tests.get_supabase_uid('dl_solo');
select is((select count(*)::int from public.workspaces where id = :'solo'), 0, 'a workspace with no other owner is deleted');
select is((select count(*)::int from public.lead_lists where name = 'Solo list'), 0, '... with its rows');

select * from finish();
rollback;
