-- A cold minute (after a deploy or an outage: every campaign due, every inbox unread) is spread
-- over the next minutes instead of queued in one run: at most `reachflow.tick_cap` campaign ticks a
-- run (1,000 in production), the longest-waiting first; an account in use not read for over half an
-- hour in its own minute of the quarter hour.
begin;
select plan(10);

-- pg_cron runs the scheduler every minute on this database: keep it off our rows until rollback.
lock table public.campaign_leads, public.campaigns, public.social_accounts in exclusive mode;

select tests.create_supabase_user('cold');
select tests.give_plan('cold', 10);
select tests.freeze_time('2026-12-01 12:00:00+00');
-- only this file's campaigns are due (the database's seed has its own)
update public.campaigns set status = 'paused' where status in ('queued', 'running', 'active');

create function pg_temp.campaign(p_name text, p_waiting interval) returns uuid language plpgsql as $$
declare
  account uuid := tests.create_social_account('cold', p_name || '_x');
  campaign uuid;
begin
  insert into public.campaigns (user_id, name, account_id, sequences, schedule, status, next_action_at)
  values (tests.get_supabase_uid('cold'), p_name, account, '{"messages": ["hi"]}',
          jsonb_build_object('timezone', 'UTC', 'timeFrom', '00:00', 'timeTo', '23:59', 'randomDaysOff', false,
            'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]'::jsonb),
          'running', null)
  returning id into campaign;
  insert into public.campaign_leads (campaign_id, user_id, username, next_send_at)
  values (campaign, tests.get_supabase_uid('cold'), 'lead_of_' || p_name, '2000-01-01');
  -- after the lead (adding leads moves the campaign's next send)
  update public.campaigns set next_action_at = internal.now() - p_waiting where id = campaign;
  -- its inbox was read a minute ago: only the ticks are under test here
  update public.social_accounts set last_synced_at = internal.now() - interval '1 minute' where id = account;
  return campaign;
end $$;

create function pg_temp.queued(p_campaign uuid) returns boolean language sql as $$
  select exists (select 1 from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign
                    and state < 'completed') $$;

select pg_temp.campaign('newest', '1 minute') as newest \gset
select pg_temp.campaign('oldest', '3 hours') as oldest \gset
select pg_temp.campaign('middle', '1 hour') as middle \gset

set local reachflow.tick_cap = 2;
select is(internal.enqueue_due_work() -> 'campaignTicks', '2'::jsonb, 'a run queues no more ticks than the cap');
select is((select metadata -> 'tickCapReached' from public.system_logs where service = 'scheduler' order by created_at desc, id desc limit 1),
  'true'::jsonb, 'and its summary in the Logs tab says it queued the cap');
select ok(pg_temp.queued(:'oldest') and pg_temp.queued(:'middle'), 'the campaigns waiting longest go first');
select is(pg_temp.queued(:'newest'), false, 'the one due a minute ago waits for the next run');
select tests.freeze_time('2026-12-01 12:01:00+00');
select is((internal.enqueue_due_work() ->> 'campaignTicks')::int, 1,
  'the next minute queues it (the other two still hold their waiting ticks)');
select ok(pg_temp.queued(:'newest'), 'so every due campaign is queued within a few minutes');
reset reachflow.tick_cap;

-- Inbox syncs of accounts in use: a long backlog in each account's own minute of the quarter hour.
select tests.create_social_account('cold', 'unread_x') as unread \gset
select tests.create_social_account('cold', 'recent_x') as recent \gset
insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('cold'), 'Unread', :'unread', '{"messages": ["hi"]}', 'running'),
       (tests.get_supabase_uid('cold'), 'Recent', :'recent', '{"messages": ["hi"]}', 'running');
update public.social_accounts set last_synced_at = null where id = :'unread';
update public.social_accounts set last_synced_at = internal.now() - interval '20 minutes' where id = :'recent';
select mod(hashtext(:'unread')::bigint + 2147483648, 15)::int as slot \gset

create function pg_temp.sync_due(p_account uuid, p_at timestamptz) returns boolean language sql as $$
  select exists (select 1 from internal.inbox_syncs_due(p_at) d where d.account_id = p_account) $$;

select is(pg_temp.sync_due(:'recent', internal.now()), true,
  'an account in use read 20 minutes ago is due at once, as before');
select is(pg_temp.sync_due(:'unread', '2026-12-01 13:00:00+00'::timestamptz + mod(:'slot' + 1, 15) * interval '1 minute'), false,
  'one never read is not due outside its own minute of the quarter hour');
select is(pg_temp.sync_due(:'unread', '2026-12-01 13:00:00+00'::timestamptz + :'slot' * interval '1 minute'), true,
  'it is due in its own minute');
-- 15 minutes in a row: exactly one of them
select is((select count(*)::int from generate_series(0, 14) m
            where pg_temp.sync_due(:'unread', '2026-12-01 13:00:00+00'::timestamptz + m * interval '1 minute')), 1,
  'so a backlog of unread accounts comes over 15 minutes, each once');

select * from finish();
rollback;
