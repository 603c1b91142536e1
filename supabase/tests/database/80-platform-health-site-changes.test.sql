-- A site change: the runner records it, the platform action pauses fleet-wide (the scheduler
-- stops queuing it) without touching the account, customers with an account on the platform are
-- told once, the canary's pass resolves it and resumes; a change that comes back within the hour
-- waits for an operator. Who may read what: operators only through the service role, the runner
-- its pauses, customers only their own platforms' notice.
begin;
select plan(42);

-- pg_cron runs the scheduler and the canary every minute on this database: keep them off our rows.
lock table public.campaign_leads, public.campaigns, public.social_accounts, public.scraping_campaigns,
  public.platform_action_pauses, public.platform_incidents, public.platform_canary_runs in exclusive mode;
-- Pauses are fleet-wide: start from none (rolled back at the end).
delete from public.platform_action_pauses;

select tests.create_supabase_user('sc_x_owner');
select tests.create_supabase_user('sc_ig_owner');
select tests.create_supabase_user('sc_admin', null, '{"role": "admin"}');
select tests.give_plan('sc_x_owner', 5);
select tests.give_plan('sc_ig_owner', 5);
select tests.create_social_account('sc_x_owner', 'sc_x_account') as x_account \gset
select tests.create_social_account('sc_x_owner', 'sc_x_account_2') as x_account2 \gset
select tests.create_social_account('sc_ig_owner', 'sc_ig_account', 'instagram') as ig_account \gset
select tests.freeze_time('2026-11-27 10:00:00+00');

insert into public.campaigns (user_id, name, account_id, sequences, status, schedule)
values (tests.get_supabase_uid('sc_x_owner'), 'Site change', :'x_account', '{"messages": ["hi"]}', 'running',
        '{"timezone": "UTC", "timeFrom": "00:00", "timeTo": "23:59", "randomDaysOff": false,
          "activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]}')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, username, next_send_at) values (:'campaign', 'sc_lead', '2026-11-27 09:00+00');

create function pg_temp.ticks() returns integer language plpgsql as $$
begin
  perform internal.enqueue_due_work();
  return (select count(*) from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || (
            select id from public.campaigns where name = 'Site change') and state < 'completed');
end $$;

-- Who may read -----------------------------------------------------------------------------------

select tests.authenticate_as('sc_x_owner');
select throws_ok($$select * from public.platform_incidents$$, '42501', 'permission denied for table platform_incidents',
  'a customer cannot read incidents');
select throws_ok($$select * from public.platform_action_pauses$$, '42501', 'permission denied for table platform_action_pauses',
  'nor the pauses themselves (only the notice of their own platforms)');
select throws_ok($$select * from public.platform_incident_outlines$$, '42501',
  'permission denied for table platform_incident_outlines', 'nor page outlines');
select throws_ok($$select * from public.platform_packs$$, '42501', 'permission denied for table platform_packs',
  'nor platform packs');
select throws_ok($$select internal.record_site_change('twitter', 'send', 's', '/', '{}', 'job', null, null, null)$$, '42501',
  null, 'a customer cannot record a site change');
select throws_ok($$select public.admin_resume_platform_action('twitter', 'send', null)$$, '42501', null,
  'nor resume one');
select tests.authenticate_as('sc_admin');
select throws_ok($$select * from public.platform_incidents$$, '42501', 'permission denied for table platform_incidents',
  'an operator''s browser session neither: operators read through the admin function (service role)');
select tests.authenticate_as_anon();
select throws_ok($$select * from public.platform_notices()$$, '42501', null, 'anon has no notices');
select tests.authenticate_as_runner();
select throws_ok($$select * from public.platform_incidents$$, '42501', 'permission denied for table platform_incidents',
  'the runner records incidents through the function only');
select is((select count(*)::int from public.platform_action_pauses), 0, 'the runner reads the pauses');
select tests.clear_authentication();

-- Nothing paused: the campaign ticks ---------------------------------------------------------------

select is(pg_temp.ticks(), 1, 'before any site change the campaign gets its tick');
delete from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || :'campaign';
update public.campaigns set next_action_at = null where id = :'campaign';

-- Two accounts meet the same changed page (28-site-change-evidence: why one is not enough) ----------

select tests.authenticate_as_runner();
select internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/1234-5678',
  '{"lines": ["div[data-testid=xchatEmbedRoute]", "  #shadow-root"], "truncated": false}', 'job', 'x-2026.11.26',
  :'x_account', null) as incident \gset
select internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/1234-5678',
  '{"lines": ["div[data-testid=xchatEmbedRoute]", "  #shadow-root"], "truncated": false}', 'job', null, :'x_account2', null);
select tests.clear_authentication();

select results_eq(
  $$select platform, action, step, path, status, sightings, source, pack_version, auto_resume from public.platform_incidents$$,
  $$values ('twitter', 'send', 'open thread: composer', '/i/chat/#-#', 'open', 2, 'job', 'x-2026.11.26', true)$$,
  'the incident: platform, action, step, the path with its ids redacted, two sightings');
select results_eq($$select action from public.platform_action_pauses where platform = 'twitter'$$, $$values ('send')$$,
  'sending on X is paused fleet-wide');
select results_eq($$select outline -> 'lines' ->> 0 from public.platform_incident_outlines$$,
  $$values ('div[data-testid=xchatEmbedRoute]')$$, 'the outline waits for the admin function to file it in storage');
select results_eq(
  $$select status, trust_score, flag_reason, paused_until from public.social_accounts where username = 'sc_x_account'$$,
  $$select 'active'::text, (select trust_score from public.social_accounts where username = 'sc_ig_account'), null::text, null::timestamptz$$,
  'the account keeps its status, trust and breaker: the site changed, not the account');
select results_eq(
  $$select type, title from public.notifications where user_id = tests.get_supabase_uid('sc_x_owner')$$,
  $$values ('platform_paused', 'Sending on X is paused')$$, 'the X customer is told');
select ok((select message from public.notifications where user_id = tests.get_supabase_uid('sc_x_owner'))
            like '%Nothing was lost%', 'and that nothing was lost');
select is((select count(*)::int from public.notifications where user_id = tests.get_supabase_uid('sc_ig_owner')), 0,
  'a customer without an X account is not');
select ok(exists (select 1 from public.system_logs where level = 'error' and metadata ->> 'incidentId' = :'incident'),
  'operators see an error line (the admin Logs tab and Recent Activity)');

select tests.authenticate_as('sc_x_owner');
select results_eq($$select platform, action, title from public.platform_notices()$$,
  $$values ('twitter', 'send', 'Sending on X is paused')$$, 'the dashboard notice for the X customer');
select tests.authenticate_as('sc_ig_owner');
select is((select count(*)::int from public.platform_notices()), 0, 'none for the Instagram-only customer');
select tests.clear_authentication();

select is(pg_temp.ticks(), 0, 'the scheduler queues no tick while sending on X is paused');
select results_eq($$select next_send_at from public.campaign_leads where username = 'sc_lead'$$,
  $$values ('2026-11-27 09:00+00'::timestamptz)$$, 'the lead stays due: nothing is lost');

select tests.authenticate_as_runner();
select is(internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/99', '{"lines": []}', 'job', null,
  :'x_account', null), :'incident'::uuid, 'a further sighting counts on the same incident');
select tests.clear_authentication();
select is((select sightings from public.platform_incidents where id = :'incident'), 3, 'three sightings');
select is((select count(*)::int from public.notifications where user_id = tests.get_supabase_uid('sc_x_owner')), 1,
  'customers are told once per pause');

-- A run of the canary passes: resolved, resumed, customers told ---------------------------------------

insert into public.platform_canary_runs (platform, trigger, status, created_at) values ('twitter', 'schedule', 'running', internal.now())
returning id as run \gset
select tests.authenticate_as_runner();
select is(internal.finish_canary_run(:'run', 'passed', '[]', 'x-2026.11.26', null, 1200) -> 'resolved' -> 'resumed',
  '["send"]'::jsonb, 'the canary passes: sending resumes');
select tests.clear_authentication();
select is((select status || '/' || resolution from public.platform_incidents where id = :'incident'), 'resolved/canary',
  'the incident is resolved by the canary');
select is((select count(*)::int from public.platform_action_pauses), 0, 'no pause left');
select results_eq(
  $$select title from public.notifications where user_id = tests.get_supabase_uid('sc_x_owner') and type = 'platform_resumed'$$,
  $$values ('Sending on X has resumed')$$, 'the customer is told it resumed');
select tests.authenticate_as('sc_x_owner');
select is((select count(*)::int from public.platform_notices()), 0, 'the dashboard notice clears');
select tests.clear_authentication();
select is(pg_temp.ticks(), 1, 'the scheduler ticks the campaign again: the due lead is sent after the pause');

-- The same step breaks again within the hour: an operator resumes it ---------------------------------

select tests.authenticate_as_runner();
select internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/1', '{}', 'job', null, :'x_account', null) as again \gset
select internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/1', '{}', 'canary', null, null, null);
select tests.clear_authentication();
select is((select auto_resume from public.platform_incidents where id = :'again'), false,
  'back within an hour of the canary resolving it: it waits for an operator');
insert into public.platform_canary_runs (platform, trigger, status, created_at) values ('twitter', 'schedule', 'running', internal.now())
returning id as run2 \gset
select tests.authenticate_as_runner();
select is(internal.finish_canary_run(:'run2', 'passed', '[]', null, null, 900) -> 'resolved' -> 'resumed', '[]'::jsonb,
  'a passing canary does not resume a flapping change');
select tests.clear_authentication();
select is((select count(*)::int from public.platform_action_pauses), 1, 'still paused');

select tests.authenticate_as_service_role();
select is(public.admin_resume_platform_action('twitter', 'send', tests.get_supabase_uid('sc_admin')) -> 'resumed',
  '["send"]'::jsonb, 'an operator resumes it by hand');
select is(public.admin_resume_platform_action('twitter', 'send', null), null, 'resuming what is not paused says so (null)');
select tests.clear_authentication();
select is((select status || '/' || resolution || '/' || (resolved_by = tests.get_supabase_uid('sc_admin'))
             from public.platform_incidents where id = :'again'), 'resolved/operator/true', 'resolved by that operator');

select tests.authenticate_as_runner();
select internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/1', '{}', 'job', null, :'x_account', null) as third \gset
select internal.record_site_change('twitter', 'send', 'open thread: composer', '/i/chat/1', '{}', 'job', null, :'x_account2', null);
select tests.clear_authentication();
select is((select auto_resume from public.platform_incidents where id = :'third'), false, 'it comes back once more');
insert into public.platform_canary_runs (platform, trigger, status, created_at) values ('twitter', 'publish', 'running', internal.now())
returning id as run3 \gset
select tests.authenticate_as_runner();
select is(internal.finish_canary_run(:'run3', 'passed', '[]', 'x-fixed', null, 900) -> 'resolved' -> 'resumed', '["send"]'::jsonb,
  'the canary''s check of a newly published pack (the operator''s fix) resumes it');
select tests.clear_authentication();

-- A paused session pauses everything; its end re-runs account tests that waited ----------------------

update public.social_accounts set status = 'testing' where id = :'ig_account';
select tests.authenticate_as_runner();
select internal.record_site_change('instagram', 'session', 'login: password input', '/accounts/login/', '{}', 'job', null, :'ig_account', null);
select internal.record_site_change('instagram', 'session', 'login: password input', '/accounts/login/', '{}', 'canary', null, null, null);
select is(internal.platform_action_paused('instagram', 'scrape'), true, 'a paused Instagram session pauses its scraping too');
select tests.clear_authentication();
delete from pgboss.job where name = 'account.test' and singleton_key = 'account:' || :'ig_account';
select tests.authenticate_as_service_role();
select public.admin_resume_platform_action('instagram', 'session', null);
select tests.clear_authentication();
select is((select count(*)::int from pgboss.job where name = 'account.test' and singleton_key = 'account:' || :'ig_account'
             and state < 'completed'), 1, 'the account test that waited for Instagram''s sign-in is queued again');

select * from finish();
rollback;
