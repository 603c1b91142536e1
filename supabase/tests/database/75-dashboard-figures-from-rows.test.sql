-- Every figure of the dashboard, campaign cards and details, scraping cards and details and the
-- admin's campaign table, computed again from the rows it claims to count (docs/database.md,
-- "Figures and what they count"). The campaign has one lead in every state, an unconfirmed send,
-- a failed send that went out on retry the next day, and people skipped by do-not-contact.
begin;
select plan(21);

select tests.create_supabase_user('figures');
select tests.give_plan('figures', 5);
select tests.create_social_account('figures', 'figures_x') as account \gset
select tests.freeze_time('2026-11-20 12:00Z');

-- A scraping source of 8 people (2 filtered out), and 2 of them on the do-not-contact list.
insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('figures'), 'Source', :'account', '[{"type": "followers", "value": "a"}]', 10)
returning id as scrape \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value)
select :'scrape', tests.get_supabase_uid('figures'), 'p' || i, case when i = 1 then '{"bio": "founder"}'::jsonb else '{}' end,
       i > 6, 'followers', 'a'
  from generate_series(1, 8) i;
insert into public.do_not_contact (user_id, platform, target_username) values
  (tests.get_supabase_uid('figures'), 'twitter', 'p5'), (tests.get_supabase_uid('figures'), 'twitter', 'p6');

-- The DM campaign (the create call's target_count 50 is the daily limit, not a target: ignored).
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status, target_count, started_at)
values (tests.get_supabase_uid('figures'), 'Figures', :'account', :'scrape',
        '{"messages": ["hi"], "followUpEnabled": true, "followUpMessages": ["again"], "followUpDays": 3}', 'running', 50,
        '2026-11-18 09:00Z')
returning id as campaign \gset
-- p1 sent and replied, p2 sent, p3 unconfirmed (in flight), p4 failed then sent on retry the next day;
-- p5, p6 skipped (do-not-contact).
select tests.authenticate_as_runner();
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at)
select :'campaign', l.id, :'account', 0, x.status, l.username, 'hi', x.at
  from public.campaign_leads l
  join (values ('p1', 'sent', '2026-11-19 10:00Z'::timestamptz), ('p2', 'sent', '2026-11-19 11:00Z'),
               ('p3', 'uncertain', '2026-11-20 11:59Z'), ('p4', 'failed', '2026-11-19 23:50Z')) x (username, status, at)
    on x.username = l.username
 where l.campaign_id = :'campaign';
update public.campaign_leads set state = 'sent', last_sent_at = '2026-11-19 10:00Z', replied_at = '2026-11-19 15:00Z'
 where campaign_id = :'campaign' and username = 'p1';
update public.campaign_leads set state = 'sent', last_sent_at = '2026-11-19 11:00Z' where campaign_id = :'campaign' and username = 'p2';
update public.campaign_leads set state = 'sending' where campaign_id = :'campaign' and username = 'p3';
-- the retry of p4 the next day (as intent.ts claims it again), then confirmed
update public.dm_logs set status = 'uncertain', sent_at = '2026-11-20 00:10Z'
 where campaign_id = :'campaign' and target_username = 'p4';
update public.dm_logs set status = 'sent' where campaign_id = :'campaign' and target_username = 'p4';
update public.campaign_leads set state = 'sent', last_sent_at = '2026-11-20 00:10Z' where campaign_id = :'campaign' and username = 'p4';
select tests.clear_authentication();

create function pg_temp.rows_figures(p_campaign uuid)
returns table (leads bigint, target bigint, contacted bigint, replied bigint, sent bigint, failed bigint, unconfirmed bigint)
language sql as $$
  select (select count(*) from public.campaign_leads l where l.campaign_id = p_campaign),
         (select count(*) from public.campaign_leads l where l.campaign_id = p_campaign
             and (l.state <> 'skipped' or l.last_sent_at is not null)),
         (select count(*) from public.campaign_leads l where l.campaign_id = p_campaign and l.last_sent_at is not null),
         (select count(*) from public.campaign_leads l where l.campaign_id = p_campaign and l.replied_at is not null),
         (select count(*) from public.dm_logs d where d.campaign_id = p_campaign and d.status = 'sent'),
         (select count(*) from public.dm_logs d where d.campaign_id = p_campaign and d.status in ('failed', 'error')),
         (select count(*) from public.dm_logs d where d.campaign_id = p_campaign and d.status = 'uncertain')
$$;

select results_eq(format($$select * from pg_temp.rows_figures(%L)$$, :'campaign'),
  $$values (6::bigint, 4::bigint, 3::bigint, 1::bigint, 3::bigint, 0::bigint, 1::bigint)$$,
  'the rows: 6 leads (2 skipped), 4 to message, 3 contacted, 1 replied; 3 sent, none failed now, 1 unconfirmed');

-- Campaign counters -----------------------------------------------------------------------------
select results_eq(
  format($$select c.target_count::bigint, c.messages_sent::bigint, c.messages_failed::bigint, c.response_count::bigint
             from public.campaigns c where c.id = %L$$, :'campaign'),
  format($$select f.target, f.sent, f.failed, f.replied from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'target count = leads it will message (not the 50 the create call sent); sent, failed now and responses = their rows');
select tests.authenticate_as('figures');
update public.campaigns set target_count = 999 where id = :'campaign';
select tests.clear_authentication();
select results_eq(format($$select target_count from public.campaigns where id = %L$$, :'campaign'), $$values (4)$$,
  'a customer''s write of the target count is ignored');

-- Someone added to the list while a follow-up was due: skipped, still counted as contacted and in the target.
insert into public.do_not_contact (user_id, platform, target_username) values (tests.get_supabase_uid('figures'), 'twitter', 'p2');
select results_eq(
  format($$select state, skip_reason from public.campaign_leads where campaign_id = %L and username = 'p2'$$, :'campaign'),
  $$values ('skipped', 'do_not_contact')$$, 'a follow-up due for someone added to the list is skipped');
select results_eq(
  format($$select c.target_count::bigint from public.campaigns c where c.id = %L$$, :'campaign'),
  format($$select f.target from pg_temp.rows_figures(%L) f$$, :'campaign'),
  '... and the target still counts them: they were messaged');

-- Campaign card and details (as the customer) -----------------------------------------------------
select tests.authenticate_as('figures');
select results_eq(
  format($$select f.target, f.eligible, f.contacted, f.replied from public.campaign_figures() f where f.campaign_id = %L$$, :'campaign'),
  format($$select f.leads, f.target, f.contacted, f.replied from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'card: Total Leads, eligible, contacted and replied are their rows');
select results_eq(
  format($$select (s ->> 'totalLeads')::bigint, (s ->> 'messagesSent')::bigint, (s ->> 'responses')::bigint,
                  (s ->> 'messagesFailed')::bigint, (s ->> 'messagesUncertain')::bigint, (s ->> 'eligible')::bigint
             from public.campaign_stats(%L) s$$, :'campaign'),
  format($$select f.leads, f.sent, f.replied, f.failed, f.unconfirmed, f.target from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'details: Total Leads, Messages Sent, Responses, failed, unconfirmed and the eligible are their rows');
select results_eq(
  format($$select (s ->> 'deliveryRate')::numeric, (s ->> 'replyRate')::numeric, (s ->> 'progress')::numeric
             from public.campaign_stats(%L) s$$, :'campaign'),
  format($$select round(f.sent * 100.0 / (f.sent + f.failed), 1), round(f.replied * 100.0 / f.sent, 1),
                  round(f.contacted * 100.0 / f.target, 1) from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'delivery = sent / (sent + failed), the unconfirmed send left out (100, not 75); reply rate = responses / sent; progress = contacted / eligible');
select results_eq(
  format($$select (s -> 'leads' ->> 'skipped')::bigint, (s -> 'leads' ->> 'contacted')::bigint from public.campaign_stats(%L) s$$, :'campaign'),
  format($$select (select count(*) from public.campaign_leads where campaign_id = %1$L and state = 'skipped'),
                  (select count(*) from public.campaign_leads where campaign_id = %1$L and last_sent_at is not null)$$, :'campaign'),
  'the lead counts by state are their rows');
select results_eq(
  format($$select sum((d ->> 'sent')::int)::bigint, sum((d ->> 'failed')::int)::bigint
             from public.campaign_stats(%L, 3) s, jsonb_array_elements(s -> 'perDay') d$$, :'campaign'),
  format($$select f.sent, f.failed from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'the per-day figures add up to the totals');
select results_eq(
  format($$select (d ->> 'date')::date, (d ->> 'sent')::int, (d ->> 'failed')::int
             from public.campaign_stats(%L, 2) s, jsonb_array_elements(s -> 'perDay') d order by 1$$, :'campaign'),
  $$values ('2026-11-19'::date, 2, 0), ('2026-11-20'::date, 1, 0)$$,
  'the retry that went out after midnight counts on its own day, and its failure left the day before');

-- Dashboard ---------------------------------------------------------------------------------------
select results_eq(
  $$select s.messages_sent, s.delivery_rate from public.dashboard_summary() s$$,
  $$select count(*) filter (where d.status = 'sent'),
           round(count(*) filter (where d.status = 'sent') * 100.0 / count(*) filter (where d.status in ('sent', 'failed', 'error')), 1)
      from public.dm_logs d$$,
  'Messages Sent and Delivery Rate are the customer''s logs: 100 % with nothing failed (it read 75 %)');
select results_eq(
  $$select s.active_accounts, s.active_campaigns from public.dashboard_summary() s$$,
  $$select (select count(*) from public.social_accounts where status = 'active'),
           (select count(*) from public.campaigns where status in ('queued', 'running', 'active'))$$,
  'Active Accounts and Active Campaigns are their rows');
select results_eq(
  $$select t.sent_today, t.replies_today from public.todays_overview() t$$,
  $$select (select count(*) from public.dm_logs where status = 'sent' and sent_at >= '2026-11-20' and sent_at < '2026-11-21'),
           (select count(*) from public.campaign_leads where replied_at >= '2026-11-20' and replied_at < '2026-11-21')$$,
  'Today''s Overview: sent and replies today (UTC profile) are their rows');
select results_eq(
  $$select (c ->> 'campaigns')::bigint, (c ->> 'accounts')::bigint, (c ->> 'scraping')::bigint from public.dashboard_counts() c$$,
  $$select (select count(*) from public.campaigns), (select count(*) from public.social_accounts),
           (select count(*) from public.scraping_campaigns)$$,
  'the tab badges are their rows');

-- A failure that stays failed counts against the delivery rate.
select tests.clear_authentication();
update public.dm_logs set status = 'failed' where campaign_id = :'campaign' and target_username = 'p3';
select tests.authenticate_as('figures');
select results_eq(
  format($$select (s ->> 'deliveryRate')::numeric, (s ->> 'messagesFailed')::int from public.campaign_stats(%L) s$$, :'campaign'),
  $$values (75.0, 1)$$, 'once the unconfirmed send is known not to have gone out: 3 of 4, 1 failed');

-- Scraping cards and details ----------------------------------------------------------------------
select results_eq(
  format($$select s.collected_count::bigint, s.leads_collected::bigint from public.scraping_campaigns s where s.id = %L$$, :'scrape'),
  format($$select count(*), count(*) filter (where not is_filtered) from public.scraping_campaign_leads where scraping_campaign_id = %L$$, :'scrape'),
  'scraping card: Total Scraped and Verified Leads are their rows');
select results_eq(
  format($$select (s ->> 'collected')::bigint, (s ->> 'valid')::bigint, (s ->> 'successRate')::numeric,
                  (s ->> 'collectionRate')::numeric, (s ->> 'qualityScore')::numeric from public.scraping_campaign_stats(%L) s$$, :'scrape'),
  format($$select count(*), count(*) filter (where not is_filtered),
                  round(count(*) filter (where not is_filtered) * 100.0 / count(*), 1),
                  round(least(count(*) filter (where not is_filtered), 10) * 100.0 / 10, 1),
                  round(count(*) filter (where not is_filtered and profile_data ->> 'bio' <> '') * 100.0
                        / count(*) filter (where not is_filtered), 1)
             from public.scraping_campaign_leads where scraping_campaign_id = %L$$, :'scrape'),
  'scraping details: collected, valid, success rate, collection rate and quality score are their rows');
select results_eq(
  format($$select sum((x ->> 'count')::int)::bigint from public.scraping_campaign_stats(%L) s, jsonb_array_elements(s -> 'sources') x$$, :'scrape'),
  format($$select count(*) from public.scraping_campaign_leads where scraping_campaign_id = %L$$, :'scrape'),
  'the sources add up to the leads collected');

-- Admin -------------------------------------------------------------------------------------------
select tests.authenticate_as_service_role();
select results_eq(
  format($$select a.messages_sent::bigint, a.contacted::bigint, a.target_count::bigint from public.admin_campaigns() a where a.id = %L$$, :'campaign'),
  format($$select f.sent, f.contacted, f.target from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'admin campaigns: sent, contacted / target are their rows (it read 3/50)');
select results_eq(
  format($$select (d ->> 'targetCount')::bigint, (d ->> 'messagesFailed')::bigint, (d -> 'leads' ->> 'contacted')::bigint
             from public.admin_campaign_detail(%L) d$$, :'campaign'),
  format($$select f.target, f.failed, f.contacted from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'admin Monitor: target, failed sends and contacted are their rows');

select * from finish();
rollback;
