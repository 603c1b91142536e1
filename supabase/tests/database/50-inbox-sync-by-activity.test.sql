-- Inbox syncs follow activity: a conversation going on (a message in the last hour, in a thread
-- where the other side has written) is read again once its last read began 3.5 minutes ago, so an
-- answer reaches the inbox within 5 minutes; an account in use (a campaign sending from it, or an
-- open conversation with a message in the last 3 days) once it began 14.5 minutes ago (every 15
-- minutes, what the inbox promises); an idle account once an hour.
-- The hour simulated at the end is the measurement: inbox reads per account per hour.
begin;
select plan(13);

select tests.create_supabase_user('busy_owner');
select tests.give_plan('busy_owner', 5);
select tests.create_social_account('busy_owner', 'busy_x') as busy \gset
select tests.create_social_account('busy_owner', 'chatty_x') as chatty \gset
select tests.create_social_account('busy_owner', 'idle_x') as idle \gset
select tests.create_social_account('busy_owner', 'talking_x') as talking \gset
-- a minute that is neither idle slot of busy_x nor of idle_x, so "idle" means "not due now"
select tests.freeze_time('2026-11-27 10:00:00+00'::timestamptz + (
  select min(m) from generate_series(0, 59) m
   where m not in (mod(hashtext(:'busy')::bigint + 2147483648, 60), mod(hashtext(:'idle')::bigint + 2147483648, 60),
                   mod(hashtext(:'talking')::bigint + 2147483648, 60))
) * interval '1 minute');

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('busy_owner'), 'Busy', :'busy', '{"messages": ["hi"]}', 'running');
insert into public.inbox_threads (user_id, account_id, peer_username, status, last_message_at)
values (tests.get_supabase_uid('busy_owner'), :'chatty', 'ana', 'open', '2026-11-26 18:00:00+00'),
       (tests.get_supabase_uid('busy_owner'), :'idle', 'ben', 'handled', '2026-11-27 09:00:00+00'),
       (tests.get_supabase_uid('busy_owner'), :'idle', 'cat', 'open', '2026-11-20 09:00:00+00');
-- talking_x: dan answered 20 minutes ago (the customer's campaign there has ended)
insert into public.inbox_threads (user_id, account_id, peer_username, status, last_message_at, last_incoming_at)
values (tests.get_supabase_uid('busy_owner'), :'talking', 'dan', 'open',
        internal.now() - interval '20 minutes', internal.now() - interval '20 minutes');

create function pg_temp.due(p_account uuid) returns boolean language sql as $$
  select exists (select 1 from internal.inbox_syncs_due(internal.now()) d where d.account_id = p_account)
$$;
create function pg_temp.read_ago(p_account uuid, p_ago interval) returns void language sql as $$
  update public.social_accounts set last_synced_at = internal.now() - p_ago where id = p_account
$$;

select pg_temp.read_ago(:'busy', '3 minutes');
select pg_temp.read_ago(:'chatty', '3 minutes');
select is(pg_temp.due(:'busy') or pg_temp.due(:'chatty'), false,
  'an account in use that was read 3 minutes ago is not due yet');
select pg_temp.read_ago(:'talking', '3 minutes 30 seconds');
select is(pg_temp.due(:'talking'), true,
  'a conversation going on (the person wrote 20 minutes ago) is due 3.5 minutes after its last read');
select pg_temp.read_ago(:'busy', '3 minutes 30 seconds');
select pg_temp.read_ago(:'chatty', '10 minutes');
select is(pg_temp.due(:'busy') or pg_temp.due(:'chatty'), false,
  'an account that is only sending, or whose conversation was yesterday, is not');
select pg_temp.read_ago(:'busy', '14 minutes 30 seconds');
select is(pg_temp.due(:'busy'), true, 'a sending campaign''s account is due 14.5 minutes after its last read');
select pg_temp.read_ago(:'chatty', '15 minutes');
select is(pg_temp.due(:'chatty'), true, 'so is an account with an open conversation from yesterday');
select pg_temp.read_ago(:'idle', '20 minutes');
select is(pg_temp.due(:'idle'), false,
  'a handled or week-old conversation does not make an account busy: it waits for its minute of the hour');

-- The scheduler queues it (one waiting job per account, the same singleton key as before).
select internal.enqueue_due_work();
select results_eq(
  format($$select singleton_key from pgboss.job where name = 'inbox.sync' and data ->> 'accountId' in (%L, %L) order by 1$$,
         :'busy', :'chatty'),
  format($$values ('inbox:' || %L), ('inbox:' || %L)$$, least(:'busy', :'chatty'), greatest(:'busy', :'chatty')),
  'enqueue_due_work queues an inbox.sync for each account in use that is due');

-- A paused campaign no longer keeps its account busy.
update public.campaigns set status = 'paused' where account_id = :'busy';
select pg_temp.read_ago(:'busy', '20 minutes');
select is(pg_temp.due(:'busy'), false, 'with its campaign paused the account is idle again');
update public.campaigns set status = 'running' where account_id = :'busy';

-- An hour, minute by minute, each due sync read at once (the runner's read moves last_synced_at).
-- dan's last message is at 10:50, so talking_x's conversation goes on until 11:50.
delete from pgboss.job where name = 'inbox.sync';
update public.inbox_threads set last_message_at = '2026-11-27 10:50:00+00', last_incoming_at = '2026-11-27 10:50:00+00'
 where account_id = :'talking';
create temporary table reads (account_id uuid, at timestamptz);
do $$
declare
  minute integer;
  due record;
begin
  for minute in 0..59 loop
    update internal.clock set "offset" = ('2026-11-27 11:00:00+00'::timestamptz + minute * interval '1 minute') - now();
    for due in select d.account_id from internal.inbox_syncs_due(internal.now()) d loop
      insert into reads values (due.account_id, internal.now());
      update public.social_accounts set last_synced_at = internal.now() where id = due.account_id;
    end loop;
  end loop;
end
$$;
create function pg_temp.longest_gap(p_account uuid) returns interval language sql as $$
  select max(gap) from (select at - lag(at) over (order by at) as gap from reads where account_id = p_account) g $$;

select is((select count(*)::int from reads where account_id = :'busy'), 4,
  'an account that is only sending is read 4 times an hour (every 15 minutes: a tick a quarter hour covers it)');
select is(pg_temp.longest_gap(:'busy'), interval '15 minutes',
  'never more than 15 minutes between two reads of it');
select is((select count(*)::int from reads where account_id = :'idle'), 1,
  'an idle account once an hour (it was 4 times, then twice)');
select is((select count(*)::int from reads where account_id = :'talking'), 13,
  'a conversation whose last message was at 10:50 is read every 4 minutes until 11:48, then at the 15-minute pace');
select is(pg_temp.longest_gap(:'talking'), interval '4 minutes',
  'while a conversation goes on, never more than 4 minutes between two reads, so an answer waits at most that plus one read');

select * from finish();
rollback;
