-- A site change pauses the fleet only on evidence that it is the site. Written by `npm run db:diff`
-- (pg-delta) from supabase/schemas. One unexpected page (one lead, one account, one moment) paused
-- a platform action for every customer; now:
-- - each sighting is kept (platform_incident_sightings: source, account, canary run, path, when);
-- - internal.record_site_change takes the account and canary run, and pauses only when a second
--   account or the canary meets the same step within 30 minutes; the evidence is stored on the
--   incident (paused_at, evidence) and named in the operators' log line;
-- - until then only the account that met it waits (internal.platform_action_held) and a canary run
--   ("confirm") is queued at once.
-- By hand below: incidents recorded before this paused on their one sighting; they keep that as
-- their evidence ("single").

SET local check_function_bodies = off;

ALTER TABLE "public"."platform_canary_runs"
  DROP CONSTRAINT "platform_canary_runs_trigger_check";

DROP FUNCTION "internal"."record_site_change"(text, text, text, text, jsonb, text, text);

CREATE TABLE "public"."platform_incident_sightings" (
  "id"               bigint                   GENERATED ALWAYS AS IDENTITY NOT NULL,
  "incident_id"      uuid                     NOT NULL,
  "source"           text                     NOT NULL,
  "account_id"       uuid,
  "account_username" text,
  "canary_run_id"    uuid,
  "path"             text                     NOT NULL DEFAULT ''::text,
  "seen_at"          timestamp with time zone NOT NULL,
  CONSTRAINT "platform_incident_sightings_pkey" PRIMARY KEY (id),
  CONSTRAINT "platform_incident_sightings_source_check" CHECK ((source = ANY (ARRAY['job'::text, 'canary'::text])))
);

ALTER TABLE "public"."platform_incident_sightings"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."platform_incident_sightings" FROM "anon", "authenticated";

ALTER TABLE "public"."platform_incidents"
  ADD COLUMN "paused_at" timestamp WITH time zone;

ALTER TABLE "public"."platform_incidents"
  ADD COLUMN "evidence" jsonb;

update public.platform_incidents
   set paused_at = first_seen_at,
       evidence = jsonb_build_object('reason', 'single', 'windowMinutes', null, 'sightings', '[]'::jsonb);

CREATE OR REPLACE FUNCTION internal.platform_action_held (
  p_platform   text,
  p_action     text,
  p_account_id uuid
)
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- The account met a page no other account (nor the canary) has confirmed yet: its own work of
  -- that action waits while the evidence is fresh; every other account goes on.
  select exists (select 1 from public.platform_incidents i
                   join public.platform_incident_sightings s on s.incident_id = i.id
                  where i.platform = p_platform and i.action in (p_action, 'session') and i.status = 'open'
                    and i.paused_at is null and s.account_id = p_account_id and s.source = 'job'
                    and s.seen_at > internal.now() - make_interval(mins => internal.site_change_window_minutes()))
$function$;

CREATE OR REPLACE FUNCTION internal.record_site_change (
  p_platform      text,
  p_action        text,
  p_step          text,
  p_path          text,
  p_outline       jsonb,
  p_source        text,
  p_pack_version  text,
  p_account_id    uuid,
  p_canary_run_id uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  incident record;
  redacted_path text := regexp_replace(left(coalesce(p_path, ''), 500), '[0-9]+', '#', 'g');
  since timestamp with time zone := internal.now() - make_interval(mins => internal.site_change_window_minutes());
  witnesses integer;
  canary_saw boolean;
  found_evidence jsonb;
  paused integer;
  -- The account as it is now (none when it was deleted while its job ran).
  witness record;
begin
  select a.id, a.username into witness from public.social_accounts a where a.id = p_account_id;
  if p_action not in ('send', 'inbox', 'scrape', 'session') then
    raise exception 'Unknown platform action %', p_action using errcode = '22023';
  end if;
  -- One open incident per platform, action and step: a repeat is one more sighting.
  insert into public.platform_incidents as i (platform, action, step, path, source, pack_version)
  values (p_platform, p_action, left(p_step, 200), redacted_path, p_source, left(p_pack_version, 100))
  on conflict (platform, action, step) where status = 'open'
  do update set sightings = i.sightings + 1, last_seen_at = now(), path = excluded.path,
                pack_version = coalesce(excluded.pack_version, i.pack_version)
  returning i.id, i.paused_at, (xmax = 0) as fresh into incident;

  insert into public.platform_incident_sightings (incident_id, source, account_id, account_username, canary_run_id, path, seen_at)
  values (incident.id, p_source, witness.id, witness.username, p_canary_run_id, redacted_path, internal.now());

  insert into public.platform_incident_outlines (incident_id, captured_at, path, outline)
  values (incident.id, now(), redacted_path, coalesce(p_outline, '{}'::jsonb))
  on conflict (incident_id) do update set captured_at = excluded.captured_at, path = excluded.path, outline = excluded.outline;

  if incident.paused_at is not null then
    return incident.id;
  end if;

  -- Is it the site? One account's odd page (a lead, a moment) is not: it takes a second account,
  -- or the canary, meeting the same step within the window. A job's account and the canary count
  -- as two witnesses even when the canary signs in with that same account.
  select count(distinct case when s.source = 'canary' then 'canary' else s.account_id::text end),
         bool_or(s.source = 'canary')
    into witnesses, canary_saw
    from public.platform_incident_sightings s
   where s.incident_id = incident.id and s.seen_at > since
     and (s.source = 'canary' or s.account_id is not null);

  if witnesses < 2 then
    if p_source = 'job' then
      insert into public.system_logs (level, service, message, metadata)
      values ('warn', p_platform,
              format('%s showed an unexpected page at "%s" (%s) to @%s: only that account''s %s waits while the canary checks',
                     internal.platform_label(p_platform), left(p_step, 200), redacted_path, coalesce(witness.username, 'an account'), p_action),
              jsonb_build_object('incidentId', incident.id, 'platform', p_platform, 'action', p_action, 'source', p_source,
                                 'accountId', witness.id));
      -- Check at once on the canary's own account, unless a run is already on its way.
      if not exists (select 1 from public.platform_canary_runs r
                      where r.platform = p_platform and r.status in ('queued', 'running') and r.trigger <> 'try') then
        perform internal.queue_canary_run(p_platform, 'confirm', null, null);
      end if;
    end if;
    return incident.id;
  end if;

  select jsonb_build_object(
           'reason', case when canary_saw then 'canary' else 'accounts' end,
           'windowMinutes', internal.site_change_window_minutes(),
           'sightings', jsonb_agg(jsonb_build_object('source', w.source, 'accountId', w.account_id, 'username', w.account_username,
                                                     'canaryRunId', w.canary_run_id, 'path', w.path, 'seenAt', w.seen_at)
                                  order by w.seen_at, w.id))
    into found_evidence
    from (select distinct on (case when s.source = 'canary' then 'canary' else s.account_id::text end) s.*
            from public.platform_incident_sightings s
           where s.incident_id = incident.id and s.seen_at > since
             and (s.source = 'canary' or s.account_id is not null)
           order by case when s.source = 'canary' then 'canary' else s.account_id::text end, s.seen_at desc, s.id desc) w;

  -- Back within the hour after the canary resolved the same step's pause: it flaps, an operator decides.
  update public.platform_incidents i
     set paused_at = now(), evidence = found_evidence,
         auto_resume = not exists (
           select 1 from public.platform_incidents r
            where r.platform = p_platform and r.action = p_action and r.step = left(p_step, 200) and r.paused_at is not null
              and r.status = 'resolved' and r.resolution = 'canary' and r.resolved_at > now() - interval '1 hour')
   where i.id = incident.id;
  insert into public.system_logs (level, service, message, metadata)
  values ('error', p_platform,
          format('%s changed its page at "%s" (%s): %s paused on every account, %s', internal.platform_label(p_platform),
                 left(p_step, 200), redacted_path, p_action,
                 case when canary_saw then 'the canary met it too'
                      else 'met by ' || (select string_agg('@' || coalesce(e ->> 'username', '?'), ' and ' order by e ->> 'seenAt')
                                           from jsonb_array_elements(found_evidence -> 'sightings') e)
                           || format(' within %s minutes', internal.site_change_window_minutes()) end),
          jsonb_build_object('incidentId', incident.id, 'platform', p_platform, 'action', p_action, 'source', p_source,
                             'evidence', found_evidence));

  insert into public.platform_action_pauses (platform, action, incident_id)
  values (p_platform, p_action, incident.id)
  on conflict (platform, action) do nothing;
  get diagnostics paused = row_count;
  if paused > 0 then
    perform internal.notify_platform_customers(p_platform, p_action, false);
  end if;
  return incident.id;
end
$function$;

CREATE OR REPLACE FUNCTION internal.resolve_site_changes (
  p_platform   text,
  p_action     text,
  p_resolution text,
  p_by         uuid,
  p_published  boolean DEFAULT false
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  resolved integer;
  lifted text[];
  action text;
begin
  -- The canary resolves what it may (auto_resume), everything once it passed with a pack an
  -- operator just published (the fix); an operator resolves the action's incidents. The canary
  -- never sends: its pass clears no suspicion about sending (that account waits out the window).
  update public.platform_incidents i
     set status = 'resolved', resolved_at = now(), resolution = p_resolution, resolved_by = p_by
   where i.platform = p_platform and i.status = 'open'
     and (p_action is null or i.action = p_action)
     and (p_resolution = 'operator' or p_published
          or (i.auto_resume and (i.paused_at is not null or i.action <> 'send')));
  get diagnostics resolved = row_count;

  -- A pause lifts once no open incident of its action is left (an operator lifts the one named).
  with gone as (
    delete from public.platform_action_pauses pa
     where pa.platform = p_platform and (p_action is null or pa.action = p_action)
       and (p_resolution = 'operator'
            or not exists (select 1 from public.platform_incidents i
                            where i.platform = pa.platform and i.action = pa.action and i.status = 'open'))
    returning pa.action
  )
  select coalesce(array_agg(g.action order by g.action), '{}') into lifted from gone g;

  foreach action in array lifted loop
    perform internal.notify_platform_customers(p_platform, action, true);
  end loop;
  -- Account tests that waited for the platform's sign-in run now.
  if 'session' = any (lifted) then
    perform internal.enqueue_job('account.test', jsonb_build_object('accountId', a.id), 'account:' || a.id)
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      where p.name = p_platform and a.status = 'testing';
  end if;
  if resolved > 0 or cardinality(lifted) > 0 then
    insert into public.system_logs (level, service, message, metadata)
    values ('info', p_platform,
            format('%s: %s resumed %s', internal.platform_label(p_platform),
                   case when cardinality(lifted) = 0 then 'nothing' else array_to_string(lifted, ', ') end,
                   case p_resolution when 'canary' then 'after the canary passed' else 'by an operator' end),
            jsonb_build_object('platform', p_platform, 'resolved', resolved, 'resumed', to_jsonb(lifted),
                               'resolution', p_resolution));
  end if;
  return jsonb_build_object('resolved', resolved, 'resumed', to_jsonb(lifted));
end
$function$;

CREATE OR REPLACE FUNCTION internal.site_change_window_minutes()
  RETURNS integer
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select 30
$function$;

ALTER TABLE "public"."platform_canary_runs"
  ADD CONSTRAINT "platform_canary_runs_trigger_check" CHECK ((trigger = ANY (ARRAY['schedule'::text, 'try'::text, 'publish'::text, 'manual'::text, 'confirm'::text])));

ALTER TABLE "public"."platform_incident_sightings"
  ADD CONSTRAINT "platform_incident_sightings_account_id_fkey" FOREIGN KEY (account_id) REFERENCES public.social_accounts(id) ON DELETE SET NULL;

ALTER TABLE "public"."platform_incident_sightings"
  ADD CONSTRAINT "platform_incident_sightings_canary_run_id_fkey" FOREIGN KEY (canary_run_id) REFERENCES public.platform_canary_runs(id) ON DELETE SET NULL;

ALTER TABLE "public"."platform_incident_sightings"
  ADD CONSTRAINT "platform_incident_sightings_incident_id_fkey" FOREIGN KEY (incident_id) REFERENCES public.platform_incidents(id) ON DELETE CASCADE;

ALTER TABLE "public"."platform_incidents"
  ADD CONSTRAINT "platform_incidents_evidence_check" CHECK (((paused_at IS NULL) = (evidence IS NULL)));

CREATE INDEX platform_incident_sightings_account_id_idx ON public.platform_incident_sightings USING btree (account_id)
  WHERE (account_id IS NOT NULL);

CREATE INDEX platform_incident_sightings_canary_run_id_idx ON public.platform_incident_sightings USING btree (canary_run_id)
  WHERE (canary_run_id IS NOT NULL);

CREATE INDEX platform_incident_sightings_incident_id_seen_at_idx ON public.platform_incident_sightings USING btree (incident_id, seen_at DESC);

COMMENT ON COLUMN "public"."platform_canary_runs"."trigger" IS 'schedule, try (a draft pack), publish (the check after a publication), manual (Run now), confirm (a job met a changed page: does the canary meet it too?).';

COMMENT ON COLUMN "public"."platform_incident_sightings"."account_username" IS 'The account''s username when it met the page, kept for the evidence after the account is gone.';

COMMENT ON COLUMN "public"."platform_incidents"."evidence" IS 'What paused it: {reason accounts|canary|single (paused on one sighting, before evidence was required), windowMinutes, sightings [{source, accountId, username, canaryRunId, path, seenAt}]}.';

COMMENT ON COLUMN "public"."platform_incidents"."paused_at" IS 'When the evidence sufficed to pause the action fleet-wide (two accounts, or the canary after a job, within 30 minutes); null while only suspected.';

COMMENT ON FUNCTION "internal"."platform_action_held"(text, text, uuid) IS 'True while the account''s own sighting of an unconfirmed site change of that action (or its session) is within the window.';

COMMENT ON FUNCTION "internal"."record_site_change"(text, text, text, text, jsonb, text, text, uuid, uuid) IS 'The runner met a changed page: counts the sighting and keeps the outline; on evidence that it is the site (a second account or the canary within the window) pauses the action fleet-wide with that evidence and tells customers (once per pause), else queues a canary check.';

COMMENT ON FUNCTION "internal"."site_change_window_minutes"() IS 'How recent sightings must be to add up to evidence of a site change, and how long an account''s own odd page holds its work.';

COMMENT ON TABLE "public"."platform_incident_sightings" IS 'Each time an account (a job''s or the canary''s) met an incident''s page: the evidence that decides whether the action pauses fleet-wide.';

COMMENT ON TABLE "public"."platform_incidents" IS 'Site changes: a page of X or Instagram that was not what the adapter expected. One open row per platform, action and step; sightings count repeats. Open and not paused: a suspicion, only the accounts that met it wait.';

REVOKE ALL ON FUNCTION "internal"."platform_action_held"(text, text, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."platform_action_held"(text, text, uuid) TO "reachflow_runner", "service_role";

REVOKE ALL ON FUNCTION "internal"."record_site_change"(text, text, text, text, jsonb, text, text, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."record_site_change"(text, text, text, text, jsonb, text, text, uuid, uuid) TO "reachflow_runner", "service_role";

REVOKE ALL ON FUNCTION "internal"."site_change_window_minutes"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."site_change_window_minutes"() TO "reachflow_runner", "service_role";

REVOKE ALL ON SEQUENCE "public"."platform_incident_sightings_id_seq" FROM "anon";

GRANT SELECT, UPDATE, USAGE ON SEQUENCE "public"."platform_incident_sightings_id_seq" TO "anon";

REVOKE ALL ON SEQUENCE "public"."platform_incident_sightings_id_seq" FROM "authenticated";

GRANT SELECT, UPDATE, USAGE ON SEQUENCE "public"."platform_incident_sightings_id_seq" TO "authenticated";

REVOKE ALL ON SEQUENCE "public"."platform_incident_sightings_id_seq" FROM "postgres";

GRANT SELECT, UPDATE, USAGE ON SEQUENCE "public"."platform_incident_sightings_id_seq" TO "postgres";

REVOKE ALL ON SEQUENCE "public"."platform_incident_sightings_id_seq" FROM "service_role";

GRANT SELECT, UPDATE, USAGE ON SEQUENCE "public"."platform_incident_sightings_id_seq" TO "service_role";

REVOKE ALL ON TABLE "public"."platform_incident_sightings" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."platform_incident_sightings" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."platform_incident_sightings" TO "service_role";
