-- Inbox syncs at three paces (runner cost, issue 28). Written by `npm run db:diff` (pg-delta) from
-- supabase/schemas. Every account with a sending campaign was read every 4 minutes: 143 reads a
-- minute at 500 accounts, as much CPU as their DMs, which no 2-core runner can add. Now:
-- - a conversation going on (a message either way in the last hour, in a thread where the other
--   side has written) is still read every 4 minutes, so a person who is answering is answered fast;
-- - an account in use otherwise (a sending campaign, an open conversation from the last 3 days, a
--   reply in the last day) every 15 minutes, which the inbox's empty state already promised and a
--   campaign tick at 100 DMs a day (one every 14.4 minutes) covers in the session it holds, so the
--   scheduler queues no separate sync for it; a follow-up still reads its thread before typing and
--   stops on a reply the inbox has not read yet;
-- - idle accounts hourly, as before.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.inbox_syncs_due (
  p_at timestamp with time zone
)
  RETURNS TABLE (
    account_id uuid
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- A read by anything (this sync, a campaign tick that held the session, "Check now") moves
  -- last_synced_at, so an account read recently is never due: the fold saves the separate job.
  -- Three paces: a conversation going on (a message either way in the last hour, in a thread where
  -- the other side has written) every 4 minutes; in use (a sending campaign, an open conversation
  -- from the last 3 days, a reply in the last day) every 15 minutes, which a campaign tick at 100
  -- DMs a day (one every 14.4 minutes) covers by itself; idle once an hour in its own minute.
  select a.id
    from public.social_accounts a
   where a.status = 'active'
     -- an official Instagram account's messages arrive by webhook; no browser reads its inbox
     and not (a.connection = 'official'
              and a.platform_id = (select p.id from public.platforms p where p.name = 'instagram'))
     and case
           when exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.last_incoming_at is not null
                           and th.last_message_at > p_at - interval '1 hour')
             then coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '3 minutes 30 seconds'
           when exists (select 1 from public.campaigns c
                         where c.account_id = a.id and c.status in ('queued', 'running', 'active'))
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.status = 'open'
                           and th.last_message_at > p_at - interval '3 days')
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.last_incoming_at > p_at - interval '1 day')
             then coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '14 minutes 30 seconds'
           -- idle: in its own minute of the hour, unless something read it in the last half hour
           else mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 60)
                  = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 60)
                and coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '30 minutes'
         end
$function$;

COMMENT ON FUNCTION "internal"."inbox_syncs_due"(timestamp with time zone) IS 'Accounts whose inbox.sync is due at p_at: in a conversation (a message either way in the last hour, in a thread where the other side has written) once their last read began 3.5 minutes ago; in use (a queued/running campaign, an open inbox thread with a message in the last 3 days, or a reply in the last day) once it began 14.5 minutes ago; idle ones in their own minute of the hour when their last read is half an hour old.';
