-- The scheduler with frozen time (internal.clock): windows in the campaign's time zone across DST,
-- active days, random days off, every cap, one tick per account, no duplicate ticks, and the other
-- work it queues (scraping runs, inbox syncs, warm-up steps) and the daily bookkeeping.
begin;
select plan(65);

-- pg_cron runs the scheduler every minute on this database: keep it off our rows until rollback.
lock table public.campaign_leads, public.campaigns, public.social_accounts, public.scraping_campaigns in exclusive mode;

select tests.create_supabase_user('sched');
select tests.create_supabase_user('other');
select tests.give_plan('sched', 100);

-- A running campaign on its own account with one lead due since long ago.
create function pg_temp.campaign(p_name text, p_schedule jsonb, p_account uuid default null, p_account_tz text default 'UTC')
returns uuid language plpgsql as $$
declare
  account uuid := coalesce(p_account, tests.create_social_account('sched', 'acct_' || substr(md5(p_name), 1, 10), 'twitter', p_account_tz));
  campaign uuid;
begin
  insert into public.campaigns (user_id, name, account_id, sequences, schedule, status)
  values (tests.get_supabase_uid('sched'), p_name, account, '{"messages": ["hi"]}', p_schedule, 'running')
  returning id into campaign;
  insert into public.campaign_leads (campaign_id, user_id, username, next_send_at)
  values (campaign, tests.get_supabase_uid('sched'), 'lead_' || substr(md5(p_name), 1, 8), '2000-01-01');
  return campaign;
end $$;

create function pg_temp.account_of(p_campaign uuid) returns uuid language sql as $$
  select account_id from public.campaigns where id = p_campaign $$;

-- Runs the scheduler at an instant and answers how many ticks are waiting or being worked for the campaign.
create function pg_temp.ticks_at(p_campaign uuid, p_at timestamptz) returns integer language plpgsql as $$
begin
  perform tests.freeze_time(p_at);
  perform internal.enqueue_due_work();
  return (select count(*) from pgboss.job
           where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign and state < 'completed');
end $$;

-- Forgets the campaign's ticks and send gap, as if the runner had worked them, for the next check.
create function pg_temp.reset(p_campaign uuid) returns void language sql as $$
  delete from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign;
  update public.campaigns set next_action_at = null where id = p_campaign;
$$;

-- What the runner does with a campaign's tick: works it, finishes it, sets the gap to the next send.
create function pg_temp.runner_finishes(p_campaign uuid, p_next_send timestamptz) returns void language sql as $$
  update pgboss.job set state = 'completed', completed_on = now()
   where name = 'campaign.tick' and singleton_key = 'campaign:' || p_campaign and state < 'completed';
  update public.campaigns set next_action_at = p_next_send where id = p_campaign;
$$;

create function pg_temp.always_open(p_days_off boolean default false) returns jsonb language sql as $$
  select jsonb_build_object('timezone', 'UTC', 'timeFrom', '00:00', 'timeTo', '23:59', 'randomDaysOff', p_days_off,
    'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]'::jsonb) $$;

-- Windows, time zones and DST ------------------------------------------------------------------
select pg_temp.campaign('ny', '{"timezone": "America/New_York", "timeFrom": "09:00", "timeTo": "17:00", "randomDaysOff": false}') as ny \gset
select is(pg_temp.ticks_at(:'ny', '2025-03-07 13:30Z'), 0, 'New York, Friday 08:30 EST: before the window, no tick');
select is(pg_temp.ticks_at(:'ny', '2025-03-10 13:30Z'), 1, 'New York, Monday 09:30 EDT (clocks went forward on Sunday): tick');
select pg_temp.reset(:'ny');
select is(pg_temp.ticks_at(:'ny', '2025-03-10 20:59Z'), 1, 'New York, 16:59 EDT: still inside the window');
select pg_temp.reset(:'ny');
select is(pg_temp.ticks_at(:'ny', '2025-03-10 21:00Z'), 0, 'New York, 17:00 EDT: the window''s end is exclusive');
select is(pg_temp.ticks_at(:'ny', '2025-03-08 15:00Z'), 0, 'New York, Saturday 10:00: not an active day');
select is(pg_temp.ticks_at(:'ny', '2025-11-03 13:30Z'), 0, 'New York, Monday 08:30 EST (clocks went back on Sunday): no tick');
select is(pg_temp.ticks_at(:'ny', '2025-11-03 14:30Z'), 1, 'New York, Monday 09:30 EST: tick');

select pg_temp.campaign('berlin', '{"timezone": "Europe/Berlin", "timeFrom": "09:00", "timeTo": "17:00", "randomDaysOff": false}') as berlin \gset
select is(pg_temp.ticks_at(:'berlin', '2025-10-24 06:30Z'), 0, 'Berlin, Friday 08:30 CEST: no tick');
select is(pg_temp.ticks_at(:'berlin', '2025-10-24 07:30Z'), 1, 'Berlin, Friday 09:30 CEST: tick');
select pg_temp.reset(:'berlin');
select is(pg_temp.ticks_at(:'berlin', '2025-10-27 07:30Z'), 0, 'Berlin, Monday 08:30 CET after summer time ended: no tick');
select is(pg_temp.ticks_at(:'berlin', '2025-10-27 08:30Z'), 1, 'Berlin, Monday 09:30 CET: tick');

select pg_temp.campaign('tokyo', '{"timezone": "Asia/Tokyo", "timeFrom": "09:00", "timeTo": "10:00", "activeDays": ["monday"], "randomDaysOff": false}') as tokyo \gset
select is(pg_temp.ticks_at(:'tokyo', '2025-03-09 00:30Z'), 0, 'Tokyo, Sunday 09:30 local: not an active day');
select is(pg_temp.ticks_at(:'tokyo', '2025-03-10 00:15Z'), 1, 'Tokyo, Monday 09:15 local while it is 00:15 in UTC: tick');

-- Random days off ------------------------------------------------------------------------------
select pg_temp.campaign('daysoff', pg_temp.always_open(true)) as daysoff \gset
select min(d) as day_off from public.campaign_days_off(:'daysoff', '2025-01-01', 60) d \gset
select ok(:'day_off' is not null, 'the campaign has a random day off in its first 60 days');
select is(pg_temp.ticks_at(:'daysoff', (:'day_off'::date + time '12:00') at time zone 'UTC'), 0, 'no tick on a random day off');
select is(pg_temp.ticks_at(:'daysoff', (:'day_off'::date - 1 + time '12:00') at time zone 'UTC'),
          case when exists (select 1 from public.campaign_days_off(:'daysoff', :'day_off'::date - 1, 1)) then 0 else 1 end,
          'the day before (not a day off): tick');
select pg_temp.reset(:'daysoff');
update public.campaigns set schedule = schedule || '{"randomDaysOff": false}' where id = :'daysoff';
select is(pg_temp.ticks_at(:'daysoff', (:'day_off'::date + time '12:00') at time zone 'UTC'), 1,
          'with random days off switched off the same day ticks');
update public.campaigns set schedule = schedule || '{"randomDaysOff": true}' where id = :'daysoff';
-- The rate over 40 fixed campaign ids and a year each (14,640 draws): one campaign's own year is a
-- binomial count whose tails reach past any narrow band about once in a hundred random ids.
select ok((select avg(internal.is_random_day_off(md5('days-off ' || n)::uuid, date '2025-01-01' + d)::int)
             from generate_series(1, 40) n, generate_series(0, 365) d) between 0.125 and 0.16,
          'about one active day in seven is a day off (12.5 % to 16 % over 40 campaigns and a year)');
select results_eq(
  format($$select * from public.campaign_days_off(%L, '2025-01-01', 366)$$, :'daysoff'),
  format($$select * from public.campaign_days_off(%L, '2025-01-01', 366)$$, :'daysoff'),
  'days off are deterministic per campaign and date');
update public.campaigns set schedule = schedule || '{"activeDays": ["monday"]}' where id = :'daysoff';
select is_empty(
  format($$select d from public.campaign_days_off(%L, '2025-01-01', 366) d where extract(isodow from d) <> 1$$, :'daysoff'),
  'days off fall only on active days');
update public.campaigns set schedule = pg_temp.always_open(true) where id = :'daysoff';
select tests.authenticate_as('sched');
select ok((select count(*) from public.campaign_days_off(:'daysoff', '2025-01-01', 60)) > 0, 'the owner lists the days off');
select tests.authenticate_as('other');
select is_empty(format($$select * from public.campaign_days_off(%L, '2025-01-01', 60)$$, :'daysoff'),
  'another customer cannot list them');
select tests.clear_authentication();

-- Caps -----------------------------------------------------------------------------------------
select pg_temp.campaign('cap-campaign', pg_temp.always_open()) as c1 \gset
update public.campaigns set daily_message_limit = 5, messages_sent_today = 5, sent_today_on = '2025-03-12' where id = :'c1';
select is(pg_temp.ticks_at(:'c1', '2025-03-12 12:00Z'), 0, 'campaign daily limit reached: no tick');
update public.campaigns set messages_sent_today = 5, sent_today_on = '2025-03-11' where id = :'c1';
select is(pg_temp.ticks_at(:'c1', '2025-03-12 12:01Z'), 1, 'yesterday''s count does not hold today back');

select pg_temp.campaign('cap-account', pg_temp.always_open()) as c2 \gset
update public.social_accounts set daily_message_limit = 20, messages_sent_today = 20, sent_today_on = '2025-03-12' where id = pg_temp.account_of(:'c2');
select is(pg_temp.ticks_at(:'c2', '2025-03-12 12:00Z'), 0, 'account daily limit reached: no tick');
update public.social_accounts set messages_sent_today = 19 where id = pg_temp.account_of(:'c2');
select is(pg_temp.ticks_at(:'c2', '2025-03-12 12:01Z'), 1, 'one below the account limit: tick');

select pg_temp.campaign('cap-warmup', pg_temp.always_open()) as c3 \gset
update public.social_accounts set warmup_phase = 1, daily_message_limit = 50, messages_sent_today = 10, sent_today_on = '2025-03-12'
 where id = pg_temp.account_of(:'c3');
select is(pg_temp.ticks_at(:'c3', '2025-03-12 12:00Z'), 0, 'warm-up phase 1 allows 10 a day: no tick after 10');
update public.social_accounts set messages_sent_today = 9 where id = pg_temp.account_of(:'c3');
select is(pg_temp.ticks_at(:'c3', '2025-03-12 12:01Z'), 1, '... tick after 9');

select pg_temp.campaign('cap-ceiling', pg_temp.always_open()) as c4 \gset
update public.campaigns set daily_message_limit = 500 where id = :'c4';
update public.social_accounts set daily_message_limit = 500, messages_sent_today = 450, sent_today_on = '2025-03-12' where id = pg_temp.account_of(:'c4');
select is(pg_temp.ticks_at(:'c4', '2025-03-12 12:00Z'), 0, 'the 450-a-day platform ceiling holds whatever the limits say');
update public.social_accounts set messages_sent_today = 449 where id = pg_temp.account_of(:'c4');
select is(pg_temp.ticks_at(:'c4', '2025-03-12 12:01Z'), 1, '... 449 sent: tick');

select pg_temp.campaign('cap-zone', pg_temp.always_open(), null, 'Pacific/Auckland') as c5 \gset
update public.social_accounts set daily_message_limit = 3, messages_sent_today = 3, sent_today_on = '2025-03-13' where id = pg_temp.account_of(:'c5');
select is(pg_temp.ticks_at(:'c5', '2025-03-12 12:00Z'), 0, 'the account''s day is its own: already 13 March in Auckland, limit reached');
update public.social_accounts set sent_today_on = '2025-03-12' where id = pg_temp.account_of(:'c5');
select is(pg_temp.ticks_at(:'c5', '2025-03-12 12:01Z'), 1, '12 March (UTC''s date) is yesterday in Auckland: tick');

select tests.authenticate_as_runner();
select is(internal.sends_left_today(:'c4'), 1, 'the runner asks how many sends are left before sending (ceiling 450 - 449)');
select is(internal.sends_left_today(:'c3'), 1, '... warm-up 10 - 9');
select tests.clear_authentication();

-- One tick at a time ---------------------------------------------------------------------------
select pg_temp.campaign('dup', pg_temp.always_open()) as dup \gset
select is(pg_temp.ticks_at(:'dup', '2025-03-12 12:00Z'), 1, 'a due campaign gets a tick');
select is(pg_temp.ticks_at(:'dup', '2025-03-12 12:00Z'), 1, 'running the scheduler again the same minute adds none');
update pgboss.job set state = 'active', started_on = now() where name = 'campaign.tick' and singleton_key = 'campaign:' || :'dup';
select is(pg_temp.ticks_at(:'dup', '2025-03-12 12:01Z'), 1, 'nor does the next minute while the runner works the tick');
select pg_temp.runner_finishes(:'dup', '2025-03-12 12:06Z');
select is(pg_temp.ticks_at(:'dup', '2025-03-12 12:05Z'), 0, 'after the tick the campaign waits for the runner''s next send time');
select is(pg_temp.ticks_at(:'dup', '2025-03-12 12:06Z'), 1, 'the next send time arrives: tick');
select throws_ok(
  format($$insert into pgboss.job (name, data, singleton_key, policy) values ('campaign.tick', '{}', 'campaign:' || %L, 'short')$$, :'dup'),
  '23505', null, 'pg-boss itself refuses a second waiting tick with the same singleton key');
select results_eq(
  format($$select data, policy, retry_limit from pgboss.job where name = 'campaign.tick' and singleton_key = 'campaign:' || %L and state = 'created'$$, :'dup'),
  format($$values (jsonb_build_object('campaignId', %L::text, 'accountId', %L::text), 'short', 0)$$, :'dup', pg_temp.account_of(:'dup')),
  'a tick carries {campaignId, accountId} and is never retried by pg-boss');

select pg_temp.campaign('shared-a', pg_temp.always_open()) as shared_a \gset
select pg_temp.campaign('shared-b', pg_temp.always_open(), pg_temp.account_of(:'shared_a')) as shared_b \gset
select tests.freeze_time('2025-03-12 13:00Z');
select internal.enqueue_due_work();
select is((select count(*)::int from pgboss.job where name = 'campaign.tick' and data ->> 'accountId' = pg_temp.account_of(:'shared_a')::text), 1,
  'two due campaigns on one account: one tick a minute');
select pg_temp.runner_finishes((data ->> 'campaignId')::uuid, '2025-03-12 13:05Z')
  from pgboss.job where name = 'campaign.tick' and data ->> 'accountId' = pg_temp.account_of(:'shared_a')::text;
select tests.freeze_time('2025-03-12 13:01Z');
select internal.enqueue_due_work();
select results_eq(
  format($$select count(distinct data ->> 'campaignId')::int from pgboss.job where name = 'campaign.tick' and data ->> 'accountId' = %L$$, pg_temp.account_of(:'shared_a')),
  $$values (2)$$, 'the next minute it is the other campaign''s turn');

update public.campaigns set status = 'queued', started_at = null where id = :'ny';
select pg_temp.reset(:'ny');
select is(pg_temp.ticks_at(:'ny', '2025-03-12 15:00Z'), 1, 'a queued campaign gets its first tick');
select results_eq(format($$select status from public.campaigns where id = %L$$, :'ny'),
  $$values ('running')$$, '... and is running from then on');

-- What stops ticks ---------------------------------------------------------------------------------
select pg_temp.campaign('stops', pg_temp.always_open()) as stops \gset
update public.social_accounts set status = 'paused', paused_until = '2025-03-12 14:00Z' where id = pg_temp.account_of(:'stops');
select is(pg_temp.ticks_at(:'stops', '2025-03-12 13:00Z'), 0, 'a paused account does not send');
select is(pg_temp.ticks_at(:'stops', '2025-03-12 14:00Z'), 1, 'once its pause is over it is active again and sends');
select pg_temp.reset(:'stops');
update public.social_accounts set status = 'flagged' where id = pg_temp.account_of(:'stops');
select is(pg_temp.ticks_at(:'stops', '2025-03-12 14:01Z'), 0, 'a flagged account does not send');
update public.social_accounts set status = 'active' where id = pg_temp.account_of(:'stops');
update public.campaigns set status = 'paused' where id = :'stops';
select is(pg_temp.ticks_at(:'stops', '2025-03-12 14:02Z'), 0, 'a paused campaign does not send');
update public.campaigns set status = 'running' where id = :'stops';
update public.campaign_leads set state = 'sent' where campaign_id = :'stops';
update public.campaign_leads set next_send_at = '2025-03-15' where campaign_id = :'stops';
-- Completion is checked for each campaign in its own minute of ten: run in the campaign's minute.
select mod(hashtext(:'stops')::bigint + 2147483648, 10)::int as stops_minute \gset
select is(pg_temp.ticks_at(:'stops', '2025-03-12 14:10Z'::timestamptz + :'stops_minute'::int * interval '1 minute'), 0,
  'no tick while the only follow-up is due later');
select results_eq(format($$select status from public.campaigns where id = %L$$, :'stops'), $$values ('running')$$,
  '... and the campaign keeps running for it');
update public.campaign_leads set next_send_at = null where campaign_id = :'stops';
update public.campaign_leads set state = 'uncertain'
 where id = (select id from public.campaign_leads where campaign_id = :'stops' order by id limit 1);
select is(pg_temp.ticks_at(:'stops', '2025-03-12 14:20Z'::timestamptz + :'stops_minute'::int * interval '1 minute'), 0,
  'a send still being checked: no tick');
select results_eq(format($$select status from public.campaigns where id = %L$$, :'stops'), $$values ('running')$$,
  'a send still being checked keeps the campaign running: the check may put its lead back due');
update public.campaign_leads set state = 'sent' where campaign_id = :'stops' and state = 'uncertain';
select is(pg_temp.ticks_at(:'stops', '2025-03-12 14:30Z'::timestamptz + :'stops_minute'::int * interval '1 minute'), 0,
  'nothing left to send: no tick');
select results_eq(
  format($$select c.status, n.type from public.campaigns c join public.notifications n on n.metadata ->> 'campaignId' = c.id::text where c.id = %L$$, :'stops'),
  $$values ('completed', 'campaign_completed')$$, '... the campaign is completed and the customer told');

select pg_temp.campaign('orphan', pg_temp.always_open()) as orphan \gset
update public.campaigns set account_id = null where id = :'orphan';
select is(pg_temp.ticks_at(:'orphan', '2025-03-12 14:05Z'), 0, 'a campaign whose account was removed gets no tick');
select results_eq(format($$select c.status, n.type from public.campaigns c join public.notifications n on n.metadata ->> 'campaignId' = c.id::text where c.id = %L$$, :'orphan'),
  $$values ('error', 'campaign_failed')$$, '... it stops with an error the customer hears about');

insert into public.campaign_leads (campaign_id, user_id, username, state, updated_at)
values (:'stops', tests.get_supabase_uid('sched'), 'in_flight', 'sending', now() - interval '1 hour');
select internal.enqueue_due_work();
select results_eq(format($$select state from public.campaign_leads where campaign_id = %L and username = 'in_flight'$$, :'stops'),
  $$values ('uncertain')$$, 'a send not confirmed within 30 minutes becomes uncertain, never a blind retry');

-- Other work -----------------------------------------------------------------------------------
insert into public.scraping_campaigns (user_id, name, account_id, sources, status)
values (tests.get_supabase_uid('sched'), 'Scrape', pg_temp.account_of(:'c1'), '[{"type": "keyword", "value": "ai"}]', 'running')
returning id as scrape \gset
select tests.freeze_time('2025-03-12 15:00Z');
select internal.enqueue_due_work();
select internal.enqueue_due_work();
select results_eq(format($$select data, singleton_key from pgboss.job where name = 'scrape.run' and data ->> 'scrapingCampaignId' = %L$$, :'scrape'),
  format($$values (jsonb_build_object('scrapingCampaignId', %1$L::text), 'scraping:' || %1$L)$$, :'scrape'),
  'a running scraping campaign gets one scrape.run {scrapingCampaignId}');
select results_eq(format($$select next_run_at from public.scraping_campaigns where id = %L$$, :'scrape'),
  $$values ('2025-03-12 15:30Z'::timestamptz)$$, '... and its next run waits for the runner');

select tests.create_social_account('sched', 'inbox_acct') as inbox_acct \gset
select mod(hashtext(:'inbox_acct')::bigint + 2147483648, 60)::int as slot \gset
select tests.freeze_time('2025-03-12 16:00Z'::timestamptz + ((:'slot'::int + 1) % 60) * interval '1 minute');
select internal.enqueue_due_work();
select is((select count(*)::int from pgboss.job where name = 'inbox.sync' and data ->> 'accountId' = :'inbox_acct'), 0,
  'an idle account''s inbox is not synced outside its minute of the hour');
select tests.freeze_time('2025-03-12 16:00Z'::timestamptz + :'slot'::int * interval '1 minute');
select internal.enqueue_due_work();
select results_eq(format($$select data, singleton_key from pgboss.job where name = 'inbox.sync' and data ->> 'accountId' = %L$$, :'inbox_acct'),
  format($$values (jsonb_build_object('accountId', %1$L::text), 'inbox:' || %1$L)$$, :'inbox_acct'),
  'in its minute it gets an inbox.sync {accountId}');

select tests.create_social_account('sched', 'warming', 'twitter', 'America/Los_Angeles') as warming \gset
update public.social_accounts set warmup_phase = 1, warmup_started_at = '2025-03-01 08:00Z', messages_sent_today = 7, sent_today_on = '2025-03-07'
 where id = :'warming';
select tests.freeze_time('2025-03-08 08:05Z');
select internal.enqueue_due_work();
select internal.enqueue_due_work();
select results_eq(format($$select warmup_phase, messages_sent_today from public.social_accounts where id = %L$$, :'warming'),
  $$values (2, 0)$$, 'at midnight in Los Angeles, a week into warm-up: phase 2, and today''s counter starts at zero');
select results_eq(format($$select type from public.notifications where metadata ->> 'accountId' = %L$$, :'warming'),
  $$values ('warmup_phase_completed')$$, '... the customer is told once');
select results_eq(
  format($$select data, singleton_key, start_after > now() + interval '8 hours' from pgboss.job where name = 'warmup.step' and data ->> 'accountId' = %L$$, :'warming'),
  format($$values (jsonb_build_object('accountId', %1$L::text), 'warmup:' || %1$L || ':2025-03-08', true)$$, :'warming'),
  '... and one warm-up step {accountId} is queued for the local daytime');

select * from finish();
rollback;
