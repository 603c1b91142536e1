-- Demo data for a fresh local stack: a customer with data on every screen and an operator.
--   demo@reachflow.test  / demo-password   (customer, trialing Growth plan for 2 accounts)
--   admin@reachflow.test / admin-password  (app_metadata.role = admin)
-- Dates are relative to now(), so the dashboard looks alive whenever the stack starts.
-- social_account_credentials stay empty: only the functions can encrypt credentials.

-- Users ----------------------------------------------------------------------------------------

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous)
values
  ('00000000-0000-0000-0000-000000000000', 'd0000000-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
   'demo@reachflow.test', extensions.crypt('demo-password', extensions.gen_salt('bf')), now() - interval '40 days',
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Dana Demo"}',
   now() - interval '40 days', now() - interval '1 day', now() - interval '1 day', false, false),
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
   'admin@reachflow.test', extensions.crypt('admin-password', extensions.gen_salt('bf')), now() - interval '90 days',
   '{"provider": "email", "providers": ["email"], "role": "admin"}', '{"full_name": "Ada Admin"}',
   now() - interval '90 days', now() - interval '1 day', now() - interval '1 day', false, false);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', u.last_sign_in_at, u.created_at, u.updated_at
  from auth.users u
 where u.id in ('d0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001');

-- Profiles were created by the sign-up trigger; the demo customer has finished onboarding.
update public.user_profiles
   set business_name = 'Demo Growth Co',
       onboarding_completed = true,
       post_onboarding = true,
       timezone = 'Europe/Berlin',
       onboarding_answers = '{"mainGoals": ["lead_generation", "sales"], "targetAudience": "B2B SaaS founders", "dailyMessageGoal": 50, "businessType": "agency", "billingPeriod": "yearly", "selectedPlan": "growth", "accountCount": 2}'
 where id = 'd0000000-0000-4000-8000-000000000001';

update public.user_profiles
   set business_name = 'Reachflow', onboarding_completed = true, post_onboarding = true
 where id = 'a0000000-0000-4000-8000-000000000001';

-- Billing: a Starter plan paid for two months, then Growth for 2 accounts, now in its trial -------

insert into public.subscriptions (id, user_id, status, plan_type, billing_period, accounts_purchased, stripe_customer_id,
  stripe_subscription_id, stripe_price_id, current_period_start, current_period_end, cancel_at_period_end, canceled_at, created_at)
values
  ('5b000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001', 'canceled', 'starter', 'monthly', 1,
   'cus_demo0001', 'sub_demo_starter', 'price_starter_monthly', now() - interval '39 days', now() - interval '9 days',
   false, now() - interval '2 days', now() - interval '69 days'),
  ('5b000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'trialing', 'growth', 'monthly', 2,
   'cus_demo0001', 'sub_demo_growth', 'price_growth_tier1_monthly', now() - interval '2 days', now() + interval '1 day',
   false, null, now() - interval '2 days');
update public.subscriptions set trial_end = now() + interval '1 day' where id = '5b000000-0000-4000-8000-000000000002';

insert into public.payments (user_id, subscription_id, amount, currency, status, payment_type, description, stripe_invoice_id, created_at)
values
  ('d0000000-0000-4000-8000-000000000001', '5b000000-0000-4000-8000-000000000001', 4900, 'usd', 'succeeded', 'subscription',
   'Starter plan (monthly)', 'in_demo_0001', now() - interval '66 days'),
  ('d0000000-0000-4000-8000-000000000001', '5b000000-0000-4000-8000-000000000001', 4900, 'usd', 'failed', 'subscription',
   'Starter plan (monthly) - card declined', 'in_demo_0002', now() - interval '39 days'),
  ('d0000000-0000-4000-8000-000000000001', '5b000000-0000-4000-8000-000000000001', 4900, 'usd', 'succeeded', 'subscription',
   'Starter plan (monthly) - retried', 'in_demo_0003', now() - interval '38 days'),
  ('d0000000-0000-4000-8000-000000000001', '5b000000-0000-4000-8000-000000000002', 0, 'usd', 'succeeded', 'subscription',
   'Growth plan, 2 accounts - 3-day free trial', 'in_demo_0004', now() - interval '2 days'),
  ('d0000000-0000-4000-8000-000000000001', '5b000000-0000-4000-8000-000000000002', 7800, 'usd', 'pending', 'subscription',
   'Growth plan, 2 accounts (monthly) - due when the trial ends', 'in_demo_0005', now() - interval '1 hour');

-- Social accounts: a warmed-up X account and an Instagram account in its second warm-up week --------

insert into public.social_accounts (id, user_id, platform_id, username, platform_user_id, status, daily_message_limit,
  warmup_phase, warmup_started_at, warmup_step_on, trust_score, requests_pending, last_login_at, last_synced_at, last_tested_at,
  has_chat_passcode, timezone, created_at)
select 'ac000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001', p.id, 'demo_growth', '1790000000000000001',
       'active', 60, 5, now() - interval '45 days', null, 0.86, 3, now() - interval '2 hours', now() - interval '9 minutes',
       now() - interval '45 days', true, 'Europe/Berlin', now() - interval '45 days'
  from public.platforms p where p.name = 'twitter';
insert into public.social_accounts (id, user_id, platform_id, username, status, daily_message_limit, warmup_phase,
  warmup_started_at, trust_score, requests_pending, last_login_at, last_synced_at, last_tested_at, timezone, created_at)
select 'ac000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', p.id, 'demo.studio', 'active', 40, 2,
       now() - interval '10 days', 0.62, 1, now() - interval '5 hours', now() - interval '4 minutes', now() - interval '10 days',
       'Europe/Berlin', now() - interval '10 days'
  from public.platforms p where p.name = 'instagram';

-- Scraping campaigns and 300 collected leads ---------------------------------------------------
-- Inserted through the same triggers the runner's writes go through, so counters, lead lists and
-- completion are what the product would have computed.

insert into public.scraping_campaigns (id, user_id, account_id, platform_id, name, sources, target_count, filters, status,
  started_at, created_at)
select x.id::uuid, 'd0000000-0000-4000-8000-000000000001', a.id, a.platform_id, x.name, x.sources::jsonb, x.target, x.filters::jsonb,
       'running', now() - x.started, now() - x.started - interval '1 hour'
  from (values
    ('5c000000-0000-4000-8000-000000000001', 'ac000000-0000-4000-8000-000000000001', 'SaaS founders on X',
     '[{"type": "followers", "value": "saasfounder"}, {"type": "hashtag", "value": "buildinpublic"}]', 100,
     '{"min_followers": 200, "max_followers": 50000, "has_bio": true}', interval '34 days'),
    ('5c000000-0000-4000-8000-000000000002', 'ac000000-0000-4000-8000-000000000002', 'Design agencies on Instagram',
     '[{"type": "hashtag", "value": "designagency"}, {"type": "following", "value": "awwwards"}]', 200,
     '{"min_followers": 500, "exclude_business": false}', interval '9 days'),
    ('5c000000-0000-4000-8000-000000000003', 'ac000000-0000-4000-8000-000000000001', 'Growth marketers',
     '[{"type": "keyword", "value": "growth marketing"}]', 100,
     '{"min_followers": 100, "verified_only": false}', interval '20 days')
  ) as x (id, account_id, name, sources, target, filters, started)
  join public.social_accounts a on a.id = x.account_id::uuid;

with names as (
  select array['olivia', 'liam', 'emma', 'noah', 'ava', 'oliver', 'sophia', 'elijah', 'mia', 'lucas', 'amelia', 'mateo',
               'harper', 'levi', 'evelyn', 'ezra', 'luna', 'asher', 'nora', 'leo', 'zoe', 'kai', 'maya', 'theo', 'ines',
               'jonas', 'lea', 'felix', 'clara', 'omar'] as first,
         array['martin', 'garcia', 'keller', 'nguyen', 'schmidt', 'rossi', 'dubois', 'silva', 'kowalski', 'jensen',
               'park', 'okafor', 'haddad', 'novak', 'berg', 'costa', 'fischer', 'moreau', 'tanaka', 'walsh'] as last,
         array['Acme Labs', 'Northwind', 'Brightline', 'Pixel & Co', 'Loopwise', 'Stackfield', 'Greenhouse Studio',
               'Orbit Analytics', 'Fablewise', 'Kitebase'] as companies,
         array['Founder', 'CEO', 'Head of Growth', 'Co-founder & CTO', 'Marketing Lead', 'Creative Director',
               'Growth Marketer', 'Product Designer'] as titles
), plan as (
  select * from (values
    ('5c000000-0000-4000-8000-000000000001'::uuid, 150, 0, '_', interval '34 days', interval '3 days'),
    ('5c000000-0000-4000-8000-000000000002'::uuid, 90, 150, '.', interval '9 days', interval '9 days'),
    ('5c000000-0000-4000-8000-000000000003'::uuid, 60, 240, '_', interval '20 days', interval '2 days')
  ) as p (campaign_id, how_many, first_index, separator, started, spread)
), generated as (
  select p.campaign_id, i, p.first_index + i as n,
         n.first[1 + (p.first_index + i) % 30] as first_name,
         n.last[1 + ((p.first_index + i) * 7) % 20] as last_name,
         p.separator, p.started, p.spread, p.how_many, n.companies, n.titles
    from plan p cross join names n cross join lateral generate_series(1, p.how_many) i
)
insert into public.scraping_campaign_leads (scraping_campaign_id, username, profile_data, is_filtered, filter_reason,
  source_type, source_value, collected_at)
select g.campaign_id,
       g.first_name || g.separator || g.last_name || (g.n % 89),
       jsonb_strip_nulls(jsonb_build_object(
         'display_name', initcap(g.first_name) || ' ' || initcap(g.last_name),
         'full_name', initcap(g.first_name) || ' ' || initcap(g.last_name),
         'bio', case when g.n % 6 = 0 then '' else g.titles[1 + g.n % 8] || ' at ' || g.companies[1 + g.n % 10] || '. Building in public.' end,
         'followers_count', case when g.n % 6 = 3 then 40 + g.n else 250 + (g.n * 137) % 20000 end,
         'verified', g.n % 11 = 0,
         'company', case when g.n % 3 <> 0 then g.companies[1 + g.n % 10] end,
         'title', case when g.n % 2 = 0 then g.titles[1 + g.n % 8] end,
         'email', case when g.n % 5 = 0 then g.first_name || '@' || replace(lower(g.companies[1 + g.n % 10]), ' ', '') || '.com' end)),
       g.n % 6 in (0, 3),
       case g.n % 6 when 0 then 'No bio' when 3 then 'Fewer followers than the minimum' end,
       case when g.campaign_id = '5c000000-0000-4000-8000-000000000001' then (array['followers', 'hashtag'])[1 + g.i % 2]
            when g.campaign_id = '5c000000-0000-4000-8000-000000000002' then (array['hashtag', 'following'])[1 + g.i % 2]
            else 'keyword' end,
       case when g.campaign_id = '5c000000-0000-4000-8000-000000000001' then (array['saasfounder', 'buildinpublic'])[1 + g.i % 2]
            when g.campaign_id = '5c000000-0000-4000-8000-000000000002' then (array['designagency', 'awwwards'])[1 + g.i % 2]
            else 'growth marketing' end,
       now() - g.started + g.spread * g.i / g.how_many
  from generated g
 order by g.campaign_id, g.i;

-- The first reached its target (the trigger completed it); the third was paused by the customer.
update public.scraping_campaigns set completed_at = now() - interval '31 days', last_run_at = now() - interval '31 days'
 where id = '5c000000-0000-4000-8000-000000000001';
update public.scraping_campaigns set status = 'paused', last_run_at = now() - interval '18 days'
 where id = '5c000000-0000-4000-8000-000000000003';
update public.scraping_campaigns set next_run_at = now() + interval '12 minutes'
 where id = '5c000000-0000-4000-8000-000000000002';

-- DM campaigns and 30 days of sends -------------------------------------------------------------
-- The running campaign's window is the whole day (and no days off) so `npm start` shows it sending
-- to the X sandbox whenever the stack starts (stack/src/demo.ts signs its account in).

insert into public.campaigns (id, user_id, account_id, platform_id, scraping_campaign_id, name, sequences, schedule,
  target_count, daily_message_limit, industry, stage, status, started_at, created_at)
select x.id::uuid, 'd0000000-0000-4000-8000-000000000001', a.id, a.platform_id, x.source::uuid, x.name, x.sequences::jsonb,
       x.schedule::jsonb, x.target, x.daily_limit, x.industry, x.stage, 'running', now() - x.started, now() - x.started - interval '2 hours'
  from (values
    ('ca000000-0000-4000-8000-000000000001', 'ac000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001',
     'SaaS founders outreach',
     '{"messages": ["Hey {name}, loved your posts about building in public. We help SaaS founders book demos on autopilot - open to a quick chat?", "", ""], "noFirstnameMessage": "Hey there, loved your posts about building in public - open to a quick chat?", "followUpEnabled": true, "followUpMessages": ["Just bumping this in case it got buried, {name}. Happy to share a 2-minute demo."], "followUpDays": 3}',
     '{"timezone": "Europe/Berlin", "timeFrom": "00:00", "timeTo": "23:59", "activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"], "randomDaysOff": false}',
     150, 50, 'SaaS', 'Outreach', interval '30 days'),
    ('ca000000-0000-4000-8000-000000000002', 'ac000000-0000-4000-8000-000000000002', '5c000000-0000-4000-8000-000000000002',
     'Agency partnerships',
     '{"messages": ["Hi {name}! Your studio''s work is stunning. Do you partner with dev shops on client projects?", "", ""], "followUpEnabled": false, "followUpMessages": [], "followUpDays": 3}',
     '{"timezone": "Europe/Berlin", "timeFrom": "10:00", "timeTo": "16:00", "activeDays": ["tuesday", "wednesday", "thursday"], "randomDaysOff": false}',
     100, 20, 'Agencies', 'Partnerships', interval '8 days'),
    ('ca000000-0000-4000-8000-000000000003', 'ac000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000003',
     'Growth marketers intro',
     '{"messages": ["Hi {name}, quick one: how are you generating leads for your clients right now?", "", ""], "followUpEnabled": false, "followUpMessages": [], "followUpDays": 3}',
     '{"timezone": "America/New_York", "timeFrom": "09:00", "timeTo": "17:00", "activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday"], "randomDaysOff": true}',
     50, 15, 'Marketing', 'Discovery', interval '19 days')
  ) as x (id, account_id, source, name, sequences, schedule, target, daily_limit, industry, stage, started)
  join public.social_accounts a on a.id = x.account_id::uuid;

-- Replays the past through the send state machine (sending -> sent/failed, replies) so every
-- counter, follow-up date and the contact ledger come out as the runner would have left them.
do $$
declare
  campaign_plan record;
  lead record;
  day_offset integer;
  local_day date;
  send_at timestamptz;
  sent_today integer;
  failed boolean;
begin
  for campaign_plan in
    select * from (values
      ('ca000000-0000-4000-8000-000000000001'::uuid, 'ac000000-0000-4000-8000-000000000001'::uuid, 30, 0, 3),
      ('ca000000-0000-4000-8000-000000000003'::uuid, 'ac000000-0000-4000-8000-000000000001'::uuid, 19, 13, 14),
      ('ca000000-0000-4000-8000-000000000002'::uuid, 'ac000000-0000-4000-8000-000000000002'::uuid, 8, 3, 7)
    ) as p (campaign_id, account_id, first_day, last_day, per_day)
  loop
    for day_offset in reverse campaign_plan.first_day .. campaign_plan.last_day loop
      local_day := (now() at time zone 'Europe/Berlin')::date - day_offset;
      -- Only days the schedule would have sent on, random days off included.
      continue when not exists (
        select 1 from public.campaigns c
         where c.id = campaign_plan.campaign_id
           and c.schedule -> 'activeDays' ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])[extract(isodow from local_day)::int]
           and not (coalesce((c.schedule ->> 'randomDaysOff')::boolean, true) and internal.is_random_day_off(c.id, local_day)));
      sent_today := 0;
      for lead in
        select l.* from public.campaign_leads l
         where l.campaign_id = campaign_plan.campaign_id and l.replied_at is null
           and (l.state = 'pending'
                or (l.state = 'sent' and l.next_send_at <= (local_day + time '17:00') at time zone 'Europe/Berlin'))
         order by l.state desc, l.collected_at
         limit campaign_plan.per_day
      loop
        send_at := (local_day + time '09:20' + sent_today * interval '47 minutes') at time zone 'Europe/Berlin';
        exit when send_at > now() - interval '10 minutes';
        sent_today := sent_today + 1;
        failed := abs(hashtext(lead.username)) % 17 = 0;
        update public.campaign_leads set state = 'sending' where id = lead.id;
        insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent,
          error, sent_at)
        values (lead.campaign_id, lead.id, campaign_plan.account_id, lead.current_step,
                case when failed then 'failed' else 'sent' end, lead.username,
                case when lead.current_step = 0
                  then 'Hey ' || initcap(split_part(replace(lead.username, '.', '_'), '_', 1)) || ', loved your posts - open to a quick chat?'
                  else 'Just bumping this in case it got buried.' end,
                case when failed then 'Cannot message this user (349)' end, send_at);
        if failed then
          update public.campaign_leads set state = 'failed', last_error = 'Cannot message this user (349)' where id = lead.id;
        else
          update public.campaign_leads set state = 'sent', last_sent_at = send_at where id = lead.id;
          -- About one lead in four answers within a day or two.
          if abs(hashtext(lead.username || 'reply')) % 4 = 0
             and send_at + (3 + abs(hashtext(lead.username)) % 30) * interval '1 hour' < now() then
            update public.campaign_leads
               set replied_at = send_at + (3 + abs(hashtext(lead.username)) % 30) * interval '1 hour',
                   reply_text = (array['Sure, send me more details!', 'Interesting - what does it cost?',
                                       'Thanks, not right now.', 'Happy to chat next week.', 'Who else uses this?',
                                       'Can you send a case study?', 'Let''s talk on Thursday.', 'stop'])
                                 [1 + abs(hashtext(lead.username || 'text')) % 8]
             where id = lead.id;
          end if;
        end if;
      end loop;
    end loop;
  end loop;
end
$$;

-- Results per message: the first campaign has two opening messages, and every replayed DM
-- says which text it used, as the runner records it. Leads who answered got the second one more
-- often, so the Analytics tab has a leader to show.
update public.campaigns
   set sequences = jsonb_set(sequences, '{messages}', jsonb_build_array(sequences -> 'messages' -> 0,
         'Hi {name}! Quick question: how do you book demos today? We automate it for SaaS founders.'))
 where id = 'ca000000-0000-4000-8000-000000000001';
insert into public.message_variants (campaign_id, step, kind, slot, template, created_at)
select c.id, t.step, t.kind, t.slot, t.text, c.started_at
  from public.campaigns c,
       lateral (select 0 as step, 'opening' as kind, (m.ord - 1)::int as slot, m.text
                  from jsonb_array_elements_text(c.sequences -> 'messages') with ordinality m (text, ord)
                 where btrim(m.text) <> ''
                union all
                select f.ord::int, 'follow_up', (f.ord - 1)::int, f.text
                  from jsonb_array_elements_text(c.sequences -> 'followUpMessages') with ordinality f (text, ord)
                 where (c.sequences ->> 'followUpEnabled')::boolean and btrim(f.text) <> '') t
 where c.user_id = 'd0000000-0000-4000-8000-000000000001';
update public.dm_logs l
   set variant_id = v.id, variant_index = v.slot,
       message_sent = case when v.step = 0 and v.slot = 1
         then 'Hi ' || initcap(split_part(replace(l.target_username, '.', '_'), '_', 1))
              || '! Quick question: how do you book demos today? We automate it for SaaS founders.'
         else l.message_sent end
  from public.campaign_leads cl, public.message_variants v
 where cl.id = l.campaign_lead_id and v.campaign_id = l.campaign_id and v.step = l.step
   and v.slot = case
     when l.step > 0 or v.campaign_id <> 'ca000000-0000-4000-8000-000000000001' then 0
     when cl.replied_at is not null then (abs(hashtext(l.target_username || 'variant')) % 3 > 0)::int
     else abs(hashtext(l.target_username || 'variant')) % 2 end;

-- Someone who replied "stop" is never contacted again.
insert into public.do_not_contact (user_id, platform, target_username, reason, created_at)
select l.user_id, p.name, l.username, 'Replied "stop"', l.replied_at
  from public.campaign_leads l
  join public.campaigns c on c.id = l.campaign_id
  join public.platforms p on p.id = c.platform_id
 where l.user_id = 'd0000000-0000-4000-8000-000000000001' and l.reply_text = 'stop'
on conflict do nothing;

update public.campaigns set status = 'completed', completed_at = now() - interval '13 days'
 where id = 'ca000000-0000-4000-8000-000000000003';
update public.campaigns set status = 'paused'
 where id = 'ca000000-0000-4000-8000-000000000002';
update public.campaigns set paused_at = now() - interval '3 days'
 where id = 'ca000000-0000-4000-8000-000000000002';

-- A draft on the Instagram leads: people the paused campaign already messaged arrive as skipped.
insert into public.campaigns (id, user_id, account_id, platform_id, scraping_campaign_id, name, sequences, target_count,
  daily_message_limit, industry, stage, created_at)
select 'ca000000-0000-4000-8000-000000000004', 'd0000000-0000-4000-8000-000000000001', a.id, a.platform_id,
       '5c000000-0000-4000-8000-000000000002', 'Instagram creators - spring',
       '{"messages": ["Hi {name}, your feed is a masterclass. Would you be open to a paid collaboration this spring?", "", ""], "followUpEnabled": true, "followUpMessages": ["Hi {name}, circling back on the collaboration idea!"], "followUpDays": 5}',
       60, 25, 'Creators', 'Draft', now() - interval '1 day'
  from public.social_accounts a where a.id = 'ac000000-0000-4000-8000-000000000002';

-- A hand-made lead list with the people who answered.
insert into public.lead_lists (id, user_id, name, created_at)
values ('11000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001', 'Hot prospects', now() - interval '6 days');
insert into public.lead_list_members (lead_list_id, scraping_lead_id, user_id)
select '11000000-0000-4000-8000-000000000001', l.scraping_lead_id, l.user_id
  from public.campaign_leads l
 where l.user_id = 'd0000000-0000-4000-8000-000000000001' and l.replied_at is not null and l.reply_text <> 'stop'
   and l.scraping_lead_id is not null
 order by l.replied_at desc
 limit 12;

-- Notifications ---------------------------------------------------------------------------------

insert into public.notifications (user_id, type, title, message, read, read_at, metadata, created_at)
values
  ('d0000000-0000-4000-8000-000000000001', 'scraping_completed', 'Scraping campaign completed',
   '"SaaS founders on X" collected 100 valid leads.', true, now() - interval '30 days',
   '{"scrapingCampaignId": "5c000000-0000-4000-8000-000000000001"}', now() - interval '31 days'),
  ('d0000000-0000-4000-8000-000000000001', 'campaign_completed', 'Campaign completed',
   '"Growth marketers intro" has messaged all its leads.', true, now() - interval '12 days',
   '{"campaignId": "ca000000-0000-4000-8000-000000000003"}', now() - interval '13 days'),
  ('d0000000-0000-4000-8000-000000000001', 'account_flagged', 'Account paused for safety',
   '@demo.studio was paused for 2 hours after Instagram asked to slow down. It resumed at a reduced rate.', true,
   now() - interval '4 days', '{"accountId": "ac000000-0000-4000-8000-000000000002"}', now() - interval '5 days'),
  ('d0000000-0000-4000-8000-000000000001', 'warmup_phase_completed', 'Warm-up phase completed',
   '@demo.studio finished warm-up phase 1 and can now send up to 20 messages a day.', false, null,
   '{"accountId": "ac000000-0000-4000-8000-000000000002", "phase": 2}', now() - interval '3 days'),
  ('d0000000-0000-4000-8000-000000000001', 'campaign_failed', 'Campaign needs attention',
   '"Agency partnerships" was paused: several messages could not be confirmed. Check the account, then resume.', false, null,
   '{"campaignId": "ca000000-0000-4000-8000-000000000002"}', now() - interval '3 days'),
  ('d0000000-0000-4000-8000-000000000001', 'new_replies', 'New replies',
   'Leads replied to "SaaS founders outreach" today.', false, null,
   '{"campaignId": "ca000000-0000-4000-8000-000000000001"}', now() - interval '40 minutes');

-- What the admin tab's log view shows on a fresh stack ------------------------------------------

insert into public.system_logs (level, service, message, metadata, created_at)
values
  ('info', 'scheduler', 'Queued 3 campaign ticks, 1 scraping run, 2 inbox syncs', '{"campaignTicks": 3, "scrapeRuns": 1, "inboxSyncs": 2}', now() - interval '3 minutes'),
  ('info', 'twitter', 'Sent DM to @olivia_martin1', '{"campaignId": "ca000000-0000-4000-8000-000000000001"}', now() - interval '25 minutes'),
  ('warn', 'instagram', 'Instagram asked to slow down; pausing @demo.studio for 2 hours', '{"accountId": "ac000000-0000-4000-8000-000000000002"}', now() - interval '5 days'),
  ('info', 'warmup', 'Warm-up step done for @demo.studio (phase 2)', '{"accountId": "ac000000-0000-4000-8000-000000000002"}', now() - interval '7 hours'),
  ('error', 'api', 'Stripe webhook signature did not verify', '{"status": 400}', now() - interval '2 days'),
  ('debug', 'scheduler', 'No due work for paused campaign "Agency partnerships"', null, now() - interval '1 hour');

-- What the operator sees on the admin tab: a few more customers in every billing state, accounts
-- the system stopped (flagged, paused, could not sign in), recent job history and three failed
-- jobs (one out of attempts). The extra accounts do not send, so they add no work for the runner.

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous)
select '00000000-0000-0000-0000-000000000000', x.id::uuid, 'authenticated', 'authenticated', x.email,
       extensions.crypt('demo-password', extensions.gen_salt('bf')), now() - x.age,
       '{"provider": "email", "providers": ["email"]}', jsonb_build_object('full_name', x.full_name),
       now() - x.age, now() - x.seen, now() - x.seen, false, false
  from (values
    ('d0000000-0000-4000-8000-000000000002', 'maya@northwind.test', 'Maya Keller', interval '120 days', interval '3 hours'),
    ('d0000000-0000-4000-8000-000000000003', 'leo@kitebase.test', 'Leo Novak', interval '75 days', interval '6 days'),
    ('d0000000-0000-4000-8000-000000000004', 'sara@loopwise.test', 'Sara Haddad', interval '1 day', interval '20 hours'),
    ('d0000000-0000-4000-8000-000000000005', 'owen@brightline.test', 'Owen Walsh', interval '200 days', interval '64 days')
  ) as x (id, email, full_name, age, seen);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', u.last_sign_in_at, u.created_at, u.updated_at
  from auth.users u
 where u.id in ('d0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000003',
                'd0000000-0000-4000-8000-000000000004', 'd0000000-0000-4000-8000-000000000005');

update public.user_profiles p
   set business_name = x.business, onboarding_completed = true, post_onboarding = true
  from (values
    ('d0000000-0000-4000-8000-000000000002', 'Northwind'), ('d0000000-0000-4000-8000-000000000003', 'Kitebase'),
    ('d0000000-0000-4000-8000-000000000004', 'Loopwise'), ('d0000000-0000-4000-8000-000000000005', 'Brightline')
  ) as x (id, business)
 where p.id = x.id::uuid;

insert into public.subscriptions (user_id, status, plan_type, billing_period, accounts_purchased, stripe_customer_id,
  stripe_subscription_id, current_period_start, current_period_end, canceled_at, trial_end, created_at, updated_at)
values
  ('d0000000-0000-4000-8000-000000000002', 'active', 'growth', 'yearly', 3, 'cus_demo0002', 'sub_demo_northwind',
   now() - interval '110 days', now() + interval '255 days', null, null, now() - interval '110 days', now() - interval '110 days'),
  ('d0000000-0000-4000-8000-000000000003', 'past_due', 'starter', 'monthly', 1, 'cus_demo0003', 'sub_demo_kitebase',
   now() - interval '32 days', now() - interval '2 days', null, null, now() - interval '70 days', now() - interval '2 days'),
  ('d0000000-0000-4000-8000-000000000004', 'trialing', 'starter', 'monthly', 1, 'cus_demo0004', 'sub_demo_loopwise',
   now() - interval '1 day', now() + interval '2 days', null, now() + interval '2 days', now() - interval '1 day',
   now() - interval '1 day'),
  ('d0000000-0000-4000-8000-000000000005', 'canceled', 'growth', 'monthly', 2, 'cus_demo0005', 'sub_demo_brightline',
   now() - interval '95 days', now() - interval '65 days', now() - interval '65 days', null, now() - interval '190 days',
   now() - interval '65 days');

-- Stopped by the system (the flag), by the customer's operator, or unable to sign in.
insert into public.social_accounts (id, user_id, platform_id, username, status, flag_reason, daily_message_limit,
  warmup_phase, warmup_started_at, trust_score, last_login_at, last_synced_at, created_at, updated_at)
select x.id::uuid, x.user_id::uuid, p.id, x.username, x.status, x.flag_reason, 50, x.phase, now() - x.age, x.trust,
       now() - x.login, now() - x.login, now() - x.age, now() - x.changed
  from (values
    ('ac000000-0000-4000-8000-000000000003', 'd0000000-0000-4000-8000-000000000002', 'twitter', 'northwind_hq', 'flagged',
     'X locked the account (326): confirm it on x.com, then resume', 5, 0.31, interval '100 days', interval '50 minutes',
     interval '51 minutes'),
    ('ac000000-0000-4000-8000-000000000004', 'd0000000-0000-4000-8000-000000000002', 'instagram', 'northwind.studio', 'paused',
     null, 3, 0.58, interval '16 days', interval '5 hours', interval '2 days'),
    ('ac000000-0000-4000-8000-000000000005', 'd0000000-0000-4000-8000-000000000003', 'instagram', 'kitebase.app', 'paused',
     null, 5, 0.74, interval '60 days', interval '6 days', interval '2 days'),
    ('ac000000-0000-4000-8000-000000000006', 'd0000000-0000-4000-8000-000000000005', 'twitter', 'brightline_io', 'error',
     null, 4, 0.12, interval '180 days', interval '66 days', interval '64 days')
  ) as x (id, user_id, platform, username, status, flag_reason, phase, trust, age, login, changed)
  join public.platforms p on p.name = x.platform;

insert into public.campaigns (id, user_id, account_id, platform_id, name, sequences, target_count, daily_message_limit,
  industry, stage, status, started_at, created_at)
select x.id::uuid, a.user_id, a.id, a.platform_id, x.name,
       '{"messages": ["Hi {name}, quick question about your outbound process - open to a chat?", "", ""], "followUpEnabled": false, "followUpMessages": [], "followUpDays": 3}',
       x.target, 40, 'SaaS', 'Outreach', 'draft', null, now() - x.age
  from (values
    ('ca000000-0000-4000-8000-000000000005', 'ac000000-0000-4000-8000-000000000003', 'Northwind - CTOs in fintech', 400, interval '40 days'),
    ('ca000000-0000-4000-8000-000000000006', 'ac000000-0000-4000-8000-000000000006', 'Brightline launch', 120, interval '170 days')
  ) as x (id, account_id, name, target, age)
  join public.social_accounts a on a.id = x.account_id::uuid;
update public.campaigns set status = 'paused', started_at = now() - interval '38 days'
 where id = 'ca000000-0000-4000-8000-000000000005';
update public.campaigns set paused_at = now() - interval '50 minutes' where id = 'ca000000-0000-4000-8000-000000000005';
update public.campaigns set status = 'completed', started_at = now() - interval '168 days', completed_at = now() - interval '140 days'
 where id = 'ca000000-0000-4000-8000-000000000006';

-- Job history: what the runner finished in the last three hours, and what failed for good.
insert into pgboss.job (name, data, state, singleton_key, policy, retry_limit, created_on, start_after, started_on, completed_on)
select q.name, q.data, 'completed', q.key, 'short', q.retry_limit,
       now() - g * interval '7 minutes' - interval '40 seconds', now() - g * interval '7 minutes' - interval '40 seconds',
       now() - g * interval '7 minutes' - interval '30 seconds', now() - g * interval '7 minutes'
  from generate_series(0, 25) g
  join lateral (values
    ('campaign.tick', '{"campaignId": "ca000000-0000-4000-8000-000000000001", "accountId": "ac000000-0000-4000-8000-000000000001"}'::jsonb,
     'campaign:ca000000-0000-4000-8000-000000000001', 0),
    ('inbox.sync', '{"accountId": "ac000000-0000-4000-8000-000000000002"}'::jsonb, 'inbox:ac000000-0000-4000-8000-000000000002', 1)
  ) as q (name, data, key, retry_limit) on (g % 3 <> 0) = (q.name = 'campaign.tick');

insert into pgboss.job (id, name, data, state, singleton_key, policy, retry_limit, retry_count, created_on, start_after,
  started_on, completed_on, output)
values
  ('f0000000-0000-4000-8000-000000000001', 'scrape.run', '{"scrapingCampaignId": "5c000000-0000-4000-8000-000000000003"}',
   'failed', 'scraping:5c000000-0000-4000-8000-000000000003', 'short', 2, 2, now() - interval '3 hours',
   now() - interval '3 hours', now() - interval '2 hours', now() - interval '2 hours',
   '{"message": "Rate limited by X (88): the search listing is spent until the window resets"}'),
  ('f0000000-0000-4000-8000-000000000002', 'inbox.sync', '{"accountId": "ac000000-0000-4000-8000-000000000003"}',
   'failed', 'inbox:ac000000-0000-4000-8000-000000000003', 'short', 1, 1, now() - interval '58 minutes',
   now() - interval '58 minutes', now() - interval '52 minutes', now() - interval '51 minutes',
   '{"message": "Account locked (326): X asks the owner to confirm the account"}'),
  ('f0000000-0000-4000-8000-000000000003', 'warmup.step', '{"accountId": "ac000000-0000-4000-8000-000000000006"}',
   'failed', 'warmup:ac000000-0000-4000-8000-000000000006:seed', 'short', 5, 5, now() - interval '2 days',
   now() - interval '2 days', now() - interval '26 hours', now() - interval '26 hours',
   '{"message": "Could not authenticate you (32): the saved session expired"}');

insert into public.system_logs (level, service, message, metadata, created_at)
values
  ('warn', 'twitter', 'X locked @northwind_hq (326); account flagged and its campaign paused',
   '{"accountId": "ac000000-0000-4000-8000-000000000003", "code": 326}', now() - interval '51 minutes'),
  ('error', 'twitter', 'inbox.sync failed for @northwind_hq: Account locked (326)',
   '{"jobId": "f0000000-0000-4000-8000-000000000002"}', now() - interval '51 minutes'),
  ('info', 'instagram', 'Synced inbox of @demo.studio: 1 new reply, 0 message requests',
   '{"accountId": "ac000000-0000-4000-8000-000000000002"}', now() - interval '14 minutes'),
  ('error', 'twitter', 'scrape.run for "Growth marketers" failed for good after 3 attempts',
   '{"jobId": "f0000000-0000-4000-8000-000000000001"}', now() - interval '2 hours'),
  ('info', 'warmup', 'Advanced @northwind.studio to warm-up phase 3 (35 DMs a day)',
   '{"accountId": "ac000000-0000-4000-8000-000000000004", "phase": 3}', now() - interval '9 hours'),
  ('warn', 'api', 'Checkout session expired before payment for sara@loopwise.test', null, now() - interval '22 hours'),
  ('debug', 'twitter', 'Reused the saved session of @demo_growth (no fresh login)',
   '{"accountId": "ac000000-0000-4000-8000-000000000001"}', now() - interval '35 minutes');
