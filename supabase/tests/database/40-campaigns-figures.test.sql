-- One definition per campaign figure (public.campaign_figures), each computed again here from the
-- rows it counts, and the same numbers wherever a screen reads them: the card (dashboard_snapshot),
-- the details (campaign_stats) and the dashboard's Delivery Rate. The campaign has 8 leads: 2
-- delivered (one replied), 1 failed, 1 unconfirmed, 1 refused by X as "verified senders only"
-- (476), 1 with a closed inbox, 1 on the do-not-contact list and 1 pending. A second campaign has
-- sent nothing: its rates are null ("—"), not 0 %.
begin;
select plan(11);

select tests.create_supabase_user('figs');
select tests.create_supabase_user('figs_other');
select tests.give_plan('figs', 5);
select tests.create_social_account('figs', 'figs_x') as account \gset
select tests.freeze_time('2026-11-20 12:00Z');

insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('figs'), 'Source', :'account', '[{"type": "followers", "value": "a"}]', 10)
returning id as scrape \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value)
select :'scrape', tests.get_supabase_uid('figs'), x.u, '{}', false, 'followers', 'a'
  from unnest(array['replied', 'delivered', 'failing', 'unconfirmed', 'verified_only', 'closed', 'listed', 'waiting']) x (u);
insert into public.do_not_contact (user_id, platform, target_username)
values (tests.get_supabase_uid('figs'), 'twitter', 'listed');
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status, started_at)
values (tests.get_supabase_uid('figs'), 'Figures', :'account', :'scrape', '{"messages": ["hi"]}', 'running', '2026-11-20 09:00Z')
returning id as campaign \gset
insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('figs'), 'Nothing sent', :'account', '{"messages": ["hi"]}', 'draft')
returning id as quiet \gset

-- As the runner writes them (runner/src/sending/intent.ts): each step claimed as uncertain, then its outcome.
select tests.authenticate_as_runner();
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent, sent_at)
select :'campaign', l.id, :'account', 0, 'uncertain', l.username, 'hi', '2026-11-20 11:00Z'
  from public.campaign_leads l
 where l.campaign_id = :'campaign' and l.username in ('replied', 'delivered', 'failing', 'unconfirmed', 'verified_only', 'closed');
update public.campaign_leads set state = 'sending'
 where campaign_id = :'campaign' and username in ('replied', 'delivered', 'failing', 'unconfirmed', 'verified_only', 'closed');
update public.dm_logs set status = 'sent' where campaign_id = :'campaign' and target_username in ('replied', 'delivered');
update public.campaign_leads set state = 'sent', last_sent_at = '2026-11-20 11:00Z'
 where campaign_id = :'campaign' and username in ('replied', 'delivered');
update public.campaign_leads set replied_at = '2026-11-20 11:30Z' where campaign_id = :'campaign' and username = 'replied';
update public.dm_logs set status = 'failed', error = 'Not delivered' where campaign_id = :'campaign' and target_username = 'failing';
update public.campaign_leads set state = 'failed' where campaign_id = :'campaign' and username = 'failing';
update public.campaign_leads set state = 'uncertain' where campaign_id = :'campaign' and username = 'unconfirmed';
update public.dm_logs set status = 'skipped', error = 'You can only send messages to verified accounts (476)'
 where campaign_id = :'campaign' and target_username = 'verified_only';
update public.campaign_leads set state = 'skipped', skip_reason = 'requires_verified'
 where campaign_id = :'campaign' and username = 'verified_only';
update public.dm_logs set status = 'skipped', error = '@closed has a closed inbox. (closed_inbox)'
 where campaign_id = :'campaign' and target_username = 'closed';
update public.campaign_leads set state = 'skipped', skip_reason = 'closed_inbox'
 where campaign_id = :'campaign' and username = 'closed';
select tests.clear_authentication();

-- Each figure from the rows it names.
create function pg_temp.rows_figures(p_campaign uuid)
returns table (target bigint, not_deliverable bigint, eligible bigint, contacted bigint, replied bigint,
               delivered bigint, not_delivered bigint, unconfirmed bigint,
               delivery_rate numeric, progress numeric, reply_rate numeric)
language sql as $$
  with l as (
    select count(*) as target,
           count(*) filter (where state = 'skipped' and last_sent_at is null) as not_deliverable,
           count(*) filter (where last_sent_at is not null) as contacted,
           count(*) filter (where replied_at is not null) as replied
      from public.campaign_leads where campaign_id = p_campaign
  ), d as (
    select count(*) filter (where status = 'sent') as delivered,
           count(*) filter (where status in ('failed', 'error')) as not_delivered,
           count(*) filter (where status = 'uncertain') as unconfirmed
      from public.dm_logs where campaign_id = p_campaign
  )
  select l.target, l.not_deliverable, l.target - l.not_deliverable, l.contacted, l.replied,
         d.delivered, d.not_delivered, d.unconfirmed,
         case when d.delivered + d.not_delivered > 0 then round(d.delivered * 100.0 / (d.delivered + d.not_delivered), 1) end,
         case when l.target - l.not_deliverable > 0 then round(l.contacted * 100.0 / (l.target - l.not_deliverable), 1) end,
         case when d.delivered > 0 then round(l.replied * 100.0 / d.delivered, 1) end
    from l, d
$$;

select results_eq(format($$select * from pg_temp.rows_figures(%L)$$, :'campaign'),
  $$values (8::bigint, 3::bigint, 5::bigint, 2::bigint, 1::bigint, 2::bigint, 1::bigint, 1::bigint, 66.7, 40.0, 50.0)$$,
  'the rows: 8 leads, 3 not deliverable (verified only, closed inbox, do-not-contact), 5 eligible, 2 contacted, 1 replied; 2 delivered, 1 not, 1 unconfirmed');

select tests.authenticate_as('figs');
select results_eq(
  format($$select target, not_deliverable, eligible, contacted, replied, delivered, not_delivered, unconfirmed,
                  delivery_rate, progress, reply_rate from public.campaign_figures(%L)$$, :'campaign'),
  format($$select * from pg_temp.rows_figures(%L)$$, :'campaign'),
  'campaign_figures: every figure is its rows'' count; the verified-only refusal is not deliverable, not a failed delivery');
select results_eq(
  format($$select target, eligible, delivery_rate, progress, reply_rate from public.campaign_figures(%L)$$, :'quiet'),
  $$values (0::bigint, 0::bigint, null::numeric, null::numeric, null::numeric)$$,
  'a campaign that sent nothing has no rates (shown "—"), not 0 %');
select results_eq(
  $$select count(*)::int from public.campaign_figures()$$, $$values (2)$$,
  'without an id: every campaign of the caller, one row each');
select results_eq(
  format($$select c.target_count::bigint from public.campaigns c where c.id = %L$$, :'campaign'),
  format($$select f.eligible from pg_temp.rows_figures(%L) f$$, :'campaign'),
  'eligible is the campaign''s kept target_count (the scheduler''s and the admin''s whole)');

-- Every screen reads the same numbers.
select results_eq(
  format($$select (c -> 'figures' ->> 'target')::bigint, (c -> 'figures' ->> 'eligible')::bigint,
                  (c -> 'figures' ->> 'contacted')::bigint, (c -> 'figures' ->> 'delivered')::bigint,
                  (c -> 'figures' ->> 'delivery_rate')::numeric, (c -> 'figures' ->> 'progress')::numeric
             from jsonb_array_elements(public.dashboard_snapshot() -> 'campaigns') c where c ->> 'id' = %L$$, :'campaign'),
  format($$select target, eligible, contacted, delivered, delivery_rate, progress from pg_temp.rows_figures(%L)$$, :'campaign'),
  'the card (dashboard_snapshot) reads them');
select results_eq(
  format($$select (s ->> 'totalLeads')::bigint, (s ->> 'notDeliverable')::bigint, (s ->> 'eligible')::bigint,
                  (s ->> 'messagesSent')::bigint, (s ->> 'messagesFailed')::bigint, (s ->> 'responses')::bigint,
                  (s ->> 'deliveryRate')::numeric, (s ->> 'progress')::numeric, (s ->> 'replyRate')::numeric
             from public.campaign_stats(%L) s$$, :'campaign'),
  format($$select target, not_deliverable, eligible, delivered, not_delivered, replied, delivery_rate, progress, reply_rate
             from pg_temp.rows_figures(%L)$$, :'campaign'),
  'the details (campaign_stats) read them');
select results_eq(
  format($$select s -> 'deliveryRate', s -> 'replyRate' from public.campaign_stats(%L) s$$, :'quiet'),
  $$values ('null'::jsonb, 'null'::jsonb)$$,
  'the details of a campaign that sent nothing: no rates');
select results_eq(
  $$select s.delivery_rate from public.dashboard_summary() s$$,
  format($$select delivery_rate from pg_temp.rows_figures(%L)$$, :'campaign'),
  'the dashboard''s Delivery Rate: the same definition over the customer''s campaigns (the refusal left out)');
select tests.clear_authentication();

select tests.authenticate_as('figs_other');
select results_eq($$select s.delivery_rate from public.dashboard_summary() s$$, $$values (null::numeric)$$,
  'a customer who sent nothing has no Delivery Rate (it read 0.0 %)');
select is_empty($$select * from public.campaign_figures()$$, 'another customer sees none of these figures');
select tests.clear_authentication();

select * from finish();
rollback;
