-- A DM whose page ran out of time before send was pressed is logged `deferred`: nothing was
-- attempted, so it is no failure (the campaign's failed figures and the dashboard's delivery rate
-- leave it out) and the lead's trigger makes the step due again at once, with its attempt given back
-- (no backoff, never given up for a slow machine). A deferred follow-up stays due as well.
begin;
select plan(6);

select tests.create_supabase_user('owner');
select tests.give_plan('owner', 5);
select tests.create_social_account('owner', 'owner_x') as account \gset

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('owner'), 'Deferred', :'account',
        '{"messages": ["Hi {name}!", "", ""], "followUpEnabled": true, "followUpMessages": ["Bump"], "followUpDays": 2}',
        'running')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, username) values (:'campaign', 'ann') returning id as ann \gset

select tests.authenticate_as_runner();

-- First message: claimed, then its page ran out of time before send was pressed.
update public.campaign_leads set state = 'sending' where id = :'ann';
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent)
values (:'campaign', :'ann', :'account', 0, 'uncertain', 'ann', 'Hi Ann!');
update public.dm_logs set status = 'deferred', error = 'Loading took longer than 40 s' where campaign_lead_id = :'ann' and step = 0;
update public.campaign_leads set state = 'pending' where id = :'ann';
select results_eq(
  format($$select state, current_step, attempts, next_send_at <= internal.now() from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('pending', 0, 0, true)$$,
  'a deferred first message stays at its step, due now, its attempt given back');

select tests.clear_authentication();
select results_eq(
  format($$select c.messages_failed, (select coalesce(sum(s.failed), 0)::int from public.campaign_daily_stats s where s.campaign_id = c.id)
             from public.campaigns c where c.id = %L$$, :'campaign'),
  $$values (0, 0)$$,
  'a deferred message is no failure in the campaign''s figures');
select tests.authenticate_as_runner();

-- Retried and delivered: the same row, sent.
update public.campaign_leads set state = 'sending' where id = :'ann';
update public.dm_logs set status = 'uncertain', error = null where campaign_lead_id = :'ann' and step = 0;
update public.dm_logs set status = 'sent' where campaign_lead_id = :'ann' and step = 0;
update public.campaign_leads set state = 'sent' where id = :'ann';
select results_eq(
  format($$select state, current_step, attempts from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sent', 1, 1)$$,
  'sent on the next try, one attempt counted');

select tests.authenticate_as('owner');
select results_eq(
  'select delivery_rate from public.dashboard_summary()',
  $$values (100.0::numeric)$$,
  'the dashboard''s delivery rate: the one delivered message of one known outcome');
select tests.authenticate_as_runner();

-- The follow-up is claimed and deferred the same way: back to sent, same step, due now.
update public.campaign_leads set state = 'sending' where id = :'ann';
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent)
values (:'campaign', :'ann', :'account', 1, 'uncertain', 'ann', 'Bump');
update public.dm_logs set status = 'deferred' where campaign_lead_id = :'ann' and step = 1;
update public.campaign_leads set state = 'sent' where id = :'ann';
select results_eq(
  format($$select state, current_step, attempts, next_send_at <= internal.now() from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sent', 1, 1, true)$$,
  'a deferred follow-up keeps its step and is due now, not after a backoff or followUpDays');

select throws_ok(
  format($$update public.dm_logs set status = 'postponed' where campaign_lead_id = %L and step = 1$$, :'ann'),
  '23514', null, 'a log status is one the product knows');

select * from finish();
rollback;
