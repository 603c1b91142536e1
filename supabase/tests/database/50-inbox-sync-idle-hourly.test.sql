-- Which accounts' inbox.sync is due: an account in use (a sending campaign, an open conversation,
-- or a reply in the last day) 14.5 minutes after its last read (3.5 while a conversation goes on), whoever read it (a campaign tick
-- that held the session counts: the scheduler queues no separate sync then); an idle one once an
-- hour in its own minute, skipped when something read it in the last half hour.
begin;
select plan(9);

select tests.create_supabase_user('due_owner');
select tests.give_plan('due_owner', 5);
select tests.create_social_account('due_owner', 'ticking_x') as ticking \gset
select tests.create_social_account('due_owner', 'replied_x') as replied \gset
select tests.create_social_account('due_owner', 'quiet_x') as quiet \gset
select mod(hashtext(:'quiet')::bigint + 2147483648, 60)::int as quiet_slot \gset
-- quiet_x's own minute of the hour
select tests.freeze_time('2026-11-29 10:00:00+00'::timestamptz + :'quiet_slot'::int * interval '1 minute');

insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('due_owner'), 'Ticking', :'ticking', '{"messages": ["hi"]}', 'running');
-- replied_x: its only conversation is handled, but the person wrote 2 hours ago; quiet_x's was 2 days ago
insert into public.inbox_threads (user_id, account_id, peer_username, status, last_message_at, last_incoming_at)
values (tests.get_supabase_uid('due_owner'), :'replied', 'dora', 'handled', internal.now() - interval '2 hours', internal.now() - interval '2 hours'),
       (tests.get_supabase_uid('due_owner'), :'quiet', 'eli', 'handled', internal.now() - interval '2 days', internal.now() - interval '2 days');

create function pg_temp.due(p_account uuid) returns boolean language sql as $$
  select exists (select 1 from internal.inbox_syncs_due(internal.now()) d where d.account_id = p_account)
$$;
create function pg_temp.read_ago(p_account uuid, p_ago interval) returns void language sql as $$
  update public.social_accounts set last_synced_at = internal.now() - p_ago where id = p_account
$$;

-- A campaign tick read the inbox a minute ago in the session it held: no separate sync.
select pg_temp.read_ago(:'ticking', '1 minute');
select is(pg_temp.due(:'ticking'), false, 'an account a campaign tick read a minute ago gets no separate sync');
select pg_temp.read_ago(:'ticking', '14 minutes 30 seconds');
select is(pg_temp.due(:'ticking'), true, 'once no tick has read it for 14.5 minutes, its sync is due (the 15-minute promise)');

select pg_temp.read_ago(:'replied', '14 minutes 30 seconds');
select is(pg_temp.due(:'replied'), true,
  'a reply in the last day keeps an account in use although its conversation was marked handled');
update public.inbox_threads set last_incoming_at = internal.now() - interval '25 hours', last_message_at = internal.now() - interval '25 hours'
 where account_id = :'replied';
select is(pg_temp.due(:'replied'), false, 'a day after the reply it is idle again, and waits for its own minute');

select pg_temp.read_ago(:'quiet', '40 minutes');
select is(pg_temp.due(:'quiet'), true, 'an idle account is due in its own minute of the hour');
select pg_temp.read_ago(:'quiet', '10 minutes');
select is(pg_temp.due(:'quiet'), false, 'but not when something read it in the last half hour');
update public.social_accounts set last_synced_at = null where id = :'quiet';
select is(pg_temp.due(:'quiet'), true, 'an account never read is due in its minute');

-- A day, minute by minute, each due sync read at once: reads per account.
create temporary table reads (account_id uuid, at timestamptz);
do $$
declare
  minute integer;
  due record;
begin
  for minute in 0..1439 loop
    update internal.clock set "offset" = ('2026-11-30 00:00:00+00'::timestamptz + minute * interval '1 minute') - now();
    for due in select d.account_id from internal.inbox_syncs_due(internal.now()) d
                where d.account_id in (select id from public.social_accounts where username in ('ticking_x', 'quiet_x')) loop
      insert into reads values (due.account_id, internal.now());
      update public.social_accounts set last_synced_at = internal.now() where id = due.account_id;
    end loop;
  end loop;
end
$$;
select is((select count(*)::int from reads where account_id = :'quiet'), 24, 'an idle account is read 24 times a day (48 before)');
select is((select count(*)::int from reads where account_id = :'ticking'), 96,
  'an account in use 96 times (every 15 minutes, it was 360: a tick every 14.4 minutes at 100 DMs a day reads them all)');

select * from finish();
rollback;
