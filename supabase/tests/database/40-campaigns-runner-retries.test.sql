-- A DM step that did not go out: the runner only records what happened (the step's dm_logs row
-- and the lead's state); the lead's trigger keeps the step and makes it due again after a backoff.
-- The runner cannot set a lead's step or due time itself.
begin;
select plan(8);

select tests.create_supabase_user('owner');
select tests.give_plan('owner', 5);
select tests.create_social_account('owner', 'owner_x') as account \gset

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('owner'), 'Retries', :'account',
        '{"messages": ["Hi {name}!", "", ""], "followUpEnabled": true, "followUpMessages": ["Bump"], "followUpDays": 2}',
        'running')
returning id as campaign \gset
insert into public.campaign_leads (campaign_id, username) values (:'campaign', 'ann') returning id as ann \gset

select tests.authenticate_as_runner();

-- First message: claimed, failed on the page before it left.
update public.campaign_leads set state = 'sending' where id = :'ann';
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent)
values (:'campaign', :'ann', :'account', 0, 'uncertain', 'ann', 'Hi Ann!');
update public.dm_logs set status = 'error', error = 'Page failed' where campaign_lead_id = :'ann' and step = 0;
update public.campaign_leads set state = 'pending', last_error = 'Page failed' where id = :'ann';
select results_eq(
  format($$select state, current_step, attempts, round(extract(epoch from next_send_at - internal.now()) / 60) from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('pending', 0, 1, 5::numeric)$$,
  'an undelivered first message stays at its step and is due again 5 minutes later');

-- The second attempt is unconfirmed; reading the thread shows it never arrived.
update public.campaign_leads set state = 'sending' where id = :'ann';
update public.dm_logs set status = 'uncertain', error = null where campaign_lead_id = :'ann' and step = 0;
update public.campaign_leads set state = 'uncertain' where id = :'ann';
update public.dm_logs set status = 'failed' where campaign_lead_id = :'ann' and step = 0;
update public.campaign_leads set state = 'pending' where id = :'ann';
select results_eq(
  format($$select state, current_step, attempts, round(extract(epoch from next_send_at - internal.now()) / 60) from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('pending', 0, 2, 10::numeric)$$,
  'checked and not delivered: due again, the backoff doubling per attempt');

-- The third attempt is delivered.
update public.campaign_leads set state = 'sending' where id = :'ann';
update public.dm_logs set status = 'sent' where campaign_lead_id = :'ann' and step = 0;
update public.campaign_leads set state = 'sent' where id = :'ann';
select results_eq(
  format($$select state, current_step, next_send_at = last_sent_at + interval '2 days' from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sent', 1, true)$$,
  'a delivered step moves the lead on to its follow-up');

-- The follow-up fails before it leaves: back to sent, same step, due after the backoff.
update public.campaign_leads set state = 'sending' where id = :'ann';
insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, step, status, target_username, message_sent)
values (:'campaign', :'ann', :'account', 1, 'uncertain', 'ann', 'Bump');
update public.dm_logs set status = 'error' where campaign_lead_id = :'ann' and step = 1;
update public.campaign_leads set state = 'sent' where id = :'ann';
select results_eq(
  format($$select state, current_step, next_send_at > internal.now() and next_send_at <= internal.now() + interval '6 hours' from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sent', 1, true)$$,
  'an undelivered follow-up keeps its step and is due again after the backoff, not followUpDays');

select throws_ok(
  format($$update public.campaign_leads set next_send_at = now() where id = %L$$, :'ann'),
  '42501', null, 'the runner cannot set a lead''s due time');
select throws_ok(
  format($$update public.campaign_leads set current_step = 0 where id = %L$$, :'ann'),
  '42501', null, 'nor its step');

-- The follow-ups are removed while the lead waits for one: nothing is due any more.
select tests.clear_authentication();
update public.campaigns set sequences = sequences || '{"followUpEnabled": false}' where id = :'campaign';
select tests.authenticate_as_runner();
update public.campaign_leads set last_error = 'No follow-up is left to send' where id = :'ann';
select results_eq(
  format($$select state, current_step, next_send_at from public.campaign_leads where id = %L$$, :'ann'),
  $$values ('sent', 1, null::timestamptz)$$,
  'a lead whose campaign has no follow-up left for it has nothing due');

select results_eq(
  format($$select count(*)::int from public.dm_logs where campaign_lead_id = %L$$, :'ann'),
  $$values (2)$$, 'still one log row per step');

select * from finish();
rollback;
