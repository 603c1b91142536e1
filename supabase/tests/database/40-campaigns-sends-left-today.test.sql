-- One answer to "how many more DMs today": the scheduler, the runner's queries and the dashboard's
-- account_daily_usage() give the same number for the same account under warm-up, the platform
-- ceiling, the campaign's own limit and an account whose day (Auckland) is not the UTC day; and the
-- rule stays inlined into the scheduler's scan (it runs every minute over every campaign).
begin;
select plan(31);

-- pg_cron runs the scheduler every minute on this database: keep it off our rows until rollback.
lock table public.campaign_leads, public.campaigns, public.social_accounts, public.scraping_campaigns in exclusive mode;

select tests.create_supabase_user('left');
select tests.give_plan('left', 100);

-- An always-open running campaign with one due lead, on its own account in the given time zone.
create function pg_temp.campaign(p_name text, p_account_tz text default 'UTC') returns uuid language plpgsql as $$
declare
  account uuid := tests.create_social_account('left', 'acct_' || substr(md5(p_name), 1, 10), 'twitter', p_account_tz);
  campaign uuid;
begin
  insert into public.campaigns (user_id, name, account_id, sequences, schedule, status, daily_message_limit)
  values (tests.get_supabase_uid('left'), p_name, account, '{"messages": ["hi"]}',
          jsonb_build_object('timezone', 'UTC', 'timeFrom', '00:00', 'timeTo', '23:59', 'randomDaysOff', false,
                             'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]'::jsonb),
          'running', 500)
  returning id into campaign;
  insert into public.campaign_leads (campaign_id, user_id, username, next_send_at)
  values (campaign, tests.get_supabase_uid('left'), 'lead_' || substr(md5(p_name), 1, 8), '2000-01-01');
  return campaign;
end $$;

create function pg_temp.account_of(p_campaign uuid) returns uuid language sql as $$
  select account_id from public.campaigns where id = p_campaign $$;

-- The scheduler's answer: whether it queues a tick for the campaign now (it does while sends are left).
create function pg_temp.scheduler_ticks(p_campaign uuid) returns boolean language plpgsql as $$
begin
  delete from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign;
  update public.campaigns set next_action_at = null where id = p_campaign;
  perform internal.enqueue_due_work();
  return exists (select 1 from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign and state < 'completed');
end $$;

-- The runner's numbers, as the runner's role reads them: the campaign's allowance and, for pacing,
-- the account's cap minus today's count.
create function pg_temp.runner_left(p_campaign uuid) returns integer language plpgsql as $$
declare
  result integer;
begin
  perform tests.authenticate_as_runner();
  select internal.sends_left_today(p_campaign) into result;
  perform tests.clear_authentication();
  return result;
end $$;

create function pg_temp.runner_account_left(p_campaign uuid) returns integer language plpgsql as $$
declare
  result integer;
begin
  perform tests.authenticate_as_runner();
  select internal.account_daily_cap(a, p) - internal.account_sent_today(a, internal.now()) into result
    from public.campaigns c
    join public.social_accounts a on a.id = c.account_id
    join public.platforms p on p.id = a.platform_id
   where c.id = p_campaign;
  perform tests.clear_authentication();
  return result;
end $$;

-- The dashboard's (and the api's account view's) answer, as the customer reads it.
create function pg_temp.dashboard_left(p_campaign uuid) returns integer language plpgsql as $$
declare
  result integer;
begin
  perform tests.authenticate_as('left');
  select u.remaining_today into result from public.account_daily_usage() u where u.account_id = pg_temp.account_of(p_campaign);
  perform tests.clear_authentication();
  return result;
end $$;

select tests.freeze_time('2025-03-12 12:00Z');

-- Warm-up: phase 2 allows 20 a day, whatever the account's own limit says.
select pg_temp.campaign('warmup') as warmup \gset
update public.social_accounts set warmup_phase = 2, daily_message_limit = 50, messages_sent_today = 7, sent_today_on = '2025-03-12'
 where id = pg_temp.account_of(:'warmup');
select is(pg_temp.runner_left(:'warmup'), 13, 'warm-up phase 2, 7 sent: the runner may send 13 more');
select is(pg_temp.runner_account_left(:'warmup'), 13, '... its pacing reads the same 13 for the account');
select is(pg_temp.dashboard_left(:'warmup'), 13, '... the dashboard shows 13 left');
select ok(pg_temp.scheduler_ticks(:'warmup'), '... the scheduler ticks');
update public.social_accounts set messages_sent_today = 20 where id = pg_temp.account_of(:'warmup');
select is(pg_temp.runner_left(:'warmup'), 0, 'warm-up phase 2, 20 sent: none left for the runner');
select is(pg_temp.runner_account_left(:'warmup'), 0, '... nor for its pacing');
select is(pg_temp.dashboard_left(:'warmup'), 0, '... the dashboard shows 0');
select ok(not pg_temp.scheduler_ticks(:'warmup'), '... the scheduler does not tick');

-- The platform ceiling: 450 a day whatever the limits say.
select pg_temp.campaign('ceiling') as ceiling \gset
update public.social_accounts set warmup_phase = 5, daily_message_limit = 500, messages_sent_today = 440, sent_today_on = '2025-03-12'
 where id = pg_temp.account_of(:'ceiling');
select is(pg_temp.runner_left(:'ceiling'), 10, 'limit 500, 440 sent: the 450 ceiling leaves the runner 10');
select is(pg_temp.runner_account_left(:'ceiling'), 10, '... its pacing reads 10');
select is(pg_temp.dashboard_left(:'ceiling'), 10, '... the dashboard shows 10');
select ok(pg_temp.scheduler_ticks(:'ceiling'), '... the scheduler ticks');
update public.social_accounts set messages_sent_today = 450 where id = pg_temp.account_of(:'ceiling');
select is(pg_temp.runner_left(:'ceiling'), 0, '450 sent: none left for the runner');
select is(pg_temp.dashboard_left(:'ceiling'), 0, '... the dashboard shows 0');
select ok(not pg_temp.scheduler_ticks(:'ceiling'), '... the scheduler does not tick');

-- The account's own day: at 12:00 UTC on 12 March it is already 01:00 on 13 March in Auckland.
select pg_temp.campaign('auckland', 'Pacific/Auckland') as auckland \gset
update public.social_accounts set warmup_phase = 5, daily_message_limit = 50, messages_sent_today = 30, sent_today_on = '2025-03-13'
 where id = pg_temp.account_of(:'auckland');
select is(pg_temp.runner_left(:'auckland'), 20, 'Auckland, 30 sent on its 13 March: the runner may send 20 more');
select is(pg_temp.runner_account_left(:'auckland'), 20, '... its pacing reads 20');
select is(pg_temp.dashboard_left(:'auckland'), 20, '... the dashboard shows 20');
update public.social_accounts set messages_sent_today = 50 where id = pg_temp.account_of(:'auckland');
select ok(not pg_temp.scheduler_ticks(:'auckland'), 'Auckland, 50 sent on its 13 March: the scheduler does not tick');
select is(pg_temp.dashboard_left(:'auckland'), 0, '... the dashboard shows 0');
update public.social_accounts set sent_today_on = '2025-03-12' where id = pg_temp.account_of(:'auckland');
select is(pg_temp.runner_left(:'auckland'), 50, '50 sent on 12 March, already yesterday in Auckland: the runner may send 50');
select is(pg_temp.runner_account_left(:'auckland'), 50, '... its pacing reads 50');
select is(pg_temp.dashboard_left(:'auckland'), 50, '... the dashboard shows 50');
select ok(pg_temp.scheduler_ticks(:'auckland'), '... the scheduler ticks');

-- The campaign's own limit binds before the account's; the dashboard sums what its campaigns may send.
select pg_temp.campaign('campaign-limit') as small \gset
update public.campaigns set daily_message_limit = 5, messages_sent_today = 2, sent_today_on = '2025-03-12' where id = :'small';
update public.social_accounts set warmup_phase = 5, daily_message_limit = 50 where id = pg_temp.account_of(:'small');
select is(pg_temp.runner_left(:'small'), 3, 'campaign limit 5, 2 sent: the runner may send 3 more');
select is(pg_temp.dashboard_left(:'small'), 3, '... the account''s only sending campaign holds the dashboard to 3');
update public.campaigns set messages_sent_today = 5 where id = :'small';
select is(pg_temp.runner_left(:'small'), 0, 'campaign limit reached: none left for the runner');
select ok(not pg_temp.scheduler_ticks(:'small'), '... the scheduler does not tick');

-- Inlined: the scheduler's plan carries the rule as plain column arithmetic, no function call per row.
-- The scheduler passes its instant as a plpgsql variable, which reaches the planner as a parameter
-- (a constant here); a costly argument used more than once, like a call, would keep it from inlining.
create function pg_temp.plan_text() returns text language plpgsql as $$
declare
  line text;
  plan text := '';
begin
  for line in explain (verbose, costs off)
    select c.id from public.campaigns c
      join public.social_accounts a on a.id = c.account_id
      join public.platforms p on p.id = a.platform_id
     where internal.campaign_sends_left_today(c, a, p, timestamptz '2025-03-12 12:00Z') > 0
  loop
    plan := plan || line || E'\n';
  end loop;
  return plan;
end $$;
select ok(pg_temp.plan_text() like '%daily_message_ceiling%', 'the plan reads the caps'' columns directly');
select ok(pg_temp.plan_text() !~ 'sends_left_today|account_daily_cap|account_sent_today|warmup_daily_limit',
          'no function of the rule is called per row: all of it is inlined');
select ok(pg_temp.plan_text() !~ 'ROW\(|\.\*', 'no whole row is built to pass to it');

select * from finish();
rollback;
