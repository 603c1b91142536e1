-- "Check now" once a minute per account, atomically. The limit was a read of the last request (in
-- the same query that locked the account) followed by a write: calls that queued on the account's
-- row lock re-checked the account after the wait but kept the request row as their snapshot saw it,
-- so twenty simultaneous calls let up to one per data API connection through. The claim is now one
-- INSERT … ON CONFLICT DO UPDATE … WHERE: Postgres locks the existing request row and tests the
-- WHERE on its latest committed version, so exactly one call a minute updates it.

create or replace function public.request_inbox_check(p_account_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  t constant timestamptz := internal.now();
  v_account uuid;
  last_request timestamptz;
  queued integer := 0;
  limited integer := 0;
  wait_seconds integer := 0;
begin
  if p_account_id is not null
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.user_id = me) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  -- id order: two calls for several accounts take the row locks in the same order (no deadlock)
  for v_account in
    select a.id
      from public.social_accounts a
     where a.user_id = me and a.status = 'active' and (p_account_id is null or a.id = p_account_id)
     order by a.id
       for update
  loop
    insert into public.inbox_check_requests as r (account_id, user_id, requested_at)
    values (v_account, me, t)
    on conflict (account_id) do update set requested_at = excluded.requested_at
     where r.requested_at <= t - interval '1 minute';
    if found then
      perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', v_account), 'inbox:' || v_account);
      queued := queued + 1;
    else
      select r.requested_at into last_request from public.inbox_check_requests r where r.account_id = v_account;
      limited := limited + 1;
      -- a call that started just before the winning one committed waits from the winner's time
      wait_seconds := greatest(wait_seconds,
        least(60, greatest(1, ceil(extract(epoch from last_request + interval '1 minute' - t))::integer)));
    end if;
  end loop;
  if queued = 0 and limited = 0 then
    raise exception 'No active account to check. Connect or fix an account in Social Accounts.' using errcode = 'PT409';
  end if;
  if queued = 0 then
    raise exception 'Checked less than a minute ago. Try again in % s.', wait_seconds using errcode = 'PT429';
  end if;
  return jsonb_build_object('queued', queued, 'limited', limited, 'retry_after_seconds', wait_seconds);
end
$$;
comment on function public.request_inbox_check(uuid) is
  '"Check now": queues inbox syncs for the caller''s active account(s), once a minute per account, claimed atomically (PT429 with the wait otherwise).';
revoke execute on function public.request_inbox_check(uuid) from public, anon;
grant execute on function public.request_inbox_check(uuid) to authenticated, service_role;
