-- Today's real allowance as the customer reads it, computed from rows: the account's cap is the one
-- the runner and the scheduler apply (warm-up, own limit, platform ceiling, a recovering account's
-- share), inbox answers count against it, and a campaign whose cap is used up says whose cap it is
-- and when sending resumes (the cap's next day, in the next open window of its schedule).
begin;
select plan(23);

select tests.create_supabase_user('allow');
select tests.create_supabase_user('allow_other');
select tests.give_plan('allow', 10);

select tests.freeze_time('2025-03-12 12:00Z');

-- A running campaign, window 09:00-17:00 UTC every day, with one lead due, on the given account.
create function pg_temp.campaign(p_account uuid, p_limit integer default 50) returns uuid language plpgsql as $$
declare
  campaign uuid;
begin
  insert into public.campaigns (user_id, name, account_id, sequences, schedule, status, daily_message_limit)
  values (tests.get_supabase_uid('allow'), 'Allowance ' || p_account, p_account, '{"messages": ["hi"]}',
          jsonb_build_object('timezone', 'UTC', 'timeFrom', '09:00', 'timeTo', '17:00', 'randomDaysOff', false,
                             'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]'::jsonb),
          'running', p_limit)
  returning id into campaign;
  insert into public.campaign_leads (campaign_id, user_id, username, next_send_at)
  values (campaign, tests.get_supabase_uid('allow'), 'lead_' || substr(md5(campaign::text), 1, 8), '2025-03-12 11:00Z');
  return campaign;
end $$;

-- A new X account on its third day of warm-up (phase 1: 10 a day) with its own limit left at 50:
-- 9 campaign DMs and 1 inbox answer today.
select tests.create_social_account('allow', 'warming_up') as warming \gset
update public.social_accounts
   set warmup_phase = 1, daily_message_limit = 50, warmup_started_at = '2025-03-10 08:00Z',
       messages_sent_today = 10, sent_today_on = '2025-03-12'
 where id = :'warming';
select pg_temp.campaign(:'warming') as warming_campaign \gset
with thread as (
  insert into public.inbox_threads (user_id, account_id, peer_username)
  values (tests.get_supabase_uid('allow'), :'warming', 'answered_lead') returning id)
insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key, sent_at)
select thread.id, tests.get_supabase_uid('allow'), :'warming', 'outgoing', 'Thanks!', 'reachflow', 'sent', 'answer-1', '2025-03-12 10:30Z'
  from thread;

-- Recovering from a stop signal: trust 0.25 sends half of a warmed-up limit of 40.
select tests.create_social_account('allow', 'recovering') as recovering \gset
update public.social_accounts set daily_message_limit = 40, trust_score = 0.25, messages_sent_today = 20, sent_today_on = '2025-03-12'
 where id = :'recovering';
select pg_temp.campaign(:'recovering') as recovering_campaign \gset

-- The customer's own limit (30) below warm-up phase 3 (35), with room left.
select tests.create_social_account('allow', 'own_limit') as own \gset
update public.social_accounts set warmup_phase = 3, daily_message_limit = 30, messages_sent_today = 12, sent_today_on = '2025-03-12'
 where id = :'own';
select pg_temp.campaign(:'own') as own_campaign \gset

-- A campaign that used its own limit of 5 on an account with room.
select tests.create_social_account('allow', 'roomy') as roomy \gset
select pg_temp.campaign(:'roomy', 5) as small_campaign \gset
update public.campaigns set messages_sent_today = 5, sent_today_on = '2025-03-12' where id = :'small_campaign';

select tests.authenticate_as('allow');

select results_eq(
  $$select account_cap, cap_reason, sent_today, answers_today, warmup_day, remaining_today
      from public.account_daily_usage() where username = 'warming_up'$$,
  $$values (10, 'warmup', 10, 1, 3, 0)$$,
  'warm-up day 3: today''s allowance is 10 (not its own 50), 10 sent of which 1 inbox answer, none left');
select results_eq(
  $$select account_cap, cap_reason, warmup_day from public.account_daily_usage() where username = 'recovering'$$,
  $$values (20, 'recovering', null::integer)$$,
  'trust 0.25 on a limit of 40: 20 allowed today, because it is recovering; warmed up');
select results_eq(
  $$select account_cap, cap_reason, remaining_today from public.account_daily_usage() where username = 'own_limit'$$,
  $$values (30, 'account', 18)$$,
  'its own limit 30 below warm-up''s 35: 30 allowed, 18 left');
select results_eq(
  $$select account_cap, cap_reason, remaining_today from public.account_daily_usage() where username = 'roomy'$$,
  $$values (50, 'account', 0)$$,
  'a warmed-up account with room: 50 allowed, but its only campaign leaves none today');

select results_eq(
  $$select cause, cap, account_username, resumes_at from public.campaign_sending_waits() where campaign_id = '$$ || :'warming_campaign' || $$'$$,
  $$values ('warmup', 10, 'warming_up', timestamptz '2025-03-13 09:00Z')$$,
  'the warm-up campaign waits on @warming_up''s warm-up limit of 10 until tomorrow''s window opens');
select results_eq(
  $$select cause, cap, resumes_at from public.campaign_sending_waits() where campaign_id = '$$ || :'recovering_campaign' || $$'$$,
  $$values ('recovering', 20, timestamptz '2025-03-13 09:00Z')$$,
  'the recovering account''s campaign waits on its reduced limit of 20');
select results_eq(
  $$select cause, cap, resumes_at from public.campaign_sending_waits() where campaign_id = '$$ || :'small_campaign' || $$'$$,
  $$values ('campaign', 5, timestamptz '2025-03-13 09:00Z')$$,
  'the campaign that used its own limit of 5 says so');
select is_empty(
  $$select 1 from public.campaign_sending_waits() where campaign_id = '$$ || :'own_campaign' || $$'$$,
  'a campaign with sends left is not waiting on a cap');
select is((select count(*)::integer from public.campaign_sending_waits()), 3, 'three campaigns wait, no more');

-- The same numbers as the runner reads them before a send.
select tests.clear_authentication();
select tests.authenticate_as_runner();
select is(internal.sends_left_today(:'warming_campaign'), 0, 'the runner may send nothing more from @warming_up today');
select is(internal.sends_left_today(:'recovering_campaign'), 0, '... nor from the recovering account at 20 sent');
select is(internal.sends_left_today(:'own_campaign'), 18, '... and 18 from @own_limit');
select tests.clear_authentication();

-- The admin's Manage drawer reads the same allowance.
select is((public.admin_social_account_detail(:'warming') ->> 'allowedToday')::integer, 10,
          'the admin sees @warming_up allowed 10 today');
select is((public.admin_social_account_detail(:'warming') ->> 'messagesSentToday')::integer, 10,
          '... and 10 sent');

-- Past midnight the account's day has turned: at 08:00 the window is still closed, so not yet
-- waiting on a cap (the count is yesterday's), and the warm-up day is 4.
select tests.freeze_time('2025-03-13 08:00Z');
select tests.authenticate_as('allow');
select results_eq(
  $$select sent_today, answers_today, warmup_day, remaining_today from public.account_daily_usage() where username = 'warming_up'$$,
  $$values (0, 0, 4, 10)$$,
  'the next day: nothing sent yet, warm-up day 4, 10 allowed again');
select is_empty(
  $$select 1 from public.campaign_sending_waits() where campaign_id = '$$ || :'warming_campaign' || $$'$$,
  '... and the campaign no longer waits on the cap');
select tests.clear_authentication();

-- A window that opens on Mondays only: waiting on Wednesday resumes the next Monday at 09:00.
select tests.freeze_time('2025-03-12 12:00Z');
update public.campaigns set schedule = schedule || '{"activeDays": ["monday"]}' where id = :'warming_campaign';
select tests.authenticate_as('allow');
select is(
  (select resumes_at from public.campaign_sending_waits() where campaign_id = :'warming_campaign'),
  timestamptz '2025-03-17 09:00Z',
  'a Monday-only schedule resumes on Monday at the window''s start');
select tests.clear_authentication();

-- An account whose day ends at its own midnight: Auckland (UTC+13) turns at 11:00 UTC, inside an
-- all-day window, so sending resumes right then.
update public.social_accounts set timezone = 'Pacific/Auckland', sent_today_on = '2025-03-13' where id = :'warming';
update public.campaigns set schedule = schedule || '{"activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"], "timeFrom": "00:00", "timeTo": "23:59"}'
 where id = :'warming_campaign';
select tests.authenticate_as('allow');
select is(
  (select resumes_at from public.campaign_sending_waits() where campaign_id = :'warming_campaign'),
  timestamptz '2025-03-13 11:00Z',
  'an Auckland account resumes at Auckland''s midnight');
select tests.clear_authentication();

-- Another customer sees none of it.
select tests.authenticate_as('allow_other');
select is_empty($$select 1 from public.campaign_sending_waits()$$, 'another customer sees no waiting campaign');
select is_empty($$select 1 from public.account_daily_usage()$$, '... and no account usage');
select tests.clear_authentication();

-- One rate rule: the runner's pacing (rateFactor) spaces DMs with the same factors.
select is(internal.trust_rate_factor(0.8), 1::numeric, 'trust 0.8 sends at full speed');
select is(internal.trust_rate_factor(0.25), 0.5::numeric, 'trust 0.25 sends half');
select is(internal.trust_rate_factor(0.05), 0.25::numeric, 'trust 0.05 sends a quarter, no less');

select * from finish();
rollback;
