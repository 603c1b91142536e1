-- Workspaces' row-level security: for every tenant table, every role (owner, admin, editor, agent,
-- viewer) and a non-member, reading, inserting, updating and deleting a real row of a seeded
-- workspace does what the role matrix says (docs/database.md, "Workspaces"); a removed member sees
-- nothing on their next statement; a member of two workspaces sees only the active one's rows.
begin;
select plan(639);

-- The workspace: the owner's personal one, with one member of each other role, all working in it.
select tests.create_supabase_user('wp_' || r) from unnest(array['owner', 'admin', 'editor', 'agent', 'viewer', 'outsider']) r;
select tests.get_supabase_uid('wp_owner') as ws \gset
insert into public.workspace_members (workspace_id, user_id, role)
select :'ws', tests.get_supabase_uid('wp_' || r), r::public.workspace_role
  from unnest(array['admin', 'editor', 'agent', 'viewer']) r;
update public.user_profiles set active_workspace_id = :'ws'
 where id in (select user_id from public.workspace_members where workspace_id = :'ws');

-- One row (or more, made by the rows' own triggers) of every tenant table, created by the owner.
select tests.give_plan('wp_owner', 5);
insert into public.payments (user_id, amount, status) values (:'ws', 9300, 'succeeded');
select tests.create_social_account('wp_owner', 'wp_x') as account \gset
select (public.create_instagram_official_account(:'ws', 'wp_ig', '17841000000000744', 'k1', 'k1:c2VhbGVk',
        internal.now() + interval '60 days')) ->> 'id' as ig \gset
insert into public.x_oauth_requests (user_id, state_hash, key_id, sealed, redirect_uri, expires_at)
values (:'ws', 'wp-state', 'k1', 'k1:c2VhbGVk', 'http://x/cb', now() + interval '5 minutes');
insert into internal.instagram_oauth_states (state_hash, user_id, expires_at)
values (repeat('c', 64), :'ws', internal.now() + interval '5 minutes');
insert into public.x_api_usage (account_id, user_id, day, kind, unit_key) values (:'account', :'ws', current_date, 'dm_create', 'wp1');
insert into public.instagram_automations (user_id, account_id, name, trigger, keywords, reply_text)
values (:'ws', :'ig', 'Guide', 'dm_keyword', '{guide}', 'Here it is') returning id as automation \gset
insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, status)
values (:'automation', :'ws', :'ig', 'message:wp1', 'p1', 'sent') returning id as run \gset
insert into public.instagram_automation_followups (run_id, automation_id, user_id, account_id, person_id, sent_after, due_at)
values (:'run', :'automation', :'ws', :'ig', 'p1', now(), now() + interval '1 hour');
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (:'ws', 'Source', :'account', '[{"type": "keyword", "value": "saas"}]', 2) returning id as scrape \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username)
values (:'scrape', :'ws', 'wp_lead') returning id as lead \gset
insert into public.lead_lists (user_id, name) values (:'ws', 'Picked by hand') returning id as list \gset
insert into public.campaigns (user_id, name, account_id, sequences)
values (:'ws', 'Launch', :'account', '{"messages": ["hi"]}') returning id as campaign \gset
insert into public.campaign_leads (campaign_id, user_id, username) values (:'campaign', :'ws', 'wp_target') returning id as clead \gset
insert into public.campaign_daily_stats (campaign_id, user_id, day) values (:'campaign', :'ws', current_date);
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent)
values (:'campaign', :'clead', :'account', 0, 'sent', 'wp_target', 'hi');
insert into public.message_variants (campaign_id, user_id, step, kind, slot, template) values (:'campaign', :'ws', 0, 'opening', 0, 'hi');
insert into public.contact_ledger (user_id, platform, target_username) values (:'ws', 'twitter', 'wp_target')
on conflict do nothing;
insert into public.do_not_contact (user_id, platform, target_username) values (:'ws', 'twitter', 'wp_blocked');
insert into public.opt_out_settings (user_id) values (:'ws');
insert into public.inbox_threads (user_id, account_id, peer_username) values (:'ws', :'account', 'wp_peer') returning id as thread \gset
insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
values (:'thread', :'ws', :'account', 'incoming', 'Hello', 'platform', 'received', 'wp-m1');
insert into public.inbox_check_requests (account_id, user_id, requested_at) values (:'account', :'ws', now());
insert into public.ai_usage (user_id, day) values (:'ws', current_date);
insert into public.notifications (user_id, type, title) values (:'ws', 'lead_replied', 'New reply');

-- The seeded rows all belong to the workspace (so every case below tests a real row).
select is(
  (select count(*)::int from (values
    ('social_accounts'), ('x_oauth_requests'), ('internal.instagram_oauth_states'), ('x_api_usage'),
    ('instagram_automations'), ('instagram_automation_runs'), ('instagram_automation_followups'), ('subscriptions'),
    ('payments'), ('lead_lists'), ('scraping_campaigns'), ('scraping_campaign_leads'), ('lead_list_members'),
    ('campaigns'), ('campaign_leads'), ('campaign_daily_stats'), ('dm_logs'), ('message_variants'), ('contact_ledger'),
    ('do_not_contact'), ('opt_out_settings'), ('inbox_threads'), ('inbox_messages'), ('inbox_check_requests'),
    ('ai_usage'), ('notifications')) t(name)
   where (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %s where workspace_id = %L',
           case when name like '%.%' then name else 'public.' || name end, :'ws'), false, false, '')))[1]::text::int = 0),
  0, 'every tenant table has a row in the workspace');

-- One attempt: the statement as the person, rolled back whatever happens; 'allowed' when it touched
-- at least one row, else 'refused' (no row, or the statement was refused).
create function pg_temp.attempt(who text, setup text, statement text)
returns text
language plpgsql
as $$
declare
  touched integer;
begin
  begin
    execute setup;
    perform tests.authenticate_as(who);
    execute statement into touched;
    raise exception using errcode = 'P0001', message = 'attempted', detail = touched::text;
  exception when others then
    declare
      detail text;
      state text;
    begin
      get stacked diagnostics detail = pg_exception_detail, state = returned_sqlstate;
      return case when state = 'P0001' and detail::integer > 0 then 'allowed' else 'refused' end;
    end;
  end;
end
$$;

-- What each role may do with each table (the role matrix; where the client has no grant for an
-- action, nobody may), the statement that inserts a row, what it needs first, and what an update sets.
create temp table matrix (tbl text, readers text[], inserters text[], updaters text[], deleters text[],
  insert_sql text, insert_setup text, update_set text);
insert into matrix values
    -- table, readers, inserters, updaters, deleters, insert statement, its setup, update's set
    ('social_accounts', '{owner,admin,editor,agent,viewer}', '{}', '{owner,admin,editor}', '{owner,admin,editor}', null, null, 'timezone = timezone'),
    ('x_oauth_requests', '{}', '{}', '{}', '{}', null, null, null),
    ('internal.instagram_oauth_states', '{}', '{}', '{}', '{}', null, null, null),
    ('x_api_usage', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('instagram_automations', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{owner,admin,editor}', '{owner,admin,editor}',
     format($i$insert into public.instagram_automations (account_id, name, trigger, keywords, reply_text) values (%L, 'Price', 'dm_keyword', '{price}', 'Ten')$i$, :'ig'),
     null, 'name = name'),
    ('instagram_automation_runs', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('instagram_automation_followups', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('subscriptions', '{owner}', '{}', '{}', '{}', null, null, null),
    ('payments', '{owner}', '{}', '{}', '{}', null, null, null),
    ('lead_lists', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{owner,admin,editor}', '{owner,admin,editor}',
     $i$insert into public.lead_lists (name) values ('Another')$i$, null, 'name = name'),
    ('scraping_campaigns', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{owner,admin,editor}', '{owner,admin,editor}',
     format($i$insert into public.scraping_campaigns (name, account_id, sources, target_count) values ('More', %L, '[{"type": "keyword", "value": "crm"}]', 2)$i$, :'account'),
     null, 'name = name'),
    ('scraping_campaign_leads', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('lead_list_members', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{}', '{owner,admin,editor}',
     format('insert into public.lead_list_members (lead_list_id, scraping_lead_id) values (%L, %L)', :'list', :'lead'), null, null),
    ('campaigns', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{owner,admin,editor}', '{owner,admin,editor}',
     format($i$insert into public.campaigns (name, account_id, sequences) values ('Second', %L, '{"messages": ["hey"]}')$i$, :'account'),
     null, 'name = name'),
    ('campaign_leads', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('campaign_daily_stats', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('dm_logs', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('message_variants', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('contact_ledger', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    ('do_not_contact', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{}', '{owner,admin,editor}',
     $i$insert into public.do_not_contact (platform, target_username) values ('twitter', 'wp_another')$i$, null, null),
    -- the workspace has one set of opt-out words: inserting them is tried where there are none yet
    ('opt_out_settings', '{owner,admin,editor,viewer}', '{owner,admin,editor}', '{owner,admin,editor}', '{}',
     $i$insert into public.opt_out_settings (anywhere) values ('{stop}')$i$,
     format('delete from public.opt_out_settings where workspace_id = %L', :'ws'), 'anywhere = anywhere'),
    ('inbox_threads', '{owner,admin,editor,agent}', '{}', '{}', '{}', null, null, null),
    ('inbox_messages', '{owner,admin,editor,agent}', '{}', '{}', '{}', null, null, null),
    ('inbox_check_requests', '{owner,admin,editor,agent}', '{}', '{}', '{}', null, null, null),
    ('ai_usage', '{owner,admin,editor,viewer}', '{}', '{}', '{}', null, null, null),
    -- the seeded notification is a reply's, which agents see too
    ('notifications', '{owner,admin,editor,agent,viewer}', '{}', '{owner,admin,editor}', '{owner,admin,editor}', null, null, 'read = true');

-- Each case: one table, one action, tried by each role and by the non-member.
create temp table cases as
select m.tbl, a.action,
       case when a.action = 'insert' then coalesce(m.insert_setup, 'select 1') else 'select 1' end as setup,
       case a.action
         when 'read' then format('select count(*)::int from %s where workspace_id = %L', r.rel, :'ws')
         -- a client cannot name the workspace: an insert counts only when it landed in this one
         when 'insert' then format('with x as (%s returning workspace_id) select count(*)::int from x where workspace_id = %L',
                                   coalesce(m.insert_sql, format('insert into %s (user_id) values (auth.uid())', r.rel)), :'ws')
         when 'update' then format('with x as (update %s set %s where workspace_id = %L returning 1) select count(*)::int from x',
                                   r.rel, coalesce(m.update_set, 'workspace_id = workspace_id'), :'ws')
         else format('with x as (delete from %s where workspace_id = %L returning 1) select count(*)::int from x', r.rel, :'ws')
       end as statement,
       case a.action when 'read' then m.readers when 'insert' then m.inserters when 'update' then m.updaters else m.deleters end
         as allowed
  from matrix m
  cross join lateral (select case when m.tbl like '%.%' then m.tbl else 'public.' || m.tbl end as rel) r
  cross join (values ('read'), ('insert'), ('update'), ('delete')) a(action);

select is((select count(*)::int from matrix), 26, 'the matrix covers the 26 tenant tables');

select is(pg_temp.attempt('wp_' || who, c.setup, c.statement),
          case when who = any (c.allowed) then 'allowed' else 'refused' end,
          format('%s: %s %s', who, c.action, c.tbl))
  from cases c
  cross join unnest(array['owner', 'admin', 'editor', 'agent', 'viewer', 'outsider']) who
 order by c.tbl, c.action, who;

-- An agent reads the workspace's reply notifications only; a viewer reads the others too.
insert into public.notifications (user_id, type, title) values (:'ws', 'account_flagged', 'Account flagged');
select tests.authenticate_as('wp_agent');
select results_eq($$select type from public.notifications$$, $$values ('lead_replied')$$,
  'an agent sees the reply notification and not the account one');
select tests.authenticate_as('wp_viewer');
select is((select count(*)::int from public.notifications), 2, 'a viewer sees both');

-- A campaign's account, source and list must be in the campaign's workspace.
select tests.clear_authentication();
select tests.create_social_account('wp_admin', 'wp_admins_own') as admins_account \gset
insert into public.lead_lists (user_id, name) values (tests.get_supabase_uid('wp_admin'), 'Admin''s own list')
returning id as admins_list \gset
select is((select workspace_id from public.lead_lists where id = :'admins_list'), :'ws'::uuid,
  'a row created without a workspace lands in its creator''s active one');
update public.lead_lists set workspace_id = tests.get_supabase_uid('wp_admin') where id = :'admins_list';
update public.social_accounts set workspace_id = tests.get_supabase_uid('wp_admin') where id = :'admins_account';
select tests.authenticate_as('wp_admin');
select throws_ok(
  format($$insert into public.campaigns (name, account_id, sequences) values ('Mixed', %L, '{"messages": ["hi"]}')$$, :'admins_account'),
  '23503', 'Choose one of your social accounts for this campaign', 'no campaign on another workspace''s account');
select throws_ok(
  format($$insert into public.campaigns (name, account_id, lead_list_id, sequences) values ('Mixed', %L, %L, '{"messages": ["hi"]}')$$,
         :'account', :'admins_list'),
  '23503', 'Choose one of your lead lists as the lead source', 'nor from another workspace''s list');
select throws_ok(
  format($$insert into public.lead_list_members (lead_list_id, scraping_lead_id) values (%L, %L)$$, :'admins_list', :'lead'),
  '42501', null, 'a list of another workspace takes no lead of this one');

-- A member of two workspaces sees only the active one's rows.
select is((select count(*)::int from public.lead_lists where id = :'admins_list'), 0,
  'with the shared workspace active, the admin does not see their own workspace''s list');
select public.set_active_workspace(tests.get_supabase_uid('wp_admin'));
select results_eq($$select id from public.lead_lists$$, format('values (%L::uuid)', :'admins_list'),
  'switched to their own workspace, they see its list and none of the shared one''s');
select is((select count(*)::int from public.campaigns), 0, '... nor its campaigns');

-- A removed member sees nothing of the workspace on their next statement.
select tests.authenticate_as('wp_editor');
select isnt((select count(*)::int from public.campaigns where workspace_id = :'ws'), 0, 'an editor sees the campaigns');
select tests.clear_authentication();
delete from public.workspace_members where workspace_id = :'ws' and user_id = tests.get_supabase_uid('wp_editor');
select tests.authenticate_as('wp_editor');
select is((select count(*)::int from public.campaigns where workspace_id = :'ws'), 0, 'removed, they see none');
select is((select count(*)::int from public.inbox_threads where workspace_id = :'ws'), 0, '... nor the inbox');
select tests.clear_authentication();
select is(pg_temp.attempt('wp_editor', 'select 1',
  format($$with x as (update public.campaigns set name = 'Taken' where workspace_id = %L returning 1) select count(*)::int from x$$, :'ws')),
  'refused', '... and change nothing');
select tests.clear_authentication();

select * from finish();
rollback;
