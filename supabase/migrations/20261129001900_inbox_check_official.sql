-- Check now and official Instagram accounts, written by `npm run db:diff` (pg-delta) from
-- supabase/schemas: Instagram's webhooks bring an official Instagram account's messages as they are
-- sent, so "Check now" queues no sync for it (one would never report the account checked), and the
-- inbox overview says how each account connects so the Inbox can say so instead of "never checked".

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.inbox_overview()
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  select jsonb_build_object(
    'unread', (select count(*) from public.inbox_threads t where t.user_id = (select auth.uid()) and t.unread_count > 0),
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'username', a.username, 'platform', p.name, 'status', a.status,
                                          'connection', a.connection, 'last_synced_at', a.last_synced_at,
                                          'check_requested_at', r.requested_at)
                       order by a.username)
        from public.social_accounts a
        join public.platforms p on p.id = a.platform_id
        left join public.inbox_check_requests r on r.account_id = a.id
       where a.user_id = (select auth.uid())), '[]'::jsonb))
$function$;

CREATE OR REPLACE FUNCTION public.request_inbox_check (
  p_account_id uuid DEFAULT NULL::uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
      join public.platforms p on p.id = a.platform_id
     where a.user_id = me and a.status = 'active' and (p_account_id is null or a.id = p_account_id)
       -- Instagram's webhooks bring an official Instagram account's messages as they are sent
       and not (a.connection = 'official' and p.name = 'instagram')
     order by a.id
       for update of a
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
$function$;

COMMENT ON FUNCTION "public"."inbox_overview"() IS 'The Inbox tab''s badge (conversations with unread replies) and the caller''s accounts with how they connect and their last inbox check.';

COMMENT ON FUNCTION "public"."request_inbox_check"(uuid) IS '"Check now": queues inbox syncs for the caller''s active account(s) but official Instagram ones (webhooks bring their messages), once a minute per account, claimed atomically (PT429 with the wait otherwise).';
