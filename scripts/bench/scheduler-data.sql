-- Bench data for scripts/bench-scheduler.ts (a throwaway `bench` instance, never dev or test):
-- 1,000 customers with 5 accounts each (5,000 accounts), 2 running campaigns per account (10,000),
-- 1,000,000 campaign leads. Customer 1 is the big one: 10 campaigns with 10,000 leads each
-- (100,000), 60,000 message logs over 30 days and 20,000 scraped leads.
-- Loaded by the bench cluster's superuser with triggers off (session_replication_role = replica), so
-- the columns triggers would derive (user_id, next_send_at, counters) are written directly.

set session_replication_role = replica;

insert into auth.users (id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select ('b0000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'authenticated', 'authenticated',
       'bench' || i || '@bench.test', '{"provider": "email"}', '{}', now() - interval '90 days', now()
  from generate_series(1, 1000) i;
insert into public.user_profiles (id, full_name, timezone, onboarding_completed, post_onboarding)
select id, 'Bench customer', 'Europe/Berlin', true, true from auth.users where email like 'bench%@bench.test';
-- Each customer's personal workspace (its id is theirs), owned by them and active, as sign-up makes it.
insert into public.workspaces (id, name, created_by) select id, 'Personal', id from auth.users where email like 'bench%@bench.test';
insert into public.workspace_members (workspace_id, user_id, role)
select id, id, 'owner' from auth.users where email like 'bench%@bench.test';
update public.user_profiles set active_workspace_id = id where full_name = 'Bench customer';

-- Accounts 0-39 days into warm-up (phase = weeks + 1, up to 5), today's step already taken.
insert into public.social_accounts (id, user_id, platform_id, username, status, daily_message_limit, warmup_phase, warmup_started_at,
  warmup_step_on, timezone, messages_sent_today, sent_today_on, created_at, workspace_id)
select ('ac000000-0000-4000-9000-' || lpad(to_hex(i), 12, '0'))::uuid,
       ('b0000000-0000-4000-8000-' || lpad(to_hex(1 + (i - 1) / 5), 12, '0'))::uuid,
       p.id, 'bench_account_' || i, 'active', 50, least(5, 1 + (i % 40) / 7), now() - (i % 40) * interval '1 day',
       (now() at time zone z.tz)::date, z.tz, i % 12, (now() at time zone z.tz)::date, now() - (i % 60) * interval '1 day',
       ('b0000000-0000-4000-8000-' || lpad(to_hex(1 + (i - 1) / 5), 12, '0'))::uuid
  from generate_series(1, 5000) i
  cross join lateral (select (array['UTC', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo',
                                    'Australia/Sydney', 'Asia/Kolkata', 'America/Sao_Paulo'])[1 + i % 8] as tz) z
  join public.platforms p on p.name = case when i % 3 = 0 then 'instagram' else 'twitter' end;

-- Half the campaigns are open around the clock, half 09:00-17:00 in their account's zone.
insert into public.campaigns (id, user_id, account_id, platform_id, name, message_template, sequences, schedule, status,
  daily_message_limit, messages_sent_today, sent_today_on, messages_sent, total_attempts, response_count, started_at, created_at, workspace_id)
select ('ca000000-0000-4000-9000-' || lpad(to_hex(i), 12, '0'))::uuid, a.user_id, a.id, a.platform_id, 'Bench campaign ' || i, 'hi',
       '{"messages": ["hi"], "noFirstnameMessage": "", "followUpEnabled": true, "followUpMessages": ["bump"], "followUpDays": 3}',
       jsonb_build_object('timezone', a.timezone, 'timeFrom', case when i % 2 = 0 then '00:00' else '09:00' end,
         'timeTo', case when i % 2 = 0 then '23:59' else '17:00' end,
         'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]'::jsonb, 'randomDaysOff', true),
       'running', 50, i % 30, (now() at time zone a.timezone)::date, 600, 640, 90, now() - interval '20 days', now() - interval '21 days', a.workspace_id
  from generate_series(1, 10000) i
  join public.social_accounts a on a.id = ('ac000000-0000-4000-9000-' || lpad(to_hex(1 + (i - 1) / 2), 12, '0'))::uuid;

-- 30% pending (due), 10% waiting for a follow-up later, 50% done, 10% skipped.
insert into public.campaign_leads (campaign_id, user_id, username, profile_data, state, skip_reason, current_step, next_send_at,
  last_sent_at, replied_at, collected_at, created_at, updated_at, workspace_id)
select c.id, c.user_id, 'lead_' || c.n || '_' || j,
       jsonb_build_object('display_name', 'Lead ' || j, 'company', 'Company ' || (j % 97)),
       case when j % 10 < 3 then 'pending' when j % 10 < 9 then 'sent' else 'skipped' end,
       case when j % 10 = 9 then 'already_contacted' end,
       case when j % 10 < 3 then 0 when j % 10 = 3 then 1 when j % 10 < 9 then 2 else 0 end,
       case when j % 10 < 3 then now() - interval '1 day' when j % 10 = 3 then now() + (1 + j % 72) * interval '1 hour' end,
       case when j % 10 between 3 and 8 then now() - (j % 30) * interval '1 day' end,
       case when j % 10 = 8 then now() - (j % 29) * interval '1 day' end,
       now() - (j % 45) * interval '1 day' - (j % 1440) * interval '1 minute', now(), now(), c.user_id
  from (select id, user_id, row_number() over (order by id) as n from public.campaigns where name like 'Bench campaign %') c
 cross join lateral generate_series(1, case when c.n <= 10 then 10000 when c.n <= 910 then 91 else 90 end) j;

-- The big customer's history: one log per contacted lead over the last 30 days.
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, user_id, step, message_type, status, target_username,
  message_sent, sent_at, workspace_id)
select l.campaign_id, l.id, c.account_id, l.user_id, 0, 'initial',
       case when abs(hashtext(l.username)) % 20 = 0 then 'failed' else 'sent' end, l.username, 'hi', l.last_sent_at, l.workspace_id
  from public.campaign_leads l
  join public.campaigns c on c.id = l.campaign_id
 where l.user_id = 'b0000000-0000-4000-8000-000000000001' and l.last_sent_at is not null;

-- The daily figures the dm_logs triggers would have kept.
insert into public.campaign_daily_stats (campaign_id, user_id, workspace_id, day, attempts, sent, failed)
select l.campaign_id, l.user_id, l.workspace_id, (l.sent_at at time zone (c.schedule ->> 'timezone'))::date,
       count(*), count(*) filter (where l.status = 'sent'), count(*) filter (where l.status <> 'sent')
  from public.dm_logs l
  join public.campaigns c on c.id = l.campaign_id
 where l.user_id = 'b0000000-0000-4000-8000-000000000001'
 group by 1, 2, 3, 4;
insert into public.campaign_daily_stats as s (campaign_id, user_id, workspace_id, day, replies)
select l.campaign_id, l.user_id, l.workspace_id, (l.replied_at at time zone (c.schedule ->> 'timezone'))::date, count(*)
  from public.campaign_leads l
  join public.campaigns c on c.id = l.campaign_id
 where l.user_id = 'b0000000-0000-4000-8000-000000000001' and l.replied_at is not null
 group by 1, 2, 3, 4
on conflict (campaign_id, day) do update set replies = excluded.replies;

insert into public.scraping_campaigns (id, user_id, account_id, platform_id, name, sources, target_count, status, collected_count,
  leads_collected, started_at, workspace_id)
select ('5c000000-0000-4000-9000-' || lpad(to_hex(i), 12, '0'))::uuid, a.user_id, a.id, a.platform_id, 'Bench scrape ' || i,
       '[{"type": "hashtag", "value": "bench"}]', 10000, 'completed', 10000, 9000, now() - interval '40 days', a.workspace_id
  from generate_series(1, 2) i
  join public.social_accounts a on a.id = ('ac000000-0000-4000-9000-' || lpad(to_hex(i), 12, '0'))::uuid;
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type,
  source_value, collected_at, workspace_id)
select ('5c000000-0000-4000-9000-' || lpad(to_hex(1 + j % 2), 12, '0'))::uuid, 'b0000000-0000-4000-8000-000000000001',
       'scraped_' || j, jsonb_build_object('full_name', 'Scraped ' || j), j % 10 = 0, 'hashtag', 'bench',
       now() - (j % 50) * interval '1 day' - (j % 600) * interval '1 minute', 'b0000000-0000-4000-8000-000000000001'
  from generate_series(1, 20000) j;

set session_replication_role = origin;
