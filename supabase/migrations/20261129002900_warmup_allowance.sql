-- Today's real allowance, from the database: the account's daily cap now includes the trust rate
-- factor the runner applied on its own (so the scheduler, the runner and the screens agree), the
-- account view says which cap sets it, the warm-up day and how many of today's sends were inbox
-- answers (they count), and campaign_sending_waits() says which campaigns wait on a used-up cap and
-- when they resume. Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

DROP FUNCTION "public"."account_daily_usage"();

CREATE OR REPLACE FUNCTION internal.account_cap_reason (
  account  public.social_accounts,
  platform public.platforms
)
  RETURNS text
  LANGUAGE sql
  STABLE
  AS $function$
  select case
    when internal.account_daily_cap(account, platform)
         < least(account.daily_message_limit, internal.warmup_daily_limit(account.warmup_phase), platform.daily_message_ceiling)
      then 'recovering'
    when internal.warmup_daily_limit(account.warmup_phase) <= least(account.daily_message_limit, platform.daily_message_ceiling)
      then 'warmup'
    when account.daily_message_limit <= platform.daily_message_ceiling then 'account'
    else 'platform' end
$function$;

CREATE OR REPLACE FUNCTION internal.account_daily_cap (
  account  public.social_accounts,
  platform public.platforms
)
  RETURNS integer
  LANGUAGE sql
  STABLE
  AS $function$
  -- least() ignores nulls: a warmed-up account has no warm-up cap. An account recovering from a stop
  -- signal (trust below 0.5) sends that share of it.
  select floor(least(account.daily_message_limit, internal.warmup_daily_limit(account.warmup_phase), platform.daily_message_ceiling)
               * internal.trust_rate_factor(account.trust_score))::integer
$function$;

CREATE OR REPLACE FUNCTION internal.campaign_next_open_at (
  p_campaign_id uuid,
  p_schedule    jsonb,
  p_after       timestamp with time zone
)
  RETURNS timestamp WITH time zone
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
declare
  zone text := p_schedule ->> 'timezone';
  first_day date := pg_catalog.timezone(zone, p_after)::date;
  opens timestamp with time zone;
begin
  -- Two weeks always hold an open window unless every active day is off.
  for i in 0..14 loop
    opens := greatest(p_after, pg_catalog.timezone(zone, (first_day + i) + (p_schedule ->> 'timeFrom')::time));
    if opens < pg_catalog.timezone(zone, (first_day + i) + (p_schedule ->> 'timeTo')::time)
       and internal.campaign_window_open(p_campaign_id, p_schedule, opens) then
      return opens;
    end if;
  end loop;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.trust_rate_factor (
  trust numeric
)
  RETURNS numeric
  LANGUAGE sql
  IMMUTABLE
  AS $function$
  select case when trust >= 0.5 then 1 else greatest(0.25, trust / 0.5) end
$function$;

CREATE OR REPLACE FUNCTION public.account_daily_usage()
  RETURNS TABLE (
    account_id        uuid,
    platform          text,
    username          text,
    status            text,
    timezone          text,
    local_day         date,
    sent_today        integer,
    account_limit     integer,
    warmup_limit      integer,
    platform_limit    integer,
    campaign_limit    integer,
    sending_campaigns integer,
    daily_cap         integer,
    remaining_today   integer,
    account_cap       integer,
    cap_reason        text,
    warmup_day        integer,
    answers_today     integer
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return query
    with campaigns as (
      -- What each sending campaign may still send today, each already held to its account's caps:
      -- their sum, held to the account's caps again, is what the account can still send.
      select c.account_id,
             sum(c.daily_message_limit)::integer as total_limit,
             sum(internal.campaign_sends_left_today(c, a, p, internal.now()))::integer as left_today,
             count(*)::integer as sending
        from public.campaigns c
        join public.social_accounts a on a.id = c.account_id
        join public.platforms p on p.id = a.platform_id
       where c.user_id = (select auth.uid()) and c.status in ('queued', 'running', 'active')
       group by c.account_id
    )
    -- least() ignores nulls: a warmed-up account has no warm-up cap, an account without a sending
    -- campaign no campaign cap.
    select a.id, p.name, a.username, a.status, a.timezone, pg_catalog.timezone(a.timezone, internal.now())::date,
           internal.account_sent_today(a, internal.now()),
           a.daily_message_limit, internal.warmup_daily_limit(a.warmup_phase), p.daily_message_ceiling,
           c.total_limit, coalesce(c.sending, 0),
           least(internal.account_daily_cap(a, p), c.total_limit),
           least(internal.account_sends_left_today(a, p, internal.now()), c.left_today),
           internal.account_daily_cap(a, p),
           internal.account_cap_reason(a, p),
           case when a.warmup_phase < 5
                then pg_catalog.timezone(a.timezone, internal.now())::date - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date + 1 end,
           (select count(*)::integer from public.inbox_messages m
             where m.account_id = a.id and m.origin = 'reachflow' and m.status in ('sent', 'uncertain')
               and pg_catalog.timezone(a.timezone, m.sent_at)::date = pg_catalog.timezone(a.timezone, internal.now())::date)
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id
      left join campaigns c on c.account_id = a.id
     where a.user_id = (select auth.uid())
     order by a.created_at desc;
end
$function$;

REVOKE ALL ON FUNCTION "public"."account_daily_usage"() FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.campaign_sending_waits()
  RETURNS TABLE (
    campaign_id      uuid,
    account_username text,
    cause            text,
    cap              integer,
    resumes_at       timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- Campaigns with leads due that send nothing because a daily cap is used up (the scheduler queues
  -- no tick for them: internal.campaign_sends_left_today is 0). The account's cap is named first;
  -- sending resumes once every used-up cap's day has turned and the schedule's window is open.
  select w.id, w.username,
         case when w.account_left = 0 then w.account_reason else 'campaign' end,
         case when w.account_left = 0 then w.account_cap else w.campaign_cap end,
         internal.campaign_next_open_at(w.id, w.schedule, greatest(
           case when w.account_left = 0 then w.account_day_ends end,
           case when w.campaign_left = 0 then w.campaign_day_ends end))
    from (
      select c.id, c.schedule, a.username, c.daily_message_limit as campaign_cap,
             internal.account_sends_left_today(a, p, clock.t) as account_left,
             internal.account_daily_cap(a, p) as account_cap,
             internal.account_cap_reason(a, p) as account_reason,
             c.daily_message_limit
               - case when c.sent_today_on = pg_catalog.timezone(c.schedule ->> 'timezone', clock.t)::date
                      then c.messages_sent_today else 0 end as campaign_left,
             pg_catalog.timezone(a.timezone, (pg_catalog.timezone(a.timezone, clock.t)::date + 1)::timestamp) as account_day_ends,
             pg_catalog.timezone(c.schedule ->> 'timezone',
               (pg_catalog.timezone(c.schedule ->> 'timezone', clock.t)::date + 1)::timestamp) as campaign_day_ends
        from (select internal.now() as t) clock
        cross join public.campaigns c
        join public.social_accounts a on a.id = c.account_id
        join public.platforms p on p.id = a.platform_id
       where c.user_id = (select auth.uid())
         and c.status in ('queued', 'running', 'active')
         and a.status = 'active'
         and internal.campaign_sends_left_today(c, a, p, clock.t) = 0
         and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= clock.t)
    ) w
$function$;

REVOKE ALL ON FUNCTION "public"."campaign_sending_waits"() FROM PUBLIC, "anon";

COMMENT ON FUNCTION "internal"."account_cap_reason"(public.social_accounts, public.platforms) IS 'Which cap sets internal.account_daily_cap: recovering (trust below 0.5 after a stop signal), warmup, account (the customer''s own limit) or platform (the ceiling).';

COMMENT ON FUNCTION "internal"."account_daily_cap"(public.social_accounts, public.platforms) IS 'DMs a day the account may send: the lowest of its own limit, its warm-up limit and the platform ceiling (450), times its trust rate factor while it recovers from a stop signal.';

COMMENT ON FUNCTION "internal"."campaign_next_open_at"(uuid, jsonb, timestamp with time zone) IS 'The first instant at or after p_after at which the campaign''s schedule window is open (active day, not a random day off); null when none in two weeks.';

COMMENT ON FUNCTION "internal"."trust_rate_factor"(numeric) IS 'How fast an account sends for its trust score: full speed from 0.5 up, proportionally less below (at least a quarter). The runner''s pacing (rateFactor) spaces DMs by the same rule.';

COMMENT ON FUNCTION "public"."account_daily_usage"() IS 'Per account of the caller: DMs sent today (account time zone, campaign DMs and inbox answers alike; answers_today of them answers), each cap (account limit, warm-up, platform 450, sum of sending campaigns'' daily limits), account_cap = what the account may send today (the runner''s and scheduler''s internal.account_daily_cap) and cap_reason the cap that sets it, daily_cap = the lowest with the campaigns'', remaining_today = what the caps still allow today, warmup_day = the day of warm-up (null once warmed up).';

COMMENT ON FUNCTION "public"."campaign_sending_waits"() IS 'Per sending DM campaign of the caller that has leads due but may send no more today: whose cap stopped it (cause warmup, account, platform, recovering — the account''s — or campaign), that cap, and when sending resumes (the next open window after the cap''s day ends, in its own time zone).';

REVOKE ALL ON FUNCTION "internal"."account_cap_reason"(public.social_accounts, public.platforms) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."account_cap_reason"(public.social_accounts, public.platforms) TO "authenticated", "reachflow_runner", "service_role";

REVOKE ALL ON FUNCTION "internal"."campaign_next_open_at"(uuid, jsonb, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."campaign_next_open_at"(uuid, jsonb, timestamp WITH time zone) TO "authenticated", "service_role";

REVOKE ALL ON FUNCTION "internal"."trust_rate_factor"(numeric) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."trust_rate_factor"(numeric) TO "authenticated", "reachflow_runner", "service_role";

GRANT EXECUTE ON FUNCTION "public"."account_daily_usage"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."account_daily_usage"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."account_daily_usage"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."account_daily_usage"() TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."campaign_sending_waits"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."campaign_sending_waits"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."campaign_sending_waits"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."campaign_sending_waits"() TO "service_role";
