-- Issue 44's figure: the dashboard reads within 10 % of the pre-workspace ones with membership
-- policies. The policies' helpers were security-definer SQL functions, which Postgres never inlines
-- and parses and plans on every call (about 0.3-0.5 ms each, twice per table read); as plpgsql
-- they keep their plans for the session, and the active workspace is two key lookups (profile's
-- remembered workspace joined with its membership, else the personal or first joined one) instead
-- of nested helper calls. dashboard_summary and todays_overview ask the membership once and filter
-- every read by it themselves (security definer), instead of once more per table through its policy
-- (todays_overview asked it in each of its three counts). Same answers, same rules: nothing is kept
-- between calls, so a removed member loses access on their next statement.
-- Written as CREATE OR REPLACE by hand: pg-delta drops and recreates the functions, and with them
-- every policy, default, view and trigger that names them.

CREATE OR REPLACE FUNCTION internal.active_workspace_id()
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return internal.active_workspace_of(auth.uid());
end
$function$;

CREATE OR REPLACE FUNCTION internal.active_workspace_of (
  p_user uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  active uuid;
begin
  -- plpgsql, not sql: every policy asks these helpers once per statement, and a security-definer
  -- SQL function is never inlined and is parsed and planned on every call, while plpgsql keeps
  -- its plans for the session. Two key lookups rather than one sorted query: the remembered
  -- workspace is nearly always the answer. Nothing is kept between calls, so a removed member
  -- loses the workspace on their next statement.
  select m.workspace_id into active
    from public.user_profiles p
    join public.workspace_members m on m.workspace_id = p.active_workspace_id and m.user_id = p.id
   where p.id = p_user;
  if not found then
    select m.workspace_id into active
      from public.workspace_members m
     where m.user_id = p_user
     order by m.workspace_id = p_user desc, m.created_at, m.workspace_id
     limit 1;
  end if;
  return active;
end
$function$;

CREATE OR REPLACE FUNCTION internal.active_workspace_with_role (
  p_roles public.workspace_role[]
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  caller uuid := auth.uid();
  active uuid;
  active_role public.workspace_role;
begin
  -- internal.active_workspace_of's choice with the role held there, in its own lookups rather
  -- than a call to it (see there why plpgsql).
  select m.workspace_id, m.role into active, active_role
    from public.user_profiles p
    join public.workspace_members m on m.workspace_id = p.active_workspace_id and m.user_id = p.id
   where p.id = caller;
  if not found then
    select m.workspace_id, m.role into active, active_role
      from public.workspace_members m
     where m.user_id = caller
     order by m.workspace_id = caller desc, m.created_at, m.workspace_id
     limit 1;
  end if;
  return case when active_role = any (p_roles) then active end;
end
$function$;

CREATE OR REPLACE FUNCTION internal.has_role_on_workspace (
  p_workspace_id uuid,
  p_roles        public.workspace_role[] DEFAULT NULL::public.workspace_role[]
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- plpgsql for the cached plan (see internal.active_workspace_of).
  return exists (
    select 1 from public.workspace_members m
     where m.workspace_id = p_workspace_id
       and m.user_id = (select auth.uid())
       and (p_roles is null or m.role = any (p_roles)));
end
$function$;

CREATE OR REPLACE FUNCTION internal.workspace_role (
  p_workspace_id uuid
)
  RETURNS public.workspace_role
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- plpgsql for the cached plan (see internal.active_workspace_of).
  return (
    select m.role from public.workspace_members m
     where m.workspace_id = p_workspace_id and m.user_id = (select auth.uid()));
end
$function$;

CREATE OR REPLACE FUNCTION public.dashboard_summary()
  RETURNS TABLE (
    messages_sent           bigint,
    messages_sent_change    numeric,
    delivery_rate           numeric,
    delivery_rate_change    numeric,
    active_accounts         bigint,
    active_accounts_change  bigint,
    active_campaigns        bigint,
    active_campaigns_change bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  -- Security definer: every read below names the workspace the caller may read (or none), so the
  -- tables' policies, which would ask the membership again for each table, are not needed.
  return query
    with me as (
      select (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) as workspace_id,
             (select internal.now()) as t,
             pg_catalog.timezone(coalesce((select p.timezone from public.user_profiles p where p.id = (select auth.uid())), 'UTC'),
                                 (select internal.now()))::date as today
    ), windows as (
      -- This week = today and the 6 days before; the week before = the 7 days before that.
      select coalesce(sum(s.sent) filter (where s.day > me.today - 7), 0) as sent_now,
             coalesce(sum(s.failed) filter (where s.day > me.today - 7), 0) as failed_now,
             coalesce(sum(s.sent) filter (where s.day <= me.today - 7), 0) as sent_before,
             coalesce(sum(s.failed) filter (where s.day <= me.today - 7), 0) as failed_before
        from me
        join public.campaign_daily_stats s on s.workspace_id = me.workspace_id and s.day > me.today - 14 and s.day <= me.today
    ), campaign_totals as (
      select coalesce(sum(c.messages_sent), 0)::bigint as sent,
             coalesce(sum(c.messages_failed), 0)::bigint as failed,
             count(*) filter (where c.status in ('queued', 'running', 'active')) as active,
             count(*) filter (where c.status in ('queued', 'running', 'active') and c.started_at >= me.t - interval '7 days') as new_active
        from me join public.campaigns c on c.workspace_id = me.workspace_id
    ), account_totals as (
      select count(*) filter (where a.status = 'active') as active,
             count(*) filter (where a.status = 'active' and a.created_at >= me.t - interval '7 days') as new_active
        from me join public.social_accounts a on a.workspace_id = me.workspace_id
    )
    select ct.sent,
           case when w.sent_before = 0 then (case when w.sent_now = 0 then 0 end)
                else round((w.sent_now - w.sent_before) * 100.0 / w.sent_before, 1) end,
           -- delivered of the messages whose outcome is known (unconfirmed ones wait for their check)
           internal.percent_or_none(ct.sent, ct.sent + ct.failed),
           case when w.sent_now + w.failed_now = 0 or w.sent_before + w.failed_before = 0 then null
                else round(w.sent_now * 100.0 / (w.sent_now + w.failed_now)
                           - w.sent_before * 100.0 / (w.sent_before + w.failed_before), 1) end,
           at.active, at.new_active,
           ct.active, ct.new_active
      from windows w, campaign_totals ct, account_totals at;
end
$function$;

CREATE OR REPLACE FUNCTION public.todays_overview()
  RETURNS TABLE (
    day                    date,
    timezone               text,
    sent_today             bigint,
    replies_today          bigint,
    replies_today_estimate bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  -- Asked once here: in the query each of the three counts would ask again. Security definer: the
  -- counts name this workspace, so the tables' policies need not ask the membership once more each.
  readable_workspace uuid := internal.active_workspace_with_role('{owner,admin,editor,viewer}');
  now_at timestamp with time zone := internal.now();
begin
  return query
    with me as (
      select p.timezone, pg_catalog.timezone(p.timezone, now_at)::date as day
        from public.user_profiles p where p.id = (select auth.uid())
    ), bounds as (
      select me.*, pg_catalog.timezone(me.timezone, me.day::timestamp) as starts,
             pg_catalog.timezone(me.timezone, (me.day + 1)::timestamp) as ends
        from me
    )
    select b.day, b.timezone,
           (select count(*) from public.dm_logs l
             where l.workspace_id = readable_workspace and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends),
           (select count(*) from public.campaign_leads l
             where l.workspace_id = readable_workspace and l.replied_at >= b.starts and l.replied_at < b.ends),
           (select floor(count(*) * 0.15)::bigint from public.dm_logs l
             where l.workspace_id = readable_workspace and l.status = 'sent' and l.sent_at >= b.starts and l.sent_at < b.ends)
      from bounds b;
end
$function$;
