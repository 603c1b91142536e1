-- Instagram automations' results for the dashboard: one owner-only function that counts each
-- automation's runs and reads, from the webhook events no customer may read, whether the person
-- replied and whether the answer started the conversation; indexes for those look-ups.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.instagram_automation_results()
  RETURNS TABLE (
    automation_id         uuid,
    triggered             integer,
    sent                  integer,
    refused               integer,
    failed                integer,
    replied               integer,
    conversations_started integer,
    refusals              jsonb,
    last_triggered_at     timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- Security definer because "replied" and "started" read what people wrote (the webhook events,
  -- which no customer reads); every row is the caller's own automation.
  with runs as (
    select r.*, a.platform_user_id as instagram_id
      from public.instagram_automation_runs r
      join public.instagram_automations au on au.id = r.automation_id
      join public.social_accounts a on a.id = r.account_id
     where au.user_id = (select auth.uid())
  ),
  judged as (
    select r.automation_id, r.status, r.reason, r.created_at,
           -- the person wrote to the account after the automation's answer
           r.status = 'sent' and exists (
             select 1 from internal.instagram_webhook_events e
              where e.instagram_account_id = r.instagram_id
                and e.kind = any (array['message', 'story_reply', 'story_mention'])
                and (e.payload -> 'sender' ->> 'id') = r.person_id
                and e.occurred_at > r.created_at
                and e.event_key <> r.trigger_key) as replied,
           -- the answer was the account's first DM exchange with this person: nothing they wrote
           -- before (other than what triggered it) and no earlier automation DM to them
           r.status = 'sent' and not exists (
             select 1 from internal.instagram_webhook_events e
              where e.instagram_account_id = r.instagram_id
                and e.kind = any (array['message', 'story_reply', 'story_mention'])
                and (e.payload -> 'sender' ->> 'id') = r.person_id
                and e.occurred_at < r.created_at
                and e.event_key <> r.trigger_key)
           and not exists (
             select 1 from public.instagram_automation_runs p
              where p.account_id = r.account_id and p.person_id = r.person_id and p.status = 'sent'
                and (p.created_at, p.id) < (r.created_at, r.id)) as started
      from runs r
  )
  select au.id,
         count(j.status)::integer,
         (count(*) filter (where j.status = 'sent'))::integer,
         (count(*) filter (where j.status = 'refused'))::integer,
         (count(*) filter (where j.status = 'failed'))::integer,
         (count(*) filter (where j.replied))::integer,
         (count(*) filter (where j.started))::integer,
         coalesce((select jsonb_agg(jsonb_build_object('reason', x.reason, 'count', x.n) order by x.n desc, x.reason)
                     from (select k.reason, count(*)::integer as n from judged k
                            where k.automation_id = au.id and k.status in ('refused', 'failed') and k.reason is not null
                            group by k.reason order by count(*) desc, k.reason limit 5) x), '[]'::jsonb),
         max(j.created_at)
    from public.instagram_automations au
    left join judged j on j.automation_id = au.id
   where au.user_id = (select auth.uid())
   group by au.id
$function$;

REVOKE ALL ON FUNCTION "public"."instagram_automation_results"() FROM PUBLIC, "anon";

CREATE INDEX instagram_webhook_events_person_idx ON internal.instagram_webhook_events
  USING btree (instagram_account_id, (((payload -> 'sender'::text) ->> 'id'::text)), occurred_at)
  WHERE (kind = ANY (ARRAY['message'::text, 'story_reply'::text, 'story_mention'::text]));

CREATE INDEX instagram_automation_runs_person_idx ON public.instagram_automation_runs USING btree (account_id, person_id, created_at);

COMMENT ON FUNCTION "public"."instagram_automation_results"() IS 'The signed-in customer''s automations with their results: triggered (every run), sent, refused and failed (with the five commonest reasons), replied (the person wrote again after the answer) and conversations started (the answer was the account''s first DM exchange with that person).';

GRANT EXECUTE ON FUNCTION "public"."instagram_automation_results"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."instagram_automation_results"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_automation_results"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_automation_results"() TO "service_role";
