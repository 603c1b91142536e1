-- Usage and system-written notifications belong to the workspace (issue 44, item 1).
-- AI budget: ai_usage is keyed (workspace_id, day, user_id); ai_reserve/ai_settle take the workspace
-- and count every member's use of the day against its budget (the workspace row serialises
-- reservations), user_id stays "who used it"; admin_ai_usage lists workspaces. Existing rows keep
-- the workspace they were backfilled with (the customer's personal one), so no data moves.
-- Notifications: every system writer (scheduler, scraping completion, platform pauses, Instagram
-- callbacks through internal.notify) names the workspace of the row it is about instead of leaving
-- it to the trigger's fallback (the creator's active workspace); billing notifications
-- (subscription_*, payment_*) are read and marked by the owner only, as the billing rows are.

SET local check_function_bodies = off;

DROP POLICY "Members can read the workspace's notifications" ON "public"."notifications";

DROP POLICY "Members who edit can delete the workspace's notifications" ON "public"."notifications";

DROP POLICY "Members who edit can mark the workspace's notifications read" ON "public"."notifications";

DROP INDEX "public"."ai_usage_workspace_id_idx";

ALTER TABLE "public"."ai_usage"
  DROP CONSTRAINT "ai_usage_pkey";

DROP FUNCTION "internal"."notify"(uuid, text, text, text, jsonb);

DROP FUNCTION "public"."admin_ai_usage"(integer);

DROP FUNCTION "public"."ai_reserve"(uuid, integer);

DROP FUNCTION "public"."ai_settle"(uuid, date, integer, integer, boolean);

CREATE OR REPLACE FUNCTION internal.count_scraping_leads()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Statement-level: the runner inserts leads in pages, so count each page once per campaign.
  with delta as (
    select scraping_campaign_id, count(*) as collected, count(*) filter (where not is_filtered) as valid
      from inserted group by scraping_campaign_id
  )
  update public.scraping_campaigns c
     set collected_count = c.collected_count + d.collected,
         leads_collected = c.leads_collected + d.valid,
         last_run_at = internal.now()
    from delta d
   where c.id = d.scraping_campaign_id;

  insert into public.lead_list_members (lead_list_id, scraping_lead_id, user_id, added_at)
  select c.lead_list_id, i.id, i.user_id, i.collected_at
    from inserted i join public.scraping_campaigns c on c.id = i.scraping_campaign_id
   where not i.is_filtered and c.lead_list_id is not null
  on conflict do nothing;

  -- Reaching the target completes a running campaign, and the customer hears about it.
  with finished as (
    update public.scraping_campaigns c
       set status = 'completed'
     where c.id in (select distinct scraping_campaign_id from inserted)
       and c.status = 'running'
       and c.leads_collected >= c.target_count
    returning c.id, c.workspace_id, c.user_id, c.name, c.leads_collected
  )
  insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
  select f.workspace_id, f.user_id, 'scraping_completed', 'Scraping campaign completed',
         format('"%s" collected %s valid leads.', f.name, f.leads_collected),
         jsonb_build_object('scrapingCampaignId', f.id)
    from finished f;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.instagram_token_failed (
  p_account_id uuid,
  p_reason     text
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account public.social_accounts;
begin
  update public.social_accounts a
     set status = 'error', flag_reason = left(p_reason, 500)
   where a.id = p_account_id and a.connection = 'official' and a.status <> 'error'
  returning * into account;
  if account.id is null then
    return false;
  end if;
  perform internal.notify(account.workspace_id, account.user_id, 'account_flagged', 'Instagram connection lost', left(p_reason, 2000),
                          jsonb_build_object('accountId', account.id, 'status', 'error'));
  return true;
end
$function$;

CREATE OR REPLACE FUNCTION internal.is_billing_notification (
  p_type text
)
  RETURNS boolean
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select p_type like 'subscription\_%' or p_type like 'payment\_%'
$function$;

CREATE OR REPLACE FUNCTION internal.notify (
  p_workspace_id uuid,
  p_user_id      uuid,
  p_type         text,
  p_title        text,
  p_message      text,
  p_metadata     jsonb
)
  RETURNS uuid
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
  values (p_workspace_id, p_user_id, p_type, p_title, coalesce(p_message, ''), coalesce(p_metadata, '{}'::jsonb))
  returning id
$function$;

CREATE OR REPLACE FUNCTION internal.notify_platform_customers (
  p_platform text,
  p_action   text,
  p_resumed  boolean
)
  RETURNS integer
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- Every workspace with an account on the platform, once each (named after its first such
  -- account's creator): its members see it there, whichever workspace they are working in now.
  with customers as (
    select distinct on (a.workspace_id) a.workspace_id, a.user_id
      from public.social_accounts a join public.platforms p on p.id = a.platform_id
     where p.name = p_platform
     order by a.workspace_id, a.created_at, a.id
  ), sent as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select c.workspace_id, c.user_id, case when p_resumed then 'platform_resumed' else 'platform_paused' end, n.title, n.message,
           jsonb_build_object('platform', p_platform, 'action', p_action)
      from customers c cross join internal.platform_action_notice(p_platform, p_action, p_resumed) n
    returning 1
  )
  select count(*)::integer from sent
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_complete_campaigns (
  p_at timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  affected integer;
begin
  -- Completed: nothing due now or later and nothing in flight (a send still being checked, state
  -- uncertain, may yet be found not sent and put back due). Each campaign is looked at in its own
  -- minute of ten, so a run probes a tenth of the running campaigns.
  with finished as (
    update public.campaigns c
       set status = 'completed'
     where c.status in ('queued', 'running', 'active')
       and mod(pg_catalog.hashtext(c.id::text)::bigint + 2147483648, 10) = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 10)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at is not null)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.state in ('sending', 'uncertain'))
    returning c.id, c.workspace_id, c.user_id, c.name, c.messages_sent
  ), notified as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select f.workspace_id, f.user_id, 'campaign_completed', 'Campaign completed',
           format('"%s" has messaged all its leads (%s messages sent).', f.name, f.messages_sent),
           jsonb_build_object('campaignId', f.id)
      from finished f
    returning 1
  )
  select count(*) into affected from notified;
  return affected;
end
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_step_warmups (
  p_at timestamp with time zone,
  OUT  advanced integer,
  OUT  steps integer
)
  RETURNS record
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- The first run of each local day per warming account: one warm-up phase per week since the
  -- warm-up started (the customer is told), and the day's warm-up step, queued to start in the
  -- local daytime (09:00 plus a per-account delay of up to 9 hours).
  with due as (
    select a.id, a.user_id, a.username, a.status, a.warmup_phase as old_phase, l.today,
           least(5, 1 + (l.today - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date) / 7) as phase,
           pg_catalog.timezone(a.timezone, l.today + interval '9 hours'
             + mod(pg_catalog.hashtext(a.id::text || l.today::text)::bigint + 2147483648, 540) * interval '1 minute') as start_at
      from public.social_accounts a
     cross join lateral (select pg_catalog.timezone(a.timezone, p_at)::date as today) l
     -- an official account has no browser to warm up: the API's own limits pace it
     where a.warmup_phase < 5 and a.connection = 'browser' and a.warmup_step_on is distinct from l.today
  ), stepped as (
    update public.social_accounts a
       set warmup_step_on = d.today, warmup_phase = greatest(a.warmup_phase, d.phase)
      from due d
     where a.id = d.id
    returning a.id, a.workspace_id, a.user_id, a.username, a.status, d.old_phase, a.warmup_phase as phase, d.today, d.start_at
  ), notified as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select s.workspace_id, s.user_id, 'warmup_phase_completed', 'Warm-up phase completed',
           case when s.phase = 5
             then format('@%s has finished warming up and can now send up to its full daily limit.', s.username)
             else format('@%s finished warm-up phase %s and can now send up to %s messages a day.',
                         s.username, s.old_phase, internal.warmup_daily_limit(s.phase)) end,
           jsonb_build_object('accountId', s.id, 'phase', s.phase)
      from stepped s
     where s.phase > s.old_phase
    returning 1
  ), queued as (
    select e.id
      from internal.enqueue_jobs('warmup.step', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', s.id),
                                                 'singletonKey', 'warmup:' || s.id || ':' || s.today,
                                                 'startAfter', now() + greatest(interval '0', s.start_at - p_at)))
               from stepped s
              where s.status = 'active' and s.phase < 5)) e
  )
  select (select count(*) from notified), (select count(*) from queued) into advanced, steps;
end
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_stop_orphaned_campaigns()
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  affected integer;
begin
  -- A running campaign whose account was removed cannot go on.
  with orphans as (
    update public.campaigns c
       set status = 'error', error_message = 'The campaign''s account was removed'
     where c.status in ('queued', 'running', 'active') and c.account_id is null
    returning c.id, c.workspace_id, c.user_id, c.name
  ), notified as (
    insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
    select o.workspace_id, o.user_id, 'campaign_failed', 'Campaign stopped', format('"%s" stopped because its account was removed.', o.name),
           jsonb_build_object('campaignId', o.id)
      from orphans o
    returning 1
  )
  select count(*) into affected from notified;
  return affected;
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_ai_usage (
  p_limit integer DEFAULT 200
)
  RETURNS TABLE (
    workspace_id   uuid,
    workspace_name text,
    owner_email    text,
    requests       integer,
    tokens         integer,
    denied         integer,
    failures       integer,
    request_limit  integer,
    token_limit    integer,
    day            date
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- the budget is per workspace: every member's use of the day adds up
  with used as (
    select u.workspace_id, sum(u.requests)::integer as requests, sum(u.tokens)::integer as tokens,
           sum(u.denied)::integer as denied, sum(u.failures)::integer as failures
      from public.ai_usage u
     where u.day = (internal.now() at time zone 'utc')::date
     group by u.workspace_id
  )
  select w.id, w.name,
         (select au.email::text
            from public.workspace_members m join auth.users au on au.id = m.user_id
           where m.workspace_id = w.id and m.role = 'owner'
           order by m.created_at, m.user_id
           limit 1) as owner_email,
         used.requests, used.tokens, used.denied, used.failures,
         s.requests_per_day, s.tokens_per_day, (internal.now() at time zone 'utc')::date
    from used
    join public.workspaces w on w.id = used.workspace_id
    cross join public.ai_settings s
   order by used.tokens desc, used.requests desc, w.name, w.id
   limit least(greatest(coalesce(p_limit, 200), 1), 1000)
$function$;

REVOKE ALL ON FUNCTION "public"."admin_ai_usage"(integer) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.ai_reserve (
  p_workspace_id uuid,
  p_user_id      uuid,
  p_tokens       integer
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  today date := (internal.now() at time zone 'utc')::date;
  limits public.ai_settings;
  used_requests integer;
  used_tokens integer;
  allowed boolean;
begin
  if p_workspace_id is null or p_user_id is null or p_tokens is null or p_tokens < 1 then
    raise exception 'ai_reserve needs a workspace, a user and a positive token estimate' using errcode = '22023';
  end if;
  -- The budget is the workspace's, spread over its members' rows: reservations in one workspace
  -- queue on its row (no key update, so inserts that only reference the workspace never wait) and
  -- each re-reads the day's total once it holds the lock.
  perform 1 from public.workspaces w where w.id = p_workspace_id for no key update;
  if not found then
    raise exception 'ai_reserve needs an existing workspace' using errcode = '22023';
  end if;
  select * into limits from public.ai_settings where id;
  insert into public.ai_usage (workspace_id, user_id, day) values (p_workspace_id, p_user_id, today)
  on conflict do nothing;
  select coalesce(sum(u.requests), 0)::integer, coalesce(sum(u.tokens), 0)::integer
    into used_requests, used_tokens
    from public.ai_usage u
   where u.workspace_id = p_workspace_id and u.day = today;
  allowed := used_requests + 1 <= limits.requests_per_day and used_tokens + p_tokens <= limits.tokens_per_day;
  update public.ai_usage u
     set requests = u.requests + case when allowed then 1 else 0 end,
         tokens = u.tokens + case when allowed then p_tokens else 0 end,
         denied = u.denied + case when allowed then 0 else 1 end,
         updated_at = now()
   where u.workspace_id = p_workspace_id and u.user_id = p_user_id and u.day = today;
  if allowed then
    used_requests := used_requests + 1;
    used_tokens := used_tokens + p_tokens;
  end if;
  return jsonb_build_object('allowed', allowed, 'day', today, 'requests', used_requests, 'tokens', used_tokens,
    'requestLimit', limits.requests_per_day, 'tokenLimit', limits.tokens_per_day);
end
$function$;

REVOKE ALL ON FUNCTION "public"."ai_reserve"(uuid, uuid, integer) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.ai_settle (
  p_workspace_id uuid,
  p_user_id      uuid,
  p_day          date,
  p_reserved     integer,
  p_used         integer,
  p_failed       boolean
)
  RETURNS void
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  update public.ai_usage u
     set tokens = greatest(0, u.tokens - greatest(p_reserved, 0) + greatest(p_used, 0)),
         failures = u.failures + case when p_failed then 1 else 0 end,
         updated_at = now()
   where u.workspace_id = p_workspace_id and u.user_id = p_user_id and u.day = p_day
$function$;

REVOKE ALL ON FUNCTION "public"."ai_settle"(uuid, uuid, date, integer, integer, boolean) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.delete_instagram_user_data (
  p_instagram_user_id text
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account record;
  deleted integer := 0;
  -- 128 random bits: the code is the only key to the public status page
  code text := upper(encode(extensions.gen_random_bytes(16), 'hex'));
begin
  if coalesce(p_instagram_user_id, '') !~ '^[0-9]{1,30}$' then
    raise exception 'Invalid Instagram user id' using errcode = '22023';
  end if;
  for account in
    delete from public.social_accounts a
     using public.platforms p
     where p.id = a.platform_id and p.name = 'instagram'
       and a.connection = 'official' and a.platform_user_id = p_instagram_user_id
    returning a.workspace_id, a.user_id, a.username
  loop
    deleted := deleted + 1;
    perform internal.notify(account.workspace_id, account.user_id, 'account_flagged', 'Instagram account removed',
      format('@%s asked Instagram to delete the data Reachflow held for it: the account, its automations and its conversations were deleted. Connect it again to start over.', account.username),
      jsonb_build_object('status', 'deleted'));
  end loop;
  -- what Meta delivered for that account: comments and messages of the people who wrote to it
  delete from internal.instagram_webhook_events e where e.instagram_account_id = p_instagram_user_id;
  insert into internal.instagram_data_deletions (confirmation_code, accounts_deleted) values (code, deleted);
  return jsonb_build_object('confirmation_code', code, 'accounts_deleted', deleted);
end
$function$;

ALTER TABLE "public"."ai_usage"
  ADD CONSTRAINT "ai_usage_pkey" PRIMARY KEY (workspace_id, day, user_id);

CREATE POLICY "Members can read the workspace's notifications" ON "public"."notifications"
  FOR SELECT
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)) AND (NOT
    internal.is_billing_notification(TYPE))));

CREATE POLICY "Members who edit can delete the workspace's notifications" ON "public"."notifications"
  FOR DELETE
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (NOT
    internal.is_billing_notification(TYPE))));

CREATE POLICY "Members who edit can mark the workspace's notifications read" ON "public"."notifications"
  FOR UPDATE
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (NOT
    internal.is_billing_notification(TYPE))))
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (NOT
    internal.is_billing_notification(type))));

CREATE POLICY "Owners can delete the workspace's billing notifications" ON "public"."notifications"
  FOR DELETE
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner}'::public.workspace_role[]) AS active_workspace_with_role)) AND internal.is_billing_notification(TYPE)));

CREATE POLICY "Owners can mark the workspace's billing notifications read" ON "public"."notifications"
  FOR UPDATE
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner}'::public.workspace_role[]) AS active_workspace_with_role)) AND internal.is_billing_notification(TYPE)))
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner}'::public.workspace_role[]) AS active_workspace_with_role)) AND internal.is_billing_notification(type)));

CREATE POLICY "Owners can read the workspace's billing notifications" ON "public"."notifications"
  FOR SELECT
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner}'::public.workspace_role[]) AS active_workspace_with_role)) AND internal.is_billing_notification(TYPE)));

COMMENT ON COLUMN "public"."ai_usage"."user_id" IS 'Who used it: the member who drafted or previewed, or the creator of the campaign or scraping campaign the runner used it for.';

COMMENT ON COLUMN "public"."ai_usage"."workspace_id" IS 'The workspace the AI was used in, whose daily budget it counts against: ai_reserve always names it (the caller''s active workspace, or the campaign''s).';

COMMENT ON FUNCTION "internal"."is_billing_notification"(text) IS 'Whether a notification is about the workspace''s plan or payments (the Stripe webhook''s subscription_* and payment_*): like the billing rows, only the owner sees those.';

COMMENT ON FUNCTION "internal"."notify"(uuid, uuid, text, text, text, jsonb) IS 'Adds a notification to the workspace of the row it is about (used by triggers and the scheduler); p_user_id is that row''s creator.';

COMMENT ON FUNCTION "internal"."notify_platform_customers"(text, text, boolean) IS 'Tells every workspace with an account on the platform that an action paused (or resumed).';

COMMENT ON FUNCTION "public"."admin_ai_usage"(integer) IS 'Admin: every workspace''s AI requests, tokens, refusals and failures today (UTC), all its members together, heaviest first, with its owner''s e-mail and the daily limits.';

COMMENT ON FUNCTION "public"."ai_reserve"(uuid, uuid, integer) IS 'Reserves one AI request and p_tokens tokens of the workspace''s budget for today (UTC), booked to the member who uses it, atomically. {allowed: false} (and the member''s denied + 1) when the workspace''s use would pass a daily limit. The counts answered are the workspace''s.';

COMMENT ON FUNCTION "public"."ai_settle"(uuid, uuid, date, integer, integer, boolean) IS 'After an AI call: replaces the reserved token estimate with the tokens the endpoint reported, and counts a failed call, on the row ai_reserve booked.';

COMMENT ON TABLE "public"."ai_settings" IS 'The one row of AI budget settings: how many AI requests and tokens each workspace (all its members together) may use per UTC day.';

COMMENT ON TABLE "public"."ai_usage" IS 'AI use per workspace, member and UTC day: requests and tokens reserved or used, calls refused by the budget (denied) and calls that failed (failures, the feature fell back). The workspace''s rows of a day together count against the daily budget.';

REVOKE ALL ON FUNCTION "internal"."is_billing_notification"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."is_billing_notification"(text) TO "authenticated";

REVOKE ALL ON FUNCTION "internal"."notify"(uuid, uuid, text, text, text, jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION "public"."admin_ai_usage"(integer) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_ai_usage"(integer) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_ai_usage"(integer) TO "service_role";

REVOKE ALL ON FUNCTION "public"."ai_reserve"(uuid, uuid, integer) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."ai_reserve"(uuid, uuid, integer) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."ai_reserve"(uuid, uuid, integer) TO "reachflow_runner", "service_role";

REVOKE ALL ON FUNCTION "public"."ai_settle"(uuid, uuid, date, integer, integer, boolean) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."ai_settle"(uuid, uuid, date, integer, integer, boolean) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."ai_settle"(uuid, uuid, date, integer, integer, boolean) TO "reachflow_runner", "service_role";
