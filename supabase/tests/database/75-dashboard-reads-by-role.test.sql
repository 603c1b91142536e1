-- The summary cards and today's overview ask the membership once and filter every read by it
-- themselves (security definer, the tables' policies do not apply): a role that reads sees the
-- workspace's figures, an agent, an outsider and a removed member (on their next statement) none.
begin;
select plan(8);

select tests.create_supabase_user('dr_' || r) from unnest(array['owner', 'viewer', 'agent', 'outsider']) r;
select tests.get_supabase_uid('dr_owner') as ws \gset
insert into public.workspace_members (workspace_id, user_id, role)
values (:'ws', tests.get_supabase_uid('dr_viewer'), 'viewer'), (:'ws', tests.get_supabase_uid('dr_agent'), 'agent');
update public.user_profiles set timezone = 'UTC', active_workspace_id = :'ws'
 where id in (select user_id from public.workspace_members where workspace_id = :'ws');
update public.user_profiles set timezone = 'UTC' where id = tests.get_supabase_uid('dr_outsider');

select tests.give_plan('dr_owner', 5);
select tests.freeze_time('2025-03-12 12:00Z');
select tests.create_social_account('dr_owner', 'dr_x') as account \gset
insert into public.campaigns (user_id, name, account_id, sequences, status, started_at)
values (:'ws', 'Running', :'account', '{"messages": ["hi"]}', 'running', '2025-03-11 09:00Z') returning id as campaign \gset
insert into public.campaign_leads (campaign_id, user_id, username, replied_at)
values (:'campaign', :'ws', 'dr_lead', '2025-03-12 10:00Z') returning id as lead \gset
insert into public.dm_logs (campaign_id, campaign_lead_id, step, status, target_username, sent_at)
values (:'campaign', :'lead', 0, 'sent', 'dr_lead', '2025-03-12 09:00Z');

select tests.authenticate_as('dr_viewer');
select results_eq($$select sent_today, replies_today from public.todays_overview()$$, $$values (1::bigint, 1::bigint)$$,
  'a viewer''s overview counts the workspace''s send and reply today');
select results_eq($$select active_accounts, active_campaigns from public.dashboard_summary()$$, $$values (1::bigint, 1::bigint)$$,
  'a viewer''s summary counts the workspace''s account and campaign');

select tests.authenticate_as('dr_agent');
select results_eq($$select sent_today, replies_today from public.todays_overview()$$, $$values (0::bigint, 0::bigint)$$,
  'an agent (inbox only) is shown nothing of them');
select results_eq($$select messages_sent, active_accounts, active_campaigns from public.dashboard_summary()$$,
  $$values (0::bigint, 0::bigint, 0::bigint)$$, '... in the summary either');

select tests.authenticate_as('dr_outsider');
select results_eq($$select sent_today, replies_today from public.todays_overview()$$, $$values (0::bigint, 0::bigint)$$,
  'an outsider is shown nothing of them');
select results_eq($$select messages_sent, active_accounts, active_campaigns from public.dashboard_summary()$$,
  $$values (0::bigint, 0::bigint, 0::bigint)$$, '... in the summary either');
select tests.clear_authentication();

delete from public.workspace_members where workspace_id = :'ws' and user_id = tests.get_supabase_uid('dr_viewer');
select tests.authenticate_as('dr_viewer');
select results_eq($$select sent_today, replies_today from public.todays_overview()$$, $$values (0::bigint, 0::bigint)$$,
  'a removed viewer is shown nothing of them on the next statement');
select results_eq($$select messages_sent, active_accounts, active_campaigns from public.dashboard_summary()$$,
  $$values (0::bigint, 0::bigint, 0::bigint)$$, '... in the summary either');
select tests.clear_authentication();

select * from finish();
rollback;
