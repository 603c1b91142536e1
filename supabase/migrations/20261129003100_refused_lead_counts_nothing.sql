-- A lead the platform refuses (X's closed inbox, verified-only, Instagram's "can't receive") counts
-- against nothing: its dm_logs row says `skipped` instead of `failed`, so it leaves the failed
-- figures and the delivery rate, and the attempt it was claimed as is given back (campaign attempts,
-- the day's attempts, today's sends of campaign and account; otherwise the unconfirmed figure,
-- attempts - sent - failed, would count it for ever). Written by `npm run db:diff` (pg-delta).

SET local check_function_bodies = off;

ALTER TABLE "public"."dm_logs"
  DROP CONSTRAINT "dm_logs_status_check";

CREATE OR REPLACE FUNCTION internal.count_daily_message()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, attempts, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date, 1,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set attempts = s.attempts + 1,
           sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  else
    -- A resolved send (uncertain -> sent or failed) moves between columns: out of the day it was
    -- counted on (old.sent_at), into the day of its new time (a retry stamps the time it went out).
    -- A refused lead (-> skipped) was no attempt: its attempt leaves the day it was logged on.
    update public.campaign_daily_stats s
       set attempts = greatest(0, s.attempts - (new.status = 'skipped')::int + (old.status = 'skipped')::int),
           sent = s.sent - (old.status = 'sent')::int,
           failed = greatest(0, s.failed - (old.status in ('failed', 'error'))::int),
           uncertain = greatest(0, s.uncertain - (old.status = 'uncertain')::int)
      from public.campaigns c
     where c.id = new.campaign_id and s.campaign_id = c.id
       and s.day = pg_catalog.timezone(c.schedule ->> 'timezone', old.sent_at)::date;
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.count_dm_log()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  was_sent boolean := tg_op = 'UPDATE' and old.status = 'sent';
  was_failed boolean := tg_op = 'UPDATE' and old.status in ('failed', 'error');
  counts_today boolean := tg_op = 'INSERT' and new.status in ('sent', 'uncertain');
  -- the platform refused the lead once the step was claimed: nothing went out, so the claim's
  -- attempt and its place in today's sends are given back (a refusal counts against nothing)
  refused boolean := tg_op = 'UPDATE' and new.status = 'skipped' and old.status in ('sent', 'uncertain');
  platform_name text;
begin
  update public.campaigns c
     set total_attempts = c.total_attempts + case when tg_op = 'INSERT' then 1 else 0 end
                                           - case when refused then 1 else 0 end
                                           + case when tg_op = 'UPDATE' and old.status = 'skipped' and new.status <> 'skipped' then 1 else 0 end,
         messages_sent = c.messages_sent + case when new.status = 'sent' and not was_sent then 1 else 0 end,
         -- the messages whose log says not delivered now: a retry that leaves failed takes it back
         messages_failed = c.messages_failed + case when new.status in ('failed', 'error') and not was_failed then 1 else 0 end
                                             - case when was_failed and new.status not in ('failed', 'error') then 1 else 0 end,
         -- Today's counter (in the schedule's zone) counts anything that may have gone out.
         messages_sent_today = case
           when refused and c.sent_today_on = (old.sent_at at time zone (c.schedule ->> 'timezone'))::date
             then greatest(0, c.messages_sent_today - 1)
           when not counts_today then c.messages_sent_today
           when c.sent_today_on = (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then c.messages_sent_today + 1
           when c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then 1
           else c.messages_sent_today end,
         sent_today_on = case
           when counts_today and (c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date)
             then (new.sent_at at time zone (c.schedule ->> 'timezone'))::date
           else c.sent_today_on end
   where c.id = new.campaign_id;

  if refused and old.account_id is not null then
    update public.social_accounts a
       set messages_sent_today = greatest(0, a.messages_sent_today - 1)
     where a.id = old.account_id and a.sent_today_on = (old.sent_at at time zone a.timezone)::date;
  end if;

  if counts_today and new.account_id is not null then
    update public.social_accounts a
       set messages_sent_today = case
             when a.sent_today_on = (new.sent_at at time zone a.timezone)::date then a.messages_sent_today + 1
             when a.sent_today_on is null or a.sent_today_on < (new.sent_at at time zone a.timezone)::date then 1
             else a.messages_sent_today end,
           sent_today_on = greatest(a.sent_today_on, (new.sent_at at time zone a.timezone)::date)
     where a.id = new.account_id;
  end if;

  if new.status in ('sent', 'uncertain') then
    select p.name into platform_name
      from public.campaigns c join public.platforms p on p.id = c.platform_id where c.id = new.campaign_id;
    insert into public.contact_ledger (user_id, platform, target_username, first_contacted_at, campaign_id, account_id)
    values (new.user_id, platform_name, new.target_username, new.sent_at, new.campaign_id, new.account_id)
    on conflict do nothing;
  end if;
  return null;
end
$function$;

ALTER TABLE "public"."dm_logs"
  ADD CONSTRAINT "dm_logs_status_check" CHECK ((status = ANY (ARRAY['sent'::text, 'failed'::text, 'error'::text, 'uncertain'::text, 'deferred'::text, 'skipped'::text])));

COMMENT ON COLUMN "public"."dm_logs"."status" IS 'sent (confirmed on the page), failed / error (not sent), uncertain (could not confirm; the runner checks the thread later), deferred (not attempted: the DM page ran out of time before send was pressed, the machine or network was slow, or the page met a site change; not held against the account, left out of the failed figures, the step is due again), skipped (the platform refused this lead: closed inbox, verified-only, cannot be messaged; nothing went out, the lead is skipped, and the row counts in no figure: not an attempt, not a failure, not today''s sends).';

COMMENT ON FUNCTION "internal"."count_daily_message"() IS 'AFTER INSERT/UPDATE of status on dm_logs: moves the log''s day figures (attempts on the day it was logged, none for a lead the platform refused; sent, failed, uncertain on the day of its sent_at).';

COMMENT ON FUNCTION "internal"."count_dm_log"() IS 'AFTER INSERT/UPDATE of status on dm_logs: campaign counters (messages_failed = logs failed or error now; a log skipped because the platform refused the lead gives its attempt back), today''s counters of campaign and account, and the contact ledger.';
