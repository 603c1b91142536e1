-- A DM whose page ran out of time before send was pressed was logged `error`: it counted as a
-- failed attempt (the account's circuit breaker, the campaign's failed figures, the dashboard's
-- delivery rate) and backed the lead off, although nothing was attempted on the platform and only
-- the machine or the network was slow. Such a step is now logged `deferred`: left out of every
-- failed figure (they count failed / error), and its lead stays due at once with its attempt given
-- back. Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

ALTER TABLE "public"."dm_logs"
  DROP CONSTRAINT "dm_logs_status_check";

CREATE OR REPLACE FUNCTION internal.prepare_campaign_lead()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  campaign record;
  follow_ups integer;
  step_status text;
begin
  if tg_op = 'INSERT' then
    select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
    new.username := ltrim(btrim(new.username), '@');
  end if;

  if tg_op = 'UPDATE' and new.state in ('pending', 'sent') and old.state in ('sending', 'uncertain') then
    select d.status into step_status
      from public.dm_logs d where d.campaign_lead_id = new.id and d.step = old.current_step;
  end if;

  if step_status = 'deferred' then
    -- nothing was attempted (the page ran out of time before send was pressed): due again at once,
    -- and the attempt given back, so a slow machine never backs the lead off nor gives it up
    new.current_step := old.current_step;
    new.next_send_at := internal.now();
    new.attempts := greatest(0, new.attempts - 1);
  elsif step_status in ('failed', 'error') then
    -- not delivered: the same step again, later
    new.current_step := old.current_step;
    new.next_send_at := internal.now()
      + least(interval '6 hours', interval '5 minutes' * power(2, greatest(0, new.attempts - 1)));
  elsif tg_op = 'UPDATE' and new.state = 'sent' and old.state is distinct from 'sent' then
    -- a send recorded as sent moves the lead to its next step; a follow-up is due followUpDays later
    new.last_sent_at := coalesce(new.last_sent_at, internal.now());
    if new.current_step = old.current_step then
      new.current_step := old.current_step + 1;
    end if;
    select c.sequences into campaign from public.campaigns c where c.id = new.campaign_id;
    select count(*) into follow_ups
      from jsonb_array_elements_text(campaign.sequences -> 'followUpMessages') m where btrim(m) <> '';
    if (campaign.sequences ->> 'followUpEnabled')::boolean and new.current_step <= follow_ups then
      new.next_send_at := new.last_sent_at + make_interval(days => (campaign.sequences ->> 'followUpDays')::int);
    else
      new.next_send_at := null;
    end if;
  elsif tg_op = 'UPDATE' and new.state = 'sent' and new.next_send_at is not null
        and new.next_send_at is not distinct from old.next_send_at then
    -- a follow-up is due: still, if the campaign has one for this step (follow-ups can be removed;
    -- a due time set in this very update is kept)
    select c.sequences into campaign from public.campaigns c where c.id = new.campaign_id;
    select count(*) into follow_ups
      from jsonb_array_elements_text(campaign.sequences -> 'followUpMessages') m where btrim(m) <> '';
    if not coalesce((campaign.sequences ->> 'followUpEnabled')::boolean, false) or new.current_step > follow_ups then
      new.next_send_at := null;
    end if;
  end if;

  -- next_send_at is set exactly while something is due: pending leads now, follow-ups later.
  if new.replied_at is not null or new.state in ('sending', 'failed', 'uncertain', 'skipped') then
    new.next_send_at := null;
  elsif new.state = 'pending' and new.next_send_at is null then
    new.next_send_at := internal.now();
  end if;
  if new.state = 'sending' and (tg_op = 'INSERT' or old.state is distinct from 'sending') then
    new.attempts := new.attempts + 1;
  end if;
  return new;
end
$function$;

ALTER TABLE "public"."dm_logs"
  ADD CONSTRAINT "dm_logs_status_check" CHECK ((status = ANY (ARRAY['sent'::text, 'failed'::text, 'error'::text, 'uncertain'::text, 'deferred'::text])));

COMMENT ON COLUMN "public"."dm_logs"."status" IS 'sent (confirmed on the page), failed / error (not sent), uncertain (could not confirm; the runner checks the thread later), deferred (not attempted: the DM page ran out of time before send was pressed, the machine or network was slow; not held against the account, left out of the failed figures, the step is due again).';
