-- The X API's cost, and account cards that say true things.
-- x_api_usage: every billable unit an official X account's developer app incurs (DMs created, DM
-- events, users and its own profile read), counted by the runner and the api function through
-- record_x_api_usage, once per resource per UTC day as X deduplicates reads; the owner reads their
-- own, x_api_usage_this_month sums the month for the account card (priced in the domain package).
-- instagram_official_facts: what is true for an official Instagram account (last message received,
-- messages this week, Meta's last webhook delivery), in place of the browser accounts' fields.
-- delete_social_account resolves the deleted account's alerts: "Change details and retry" removes
-- the failed attempt, and its "needs attention" alert must not stay unresolved.

SET local check_function_bodies = off;

CREATE TABLE "public"."x_api_usage" (
  "account_id" uuid                     NOT NULL,
  "user_id"    uuid                     NOT NULL,
  "day"        date                     NOT NULL,
  "kind"       text                     NOT NULL,
  "unit_key"   text                     NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "x_api_usage_kind_check" CHECK ((kind = ANY (ARRAY['dm_create'::text, 'dm_event_read'::text, 'user_read'::text, 'own_read'::text]))),
  CONSTRAINT "x_api_usage_pkey" PRIMARY KEY (account_id, day, kind, unit_key),
  CONSTRAINT "x_api_usage_unit_key_check" CHECK (((char_length(unit_key) >= 1) AND (char_length(unit_key) <= 100)))
);

ALTER TABLE "public"."x_api_usage"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."x_api_usage" FROM "anon";

CREATE OR REPLACE FUNCTION public.delete_social_account (
  p_account_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_account_id uuid;
  scraping_ids uuid[];
begin
  select a.id into v_account_id from public.social_accounts a
   where a.id = p_account_id and a.user_id = (select auth.uid())
   for update;
  if v_account_id is null then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  select coalesce(array_agg(s.id), '{}') into scraping_ids
    from public.scraping_campaigns s where s.account_id = v_account_id;
  perform internal.drop_waiting_jobs(array['account.test', 'inbox.sync', 'warmup.step', 'campaign.tick'],
                                     'accountId', array[v_account_id], true);
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', scraping_ids, true);
  -- Its campaigns are paused, not stranded: each says why and what to do; the lists
  -- offer no Resume while a campaign has no account.
  update public.scraping_campaigns s
     set status = case when s.status = 'running' then 'paused' else s.status end,
         error_message = 'Its account was deleted. Create a new scraping campaign with another account.'
   where s.id = any (scraping_ids) and s.status <> 'completed';
  update public.campaigns c
     set status = case when c.status in ('queued', 'running', 'active') then 'paused' else c.status end,
         error_message = 'Its account was deleted. Choose another account in the campaign to send again.'
   where c.account_id = v_account_id and c.status not in ('completed', 'failed');
  -- its alerts have nothing left to fix ("Change details and retry" deletes a failed attempt)
  update public.notifications n
     set read = true,
         read_at = coalesce(n.read_at, now()),
         metadata = n.metadata || jsonb_build_object('resolvedAt', internal.now(), 'resolution', 'deleted')
   where n.user_id = (select auth.uid())
     and n.type = 'account_flagged'
     and n.metadata ->> 'accountId' = v_account_id::text
     and not n.metadata ? 'resolvedAt';
  delete from public.social_accounts a where a.id = v_account_id;
  return jsonb_build_object('id', v_account_id, 'deleted', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.instagram_official_facts()
  RETURNS TABLE (
    account_id         uuid,
    last_received_at   timestamp with time zone,
    received_this_week integer,
    last_webhook_at    timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- what is true for an account whose messages arrive by Meta's webhook: no browser syncs it, so
  -- its card shows what arrived and when Meta last delivered, not a sync time or browser limits
  select a.id,
         (select max(m.sent_at) from public.inbox_messages m
           where m.account_id = a.id and m.direction = 'incoming'),
         (select count(*)::integer from public.inbox_messages m
           where m.account_id = a.id and m.direction = 'incoming'
             and m.sent_at > internal.now() - interval '7 days'),
         (select max(e.last_received_at) from internal.instagram_webhook_events e
           where e.instagram_account_id = a.platform_user_id)
    from public.social_accounts a
    join public.platforms p on p.id = a.platform_id
   where a.user_id = (select auth.uid()) and a.connection = 'official' and p.name = 'instagram'
   order by a.created_at desc
$function$;

REVOKE ALL ON FUNCTION "public"."instagram_official_facts"() FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.record_x_api_usage (
  p_account_id uuid,
  p_kind       text,
  p_unit_keys  text[]
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  added integer;
begin
  insert into public.x_api_usage (account_id, user_id, day, kind, unit_key)
  select a.id, a.user_id, pg_catalog.timezone('UTC', internal.now())::date, p_kind, k.key
    from public.social_accounts a
   cross join lateral (select distinct unnest(p_unit_keys) as key) k
   where a.id = p_account_id and a.connection = 'official' and k.key is not null
  on conflict do nothing;
  get diagnostics added = row_count;
  return added;
end
$function$;

REVOKE ALL ON FUNCTION "public"."record_x_api_usage"(uuid, text, text[]) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.x_api_usage_this_month()
  RETURNS TABLE (
    account_id uuid,
    kind       text,
    units      integer
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- X bills by UTC day; the month is the calendar month in UTC, as X's console shows it
  select u.account_id, u.kind, count(*)::integer
    from public.x_api_usage u
   where u.user_id = (select auth.uid())
     and u.day >= pg_catalog.date_trunc('month', pg_catalog.timezone('UTC', internal.now()))::date
   group by u.account_id, u.kind
   order by u.account_id, u.kind
$function$;

REVOKE ALL ON FUNCTION "public"."x_api_usage_this_month"() FROM PUBLIC, "anon";

ALTER TABLE "public"."x_api_usage"
  ADD CONSTRAINT "x_api_usage_account_id_fkey" FOREIGN KEY (account_id) REFERENCES public.social_accounts(id) ON DELETE CASCADE;

ALTER TABLE "public"."x_api_usage"
  ADD CONSTRAINT "x_api_usage_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

CREATE INDEX x_api_usage_user_id_day_idx ON public.x_api_usage USING btree (user_id, day);

CREATE POLICY "Users can read their own X API usage" ON "public"."x_api_usage"
  FOR SELECT
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));

COMMENT ON COLUMN "public"."x_api_usage"."day" IS 'The UTC day X counts the unit in (its deduplication window).';

COMMENT ON FUNCTION "public"."delete_social_account"(uuid) IS 'Deletes one of the caller''s social accounts with its credentials, removes every waiting job for it, pauses its running scraping campaigns, and resolves its account alerts (metadata.resolution deleted).';

COMMENT ON FUNCTION "public"."instagram_official_facts"() IS 'Per official Instagram account of the caller: when its last message arrived, how many arrived in the last 7 days, and when Meta last delivered a webhook event for it (security definer: the events table is internal).';

COMMENT ON FUNCTION "public"."record_x_api_usage"(uuid, text, text[]) IS 'The runner and the api function (service role) record the billable units of one X API answer for an official account (kinds and keys from xApiUsageOf in the domain package); a unit already counted today is not counted again. Answers how many were new.';

COMMENT ON FUNCTION "public"."x_api_usage_this_month"() IS 'The caller''s X API units this calendar month (UTC) per official account and kind, for the account card''s "spent this month" (priced in the web app from the domain package''s one price table).';

COMMENT ON TABLE "public"."x_api_usage" IS 'Every billable unit of X API v2 the runner or the api function incurred for an official X account, as X bills its developer app (pay-per-use): one row per DM created (keyed by its event id), per DM event, user or own profile read (keyed by the resource id, once per UTC day: X charges a resource read again the same day nothing). Written only through record_x_api_usage; the customer reads their own. Prices: X_API_PRICE_MILLS in the domain package.';

GRANT EXECUTE ON FUNCTION "public"."instagram_official_facts"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."instagram_official_facts"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_official_facts"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_official_facts"() TO "service_role";

REVOKE ALL ON FUNCTION "public"."record_x_api_usage"(uuid, text, text[]) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."record_x_api_usage"(uuid, text, text[]) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."record_x_api_usage"(uuid, text, text[]) TO "reachflow_runner", "service_role";

GRANT EXECUTE ON FUNCTION "public"."x_api_usage_this_month"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."x_api_usage_this_month"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."x_api_usage_this_month"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."x_api_usage_this_month"() TO "service_role";

REVOKE ALL ON TABLE "public"."x_api_usage" FROM "authenticated";

GRANT SELECT ON TABLE "public"."x_api_usage" TO "authenticated";

REVOKE ALL ON TABLE "public"."x_api_usage" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."x_api_usage" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."x_api_usage" TO "service_role";
