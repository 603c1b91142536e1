-- One follow-up per Instagram automation DM, inside the 24-hour window Instagram allows after the
-- person's last message: the automation's text and delay (DM and story triggers only: a comment
-- does not open the window), a follow-up row per sent DM claimed once by the runner's
-- instagram.followup job (skipped when the person wrote again, refused past 24 hours), a minute's
-- sweep for follow-ups whose job was lost, and the customer's results.
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas; the queue and the cron job by hand.

SET local check_function_bodies = off;

CREATE TABLE "public"."instagram_automation_followups" (
  "id"            uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "run_id"        uuid                     NOT NULL,
  "automation_id" uuid                     NOT NULL,
  "user_id"       uuid                     NOT NULL,
  "account_id"    uuid                     NOT NULL,
  "person_id"     text                     NOT NULL,
  "sent_after"    timestamp with time zone NOT NULL,
  "due_at"        timestamp with time zone NOT NULL,
  "status"        text                     NOT NULL DEFAULT 'scheduled'::text,
  "reason"        text,
  "message_id"    text,
  "job_id"        uuid,
  "created_at"    timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"    timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "instagram_automation_followups_due_check" CHECK ((due_at > sent_after)),
  CONSTRAINT "instagram_automation_followups_pkey" PRIMARY KEY (id),
  CONSTRAINT "instagram_automation_followups_run_id_key" UNIQUE (run_id),
  CONSTRAINT "instagram_automation_followups_status_check"
    CHECK ((status = ANY (ARRAY['scheduled'::text, 'sending'::text, 'sent'::text, 'skipped'::text, 'refused'::text, 'failed'::text, 'cancelled'::text])))
);

ALTER TABLE "public"."instagram_automation_followups"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."instagram_automation_followups" FROM "anon";

ALTER TABLE "public"."instagram_automations"
  ADD COLUMN "followup_text" text;

ALTER TABLE "public"."instagram_automations"
  ADD COLUMN "followup_delay_minutes" integer;

CREATE OR REPLACE FUNCTION internal.begin_instagram_followup (
  p_followup_id uuid
)
  RETURNS TABLE (
    action        text,
    followup_text text,
    person_id     text,
    account_id    uuid
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  t constant timestamptz := internal.now();
  f public.instagram_automation_followups;
  au public.instagram_automations;
  account public.social_accounts;
  instagram_id text;
  trigger_key text;
  last_message timestamptz;
  verdict text;
  why text;
begin
  -- locked: a second job for the same follow-up waits here, then finds it no longer scheduled
  select * into f from public.instagram_automation_followups x where x.id = p_followup_id for update;
  if f.id is null or f.status <> 'scheduled' then
    return query select 'done'::text, null::text, null::text, null::uuid;
    return;
  end if;
  if f.due_at > t then
    return query select 'early'::text, null::text, null::text, null::uuid;
    return;
  end if;
  select * into au from public.instagram_automations a where a.id = f.automation_id;
  select * into account from public.social_accounts a where a.id = f.account_id;
  instagram_id := account.platform_user_id;
  select r.trigger_key into trigger_key from public.instagram_automation_runs r where r.id = f.run_id;

  if not au.enabled then
    verdict := 'cancelled';
    why := 'The automation was paused before the follow-up was due.';
  elsif au.followup_text is null then
    verdict := 'cancelled';
    why := 'The follow-up was removed from the automation before it was due.';
  elsif account.connection <> 'official' or account.status <> 'active' then
    verdict := 'cancelled';
    why := 'The Instagram account was not connected when the follow-up was due.';
  elsif exists (select 1 from internal.instagram_webhook_events e
                 where e.instagram_account_id = instagram_id
                   and e.kind = any (array['message', 'story_reply', 'story_mention'])
                   and (e.payload -> 'sender' ->> 'id') = f.person_id
                   and e.occurred_at > f.sent_after
                   and e.event_key <> trigger_key) then
    -- an answer stops the follow-up, as a reply stops a campaign's follow-ups
    verdict := 'skipped';
    why := 'They answered before the follow-up was due.';
  else
    select max(e.occurred_at) into last_message
      from internal.instagram_webhook_events e
     where e.instagram_account_id = instagram_id
       and e.kind = any (array['message', 'story_reply', 'story_mention'])
       and (e.payload -> 'sender' ->> 'id') = f.person_id;
    if last_message is null or t - last_message > interval '24 hours' then
      verdict := 'refused';
      why := 'Their last message is more than 24 hours old: Instagram allows a message only within 24 hours of it, so the follow-up was not sent.';
    else
      verdict := 'sending';
    end if;
  end if;

  update public.instagram_automation_followups x
     set status = verdict, reason = why, updated_at = now()
   where x.id = f.id;
  if verdict = 'sending' then
    return query select 'send'::text, au.followup_text, f.person_id, f.account_id;
  else
    return query select verdict, null::text, null::text, null::uuid;
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION internal.enqueue_due_instagram_followups()
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  t constant timestamptz := internal.now();
  queued integer;
begin
  -- A follow-up claimed a quarter of an hour ago and never finished died with its runner: whether
  -- Instagram got it is unknown, so it is recorded failed, not sent again.
  update public.instagram_automation_followups f
     set status = 'failed', reason = 'The runner stopped while sending the follow-up: whether Instagram delivered it is unknown.',
         updated_at = now()
   where f.status = 'sending' and f.updated_at < now() - interval '15 minutes';
  -- A follow-up still waiting a minute after it was due lost its job (or the clock moved): queued now.
  with due as (
    select f.id from public.instagram_automation_followups f
     where f.status = 'scheduled' and f.due_at <= t - interval '1 minute'
     order by f.due_at
     limit 500
  )
  select count(*)::integer into queued
    from due d
   cross join lateral internal.enqueue_job('instagram.followup', jsonb_build_object('followupId', d.id),
                                           'instagram-followup-due:' || d.id) j
   where j is not null;
  return queued;
end
$function$;

CREATE OR REPLACE FUNCTION internal.finish_instagram_followup (
  p_followup_id uuid,
  p_status      text,
  p_reason      text,
  p_message_id  text
)
  RETURNS void
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  update public.instagram_automation_followups f
     set status = p_status, reason = left(p_reason, 500), message_id = p_message_id, updated_at = now()
   where f.id = p_followup_id and f.status = 'sending'
$function$;

CREATE OR REPLACE FUNCTION internal.schedule_instagram_followup (
  p_run_id uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  t constant timestamptz := internal.now();
  followup public.instagram_automation_followups;
begin
  insert into public.instagram_automation_followups (run_id, automation_id, user_id, account_id, person_id, sent_after, due_at)
  select r.id, r.automation_id, r.user_id, r.account_id, r.person_id, t, t + make_interval(mins => au.followup_delay_minutes)
    from public.instagram_automation_runs r
    join public.instagram_automations au on au.id = r.automation_id
   where r.id = p_run_id and r.status = 'sent' and au.followup_text is not null
  on conflict (run_id) do nothing
  returning * into followup;
  if followup.id is null then
    return null;
  end if;
  -- started when it is due; a follow-up whose job is lost is queued again by the minute's sweep
  update public.instagram_automation_followups f
     set job_id = internal.enqueue_job('instagram.followup', jsonb_build_object('followupId', followup.id),
                                       'instagram-followup:' || followup.id, now() + (followup.due_at - t))
   where f.id = followup.id;
  return followup.id;
end
$function$;

CREATE OR REPLACE FUNCTION public.instagram_followup_results()
  RETURNS TABLE (
    automation_id uuid,
    waiting       integer,
    sent          integer,
    skipped       integer,
    not_sent      integer,
    reasons       jsonb
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- Beside instagram_automation_results, but as the caller: the follow-ups are theirs to read (RLS).
  select au.id,
         (count(*) filter (where f.status in ('scheduled', 'sending')))::integer,
         (count(*) filter (where f.status = 'sent'))::integer,
         (count(*) filter (where f.status = 'skipped'))::integer,
         (count(*) filter (where f.status in ('refused', 'failed', 'cancelled')))::integer,
         coalesce((select jsonb_agg(jsonb_build_object('reason', x.reason, 'count', x.n) order by x.n desc, x.reason)
                     from (select k.reason, count(*)::integer as n from public.instagram_automation_followups k
                            where k.automation_id = au.id and k.status in ('refused', 'failed', 'cancelled')
                              and k.reason is not null
                            group by k.reason order by count(*) desc, k.reason limit 5) x), '[]'::jsonb)
    from public.instagram_automations au
    join public.instagram_automation_followups f on f.automation_id = au.id
   where au.user_id = (select auth.uid())
   group by au.id
$function$;

REVOKE ALL ON FUNCTION "public"."instagram_followup_results"() FROM PUBLIC, "anon";

ALTER TABLE "public"."instagram_automation_followups"
  ADD CONSTRAINT "instagram_automation_followups_account_id_fkey" FOREIGN KEY (account_id) REFERENCES public.social_accounts(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automation_followups"
  ADD CONSTRAINT "instagram_automation_followups_automation_id_fkey" FOREIGN KEY (automation_id) REFERENCES public.instagram_automations(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automation_followups"
  ADD CONSTRAINT "instagram_automation_followups_run_id_fkey" FOREIGN KEY (run_id) REFERENCES public.instagram_automation_runs(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automation_followups"
  ADD CONSTRAINT "instagram_automation_followups_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automations"
  ADD CONSTRAINT "instagram_automations_followup_check"
    CHECK ((((followup_text IS NULL) = (followup_delay_minutes IS NULL)) AND ((followup_text IS NULL) OR (trigger <> 'comment_keyword'::text))));

ALTER TABLE "public"."instagram_automations"
  ADD CONSTRAINT "instagram_automations_followup_delay_minutes_check"
    CHECK (((followup_delay_minutes IS NULL) OR ((followup_delay_minutes >= 1) AND (followup_delay_minutes <= 1439))));

ALTER TABLE "public"."instagram_automations"
  ADD CONSTRAINT "instagram_automations_followup_text_check" CHECK (((followup_text IS NULL) OR ((char_length(followup_text) >= 1) AND (octet_length(followup_text) <= 1000))));

CREATE INDEX instagram_automation_followups_automation_id_idx ON public.instagram_automation_followups USING btree (automation_id);

CREATE INDEX instagram_automation_followups_due_idx ON public.instagram_automation_followups USING btree (due_at)
  WHERE (status = ANY (ARRAY['scheduled'::text, 'sending'::text]));

CREATE INDEX instagram_automation_followups_user_id_idx ON public.instagram_automation_followups USING btree (user_id);

CREATE POLICY "Customers read their own follow-ups" ON "public"."instagram_automation_followups"
  FOR SELECT
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "The runner reads every follow-up" ON "public"."instagram_automation_followups"
  FOR SELECT
  TO "reachflow_runner"
  USING (true);

COMMENT ON COLUMN "public"."instagram_automation_followups"."sent_after" IS 'When the automation''s DM was sent (internal.now()): a message from the person after it means they answered.';

COMMENT ON COLUMN "public"."instagram_automations"."followup_delay_minutes" IS 'Minutes after the automation''s DM before the follow-up goes: 1 to 1,439 (23 h 59 min), so it can still fall inside the 24-hour window.';

COMMENT ON COLUMN "public"."instagram_automations"."followup_text" IS 'The one follow-up DM, sent when the person has not written again followup_delay_minutes after the automation''s DM, and only within 24 hours of their last message. Not for comments: a comment does not open Instagram''s 24-hour window.';

COMMENT ON FUNCTION "internal"."begin_instagram_followup"(uuid) IS 'The runner, when a follow-up''s job runs: claims it once it is due. Answers send (with the text, the person and the account: it is now sending), or what happened instead, already recorded with its reason: skipped (the person wrote after the DM), refused (their last message is over 24 hours old), cancelled (automation paused, follow-up removed, account not working); early (not due yet, nothing changed) or done (already handled).';

COMMENT ON FUNCTION "internal"."enqueue_due_instagram_followups"() IS 'Run by pg_cron every minute: queues the instagram.followup job of each follow-up still waiting a minute after it was due, and records as failed one that has been sending for 15 minutes. Returns how many were queued.';

COMMENT ON FUNCTION "internal"."finish_instagram_followup"(uuid, text, text, text) IS 'The runner, after Instagram answered a follow-up it was sending: sent (with the message id), refused (with Instagram''s reason) or failed (unknown whether it went; never sent again).';

COMMENT ON FUNCTION "internal"."schedule_instagram_followup"(uuid) IS 'The runner, after an automation''s DM was sent: when the automation has a follow-up, schedules it (once per run) for its delay after now and queues its instagram.followup job to start then. Answers the follow-up''s id, or null when there is none.';

COMMENT ON FUNCTION "public"."instagram_followup_results"() IS 'The signed-in customer''s automations that scheduled follow-ups, with what became of them: waiting, sent, skipped (the person answered first) and not sent (refused outside the 24-hour window or by Instagram, failed, or cancelled), with the five commonest reasons.';

COMMENT ON TABLE "public"."instagram_automation_followups" IS 'The follow-up of an automation''s DM (at most one per run): scheduled when the DM was sent, then sent, skipped (the person wrote again first), refused (outside Instagram''s 24-hour window, or by Instagram), failed (unknown whether it went) or cancelled (automation paused or follow-up removed, account not working). Written by the runner.';

REVOKE ALL ON FUNCTION "internal"."begin_instagram_followup"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."begin_instagram_followup"(uuid) TO "reachflow_runner";

REVOKE ALL ON FUNCTION "internal"."enqueue_due_instagram_followups"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."finish_instagram_followup"(uuid, text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."finish_instagram_followup"(uuid, text, text, text) TO "reachflow_runner";

REVOKE ALL ON FUNCTION "internal"."schedule_instagram_followup"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."schedule_instagram_followup"(uuid) TO "reachflow_runner";

GRANT EXECUTE ON FUNCTION "public"."instagram_followup_results"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."instagram_followup_results"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_followup_results"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_followup_results"() TO "service_role";

REVOKE ALL ON TABLE "public"."instagram_automation_followups" FROM "authenticated";

GRANT SELECT ON TABLE "public"."instagram_automation_followups" TO "authenticated";

REVOKE ALL ON TABLE "public"."instagram_automation_followups" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."instagram_automation_followups" TO "postgres";

GRANT SELECT ON TABLE "public"."instagram_automation_followups" TO "reachflow_runner";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."instagram_automation_followups" TO "service_role";

-- Queue and schedule (by hand) -------------------------------------------------------------------

-- A follow-up is claimed before it is sent, so a retried job never sends a second one.
select pgboss.create_queue('instagram.followup',
  jsonb_build_object('policy', 'short', 'retryLimit', 3, 'retryDelay', 60, 'retryBackoff', true, 'expireInSeconds', 300));
select cron.schedule('reachflow-instagram-followups', '* * * * *', 'select internal.enqueue_due_instagram_followups()');
