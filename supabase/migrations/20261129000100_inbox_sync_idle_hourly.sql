-- Inbox syncs cost the runner a session each; most of them now fold into campaign ticks that hold
-- the session anyway. Written by `npm run db:diff` from supabase/schemas:
-- - internal.inbox_syncs_due: an idle account (no sending campaign, no open conversation, no reply
--   in the last day) is read once an hour in its own minute instead of every half hour, and not
--   when something read it in the last half hour; a reply in the last day keeps an account in use
--   (read within minutes) even when its conversation was marked handled.
-- - the runner may read "Check now" requests: a queued sync that finds the account read moments
--   ago by a tick ends without opening it, unless the customer pressed "Check now" after that read.

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
  select a.id
    from public.social_accounts a
   where a.status = 'active'
     and case
           when exists (select 1 from public.campaigns c
                         where c.account_id = a.id and c.status in ('queued', 'running', 'active'))
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.status = 'open'
                           and th.last_message_at > p_at - interval '3 days')
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.last_incoming_at > p_at - interval '1 day')
             then coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '3 minutes 30 seconds'
           -- idle: in its own minute of the hour, unless something read it in the last half hour
           else mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 60)
                  = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 60)
                and coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '30 minutes'
         end
$function$;

CREATE POLICY "The runner reads every inbox check request" ON "public"."inbox_check_requests"
  FOR SELECT
  TO "reachflow_runner"
  USING (true);

COMMENT ON FUNCTION "internal"."inbox_syncs_due"(timestamp with time zone) IS 'Accounts whose inbox.sync is due at p_at: in use (a queued/running campaign, an open inbox thread with a message in the last 3 days, or a reply in the last day) once their last read began 3.5 minutes ago; idle ones in their own minute of the hour when their last read is half an hour old.';

REVOKE ALL ON TABLE "public"."inbox_check_requests" FROM "reachflow_runner";

GRANT SELECT ON TABLE "public"."inbox_check_requests" TO "reachflow_runner";
