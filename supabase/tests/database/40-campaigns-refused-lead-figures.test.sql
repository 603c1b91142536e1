-- A lead the platform refuses (closed inbox, verified-only, cannot be messaged) counts against
-- nothing: the runner claims the step (its log `uncertain`, counted as an attempt and a send of
-- today) and, refused, records the log `skipped` and the lead skipped. Every figure is computed
-- again from the rows: a campaign with one lead sent, one failed and one refused fails 1 of 2,
-- not 2 of 3, and the refused one is neither an attempt, nor unconfirmed, nor one of today's sends.
begin;
select plan(9);

select tests.create_supabase_user('refused');
select tests.give_plan('refused', 5);
select tests.create_social_account('refused', 'refused_x') as account \gset
select tests.freeze_time('2026-11-20 12:00Z');

insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('refused'), 'Source', :'account', '[{"type": "followers", "value": "a"}]', 10)
returning id as scrape \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value)
select :'scrape', tests.get_supabase_uid('refused'), x.u, '{}', false, 'followers', 'a'
  from unnest(array['delivered', 'failing', 'closed']) x (u);
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status, started_at)
values (tests.get_supabase_uid('refused'), 'Refused', :'account', :'scrape', '{"messages": ["hi"]}', 'running', '2026-11-20 09:00Z')
returning id as campaign \gset

-- As the runner writes them (intent.ts): each step claimed as uncertain, then its outcome.
select tests.authenticate_as_runner();
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at)
select :'campaign', l.id, :'account', 0, 'uncertain', l.username, 'hi', '2026-11-20 11:00Z'
  from public.campaign_leads l where l.campaign_id = :'campaign';
update public.campaign_leads set state = 'sending' where campaign_id = :'campaign';
update public.dm_logs set status = 'sent' where campaign_id = :'campaign' and target_username = 'delivered';
update public.campaign_leads set state = 'sent', last_sent_at = '2026-11-20 11:00Z' where campaign_id = :'campaign' and username = 'delivered';
update public.dm_logs set status = 'failed', error = 'Not delivered' where campaign_id = :'campaign' and target_username = 'failing';
update public.campaign_leads set state = 'failed' where campaign_id = :'campaign' and username = 'failing';
update public.dm_logs set status = 'skipped', error = '@closed has a closed inbox. (closed_inbox)'
 where campaign_id = :'campaign' and target_username = 'closed';
update public.campaign_leads set state = 'skipped', skip_reason = 'closed_inbox', last_error = '@closed has a closed inbox.'
 where campaign_id = :'campaign' and username = 'closed';
select tests.clear_authentication();

create function pg_temp.rows_figures(p_campaign uuid)
returns table (sent bigint, failed bigint, attempts bigint, skipped bigint)
language sql as $$
  select count(*) filter (where d.status = 'sent'),
         count(*) filter (where d.status in ('failed', 'error')),
         count(*) filter (where d.status <> 'skipped'),
         (select count(*) from public.campaign_leads l where l.campaign_id = p_campaign and l.state = 'skipped')
    from public.dm_logs d where d.campaign_id = p_campaign
$$;
select results_eq(format($$select * from pg_temp.rows_figures(%L)$$, :'campaign'),
  $$values (1::bigint, 1::bigint, 2::bigint, 1::bigint)$$,
  'the rows: 1 sent, 1 failed, 2 attempts, 1 lead skipped');

select tests.authenticate_as('refused');
select results_eq(
  format($$select (s ->> 'messagesFailed')::bigint, (s ->> 'deliveryRate')::numeric, (s ->> 'totalAttempts')::bigint,
                  (s ->> 'messagesUncertain')::bigint, (s -> 'leads' ->> 'skipped')::bigint, (s -> 'leads' ->> 'failed')::bigint
             from public.campaign_stats(%L) s$$, :'campaign'),
  format($$select f.failed, round(f.sent * 100.0 / (f.sent + f.failed), 1), f.attempts, 0::bigint, f.skipped, 1::bigint
             from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'details: 1 failed, delivery 50 % (not 33.3), 2 attempts, nothing unconfirmed, the refused lead skipped');
select results_eq(
  format($$select sum((d ->> 'failed')::int)::bigint, sum((d ->> 'uncertain')::int)::bigint
             from public.campaign_stats(%L, 1) s, jsonb_array_elements(s -> 'perDay') d$$, :'campaign'),
  format($$select f.failed, 0::bigint from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'per day: the refusal is no failure and nothing unconfirmed');
select results_eq(
  $$select s.delivery_rate from public.dashboard_summary() s$$,
  $$select round(count(*) filter (where d.status = 'sent') * 100.0 / count(*) filter (where d.status in ('sent', 'failed', 'error')), 1)
      from public.dm_logs d$$,
  'dashboard Delivery Rate: 50 %, the refused lead left out');
select tests.clear_authentication();

select results_eq(
  format($$select s.attempts::bigint from public.campaign_daily_stats s where s.campaign_id = %L$$, :'campaign'),
  format($$select f.attempts from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'the day''s attempts: the refusal gave its attempt back');
select results_eq(
  format($$select c.messages_sent_today, a.messages_sent_today from public.campaigns c, public.social_accounts a
            where c.id = %L and a.id = %L$$, :'campaign', :'account'),
  $$values (2, 2)$$,
  'today''s sends of campaign and account (the daily limits): the refused lead no longer takes one');

select tests.authenticate_as_service_role();
select results_eq(
  format($$select (d ->> 'messagesFailed')::bigint from public.admin_campaign_detail(%L) d$$, :'campaign'),
  format($$select f.failed from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'admin Monitor: the refused lead is no failed send');
select tests.clear_authentication();

-- Should the lead be messaged again (taken off the skip by hand), its claim is an attempt again.
update public.dm_logs set status = 'uncertain' where campaign_id = :'campaign' and target_username = 'closed';
select results_eq(
  format($$select c.total_attempts::bigint, s.attempts::bigint from public.campaigns c
             join public.campaign_daily_stats s on s.campaign_id = c.id where c.id = %L$$, :'campaign'),
  $$values (3::bigint, 3::bigint)$$,
  'a refused step claimed again counts as an attempt again');
select throws_ok(
  format($$update public.dm_logs set status = 'refused' where campaign_id = %L and target_username = 'closed'$$, :'campaign'),
  '23514', null, 'skipped is the refusal''s status; nothing else new is accepted');

select * from finish();
rollback;
