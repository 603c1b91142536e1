-- What was unique per person is unique per workspace: one do-not-contact entry, one first message
-- and one set of opt-out words per workspace, whichever member made them; another workspace keeps
-- its own.
begin;
select plan(8);

select tests.create_supabase_user('wk_' || r) from unnest(array['owner', 'editor', 'other']) r;
select tests.get_supabase_uid('wk_owner') as ws \gset
insert into public.workspace_members (workspace_id, user_id, role) values (:'ws', tests.get_supabase_uid('wk_editor'), 'editor');
update public.user_profiles set active_workspace_id = :'ws' where id = tests.get_supabase_uid('wk_editor');

-- do-not-contact: the editor's entry is the owner's too
select tests.authenticate_as('wk_owner');
insert into public.do_not_contact (platform, target_username) values ('twitter', 'wk_person');
select tests.authenticate_as('wk_editor');
select results_eq($$select outcome from public.add_do_not_contact('[{"platform": "twitter", "username": "WK_person"}]')$$,
  $$values ('already')$$, 'a teammate''s entry is already on the workspace''s list');
select tests.authenticate_as('wk_other');
select results_eq($$select outcome from public.add_do_not_contact('[{"platform": "twitter", "username": "wk_person"}]')$$,
  $$values ('added')$$, 'another workspace has its own list');

-- opt-out words: one set per workspace
select tests.authenticate_as('wk_editor');
select is(public.set_opt_out_words('{halt}', '{no}') ->> 'custom', 'true', 'an editor saves the workspace''s words');
select tests.authenticate_as('wk_owner');
select is(public.do_not_contact_overview() -> 'words' -> 'anywhere', '["halt"]'::jsonb, 'the owner reads the same words');
select is(public.set_opt_out_words('{quit}', '{}') -> 'anywhere', '["quit"]'::jsonb, 'and changes them in place');
select is((select count(*)::int from public.opt_out_settings where workspace_id = :'ws'), 1, 'one row for the workspace');
select tests.clear_authentication();

-- the ledger: one first message per person and platform in the workspace
insert into public.contact_ledger (user_id, workspace_id, platform, target_username)
values (tests.get_supabase_uid('wk_owner'), :'ws', 'twitter', 'wk_lead');
select throws_ok(
  format($$insert into public.contact_ledger (user_id, workspace_id, platform, target_username) values (%L, %L, 'twitter', 'WK_lead')$$,
         tests.get_supabase_uid('wk_editor'), :'ws'),
  '23505', null, 'a teammate cannot claim a person the workspace already messaged');
select lives_ok(
  format($$insert into public.contact_ledger (user_id, workspace_id, platform, target_username) values (%L, %L, 'twitter', 'wk_lead')$$,
         tests.get_supabase_uid('wk_other'), tests.get_supabase_uid('wk_other')),
  'another workspace may message them');

select * from finish();
rollback;
