-- Workspaces (issue 44): what was unique per person is unique per workspace (one do-not-contact
-- entry and one first message per person and platform, one set of opt-out words), and the campaign
-- reads and skips of those lists follow the workspace. Deleting a login deletes only the workspaces
-- the person alone owns; what they created in the others is handed to that workspace's owner.

SET local check_function_bodies = off;

DROP INDEX "public"."contact_ledger_user_platform_username_key";

DROP INDEX "public"."do_not_contact_user_platform_username_key";

DROP INDEX "public"."opt_out_settings_workspace_id_idx";

ALTER TABLE "public"."opt_out_settings"
  DROP CONSTRAINT "opt_out_settings_pkey";

CREATE OR REPLACE FUNCTION internal.attach_campaign_leads (
  p_campaign_id uuid
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  campaign record;
  attached integer;
begin
  select c.id, c.user_id, c.workspace_id, c.scraping_campaign_id, c.lead_list_id, p.name as platform
    into campaign
    from public.campaigns c join public.platforms p on p.id = c.platform_id
   where c.id = p_campaign_id;

  with source_leads as (
    select s.id, s.username, s.profile_data, s.collected_at
      from public.scraping_campaign_leads s
     where s.scraping_campaign_id = campaign.scraping_campaign_id and not s.is_filtered
    union
    select s.id, s.username, s.profile_data, s.collected_at
      from public.lead_list_members m join public.scraping_campaign_leads s on s.id = m.scraping_lead_id
     where m.lead_list_id = campaign.lead_list_id and not s.is_filtered
  ), marked as (
    select l.*,
           case
             when exists (select 1 from public.do_not_contact d
                           where d.workspace_id = campaign.workspace_id and d.platform = campaign.platform
                             and lower(d.target_username) = lower(l.username)) then 'do_not_contact'
             when exists (select 1 from public.contact_ledger x
                           where x.workspace_id = campaign.workspace_id and x.platform = campaign.platform
                             and lower(x.target_username) = lower(l.username)) then 'already_contacted'
           end as skip_reason
      from source_leads l
  )
  insert into public.campaign_leads (campaign_id, user_id, workspace_id, scraping_lead_id, username, profile_data, state, skip_reason, collected_at)
  select campaign.id, campaign.user_id, campaign.workspace_id, m.id, m.username, m.profile_data,
         case when m.skip_reason is null then 'pending' else 'skipped' end, m.skip_reason, m.collected_at
    from marked m
  on conflict do nothing;
  get diagnostics attached = row_count;
  return attached;
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
    insert into public.contact_ledger (user_id, workspace_id, platform, target_username, first_contacted_at, campaign_id, account_id)
    values (new.user_id, new.workspace_id, platform_name, new.target_username, new.sent_at, new.campaign_id, new.account_id)
    on conflict do nothing;
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.hand_over_rows_of_deleted_login()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  tenant_table regclass;
begin
  -- Workspaces only they own go with them (their personal one among them), with all their rows.
  delete from public.workspaces w
   where exists (select 1 from public.workspace_members m
                  where m.workspace_id = w.id and m.user_id = old.id and m.role = 'owner')
     and not exists (select 1 from public.workspace_members m
                      where m.workspace_id = w.id and m.user_id <> old.id and m.role = 'owner');
  -- What they created elsewhere stays with the workspace: its first owner becomes the creator, so
  -- the user_id foreign keys' cascade finds nothing of it to delete.
  for tenant_table in
    select c.oid::regclass
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname in ('public', 'internal')
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped)
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
       and c.relname <> 'workspace_members'
     order by c.oid
  loop
    execute pg_catalog.format(
      'update %s x set user_id = o.owner
         from (select m.workspace_id, (array_agg(m.user_id order by m.created_at, m.user_id))[1] as owner
                 from public.workspace_members m
                where m.role = ''owner'' and m.user_id <> $1
                group by m.workspace_id) o
        where x.user_id = $1 and x.workspace_id = o.workspace_id', tenant_table)
    using old.id;
  end loop;
  return old;
end
$function$;

CREATE OR REPLACE FUNCTION internal.skip_leads_on_do_not_contact()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- still due for a message (a first one or a follow-up) in one of the workspace's campaigns on that platform
  update public.campaign_leads l
     set state = 'skipped', skip_reason = 'do_not_contact',
         last_error = 'The person is on the do-not-contact list.'
    from added a, public.campaigns c, public.platforms p
   where l.workspace_id = a.workspace_id and lower(l.username) = lower(a.target_username)
     and c.id = l.campaign_id and p.id = c.platform_id and p.name = a.platform
     and l.next_send_at is not null and l.state in ('pending', 'sent') and l.replied_at is null;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.do_not_contact_entries (
  p_search   text    DEFAULT NULL::text,
  p_platform text    DEFAULT NULL::text,
  p_limit    integer DEFAULT 50,
  p_offset   integer DEFAULT 0
)
  RETURNS TABLE (
    id              uuid,
    platform        text,
    target_username text,
    reason          text,
    created_at      timestamp with time zone,
    skipped_leads   bigint,
    total           bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  term text := btrim(coalesce(p_search, ''));
  -- one ILIKE pattern per column, wildcards in the term taken literally; null: no search
  in_username text;
  in_reason text;
begin
  -- security definer, reading only the active workspace's rows (workspace_id below): under RLS the
  -- planner may not use an index for ILIKE (not leakproof) ahead of the policy, so the trigram
  -- indexes went unused. A search is a few words: a longer one (70,000 characters took 6.9 s over
  -- 5,000 rows) is refused before anything is read.
  if char_length(term) > 100 then
    raise exception 'Search for at most 100 characters.' using errcode = '22023';
  end if;
  if term <> '' then
    in_username := '%' || replace(replace(replace(ltrim(term, '@'), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    in_reason := '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  return query
  with page as (
    select d.*, count(*) over () as total
      from public.do_not_contact d
     where d.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and (p_platform is null or d.platform = p_platform)
       and (in_username is null or d.target_username ilike in_username or d.reason ilike in_reason)
     order by d.created_at desc, lower(d.target_username), d.id
     limit least(greatest(coalesce(p_limit, 50), 1), 10000) offset greatest(coalesce(p_offset, 0), 0)
  )
  select p.id, p.platform, p.target_username, p.reason, p.created_at,
         (select count(*) from public.campaign_leads l
           join public.campaigns c on c.id = l.campaign_id
           join public.platforms pl on pl.id = c.platform_id
          where l.workspace_id = p.workspace_id and l.skip_reason = 'do_not_contact'
            and lower(l.username) = lower(p.target_username) and pl.name = p.platform),
         p.total
    from page p
   order by p.created_at desc, lower(p.target_username), p.id;
end
$function$;

CREATE OR REPLACE FUNCTION public.set_opt_out_words (
  p_anywhere text[],
  p_at_start text[]
)
  RETURNS jsonb
  LANGUAGE sql
  SET search_path TO ''
  AS $function$
  -- the trigger normalises and checks them (22023 with the reason)
  insert into public.opt_out_settings as s (user_id, anywhere, at_start)
  select (select auth.uid()), coalesce(p_anywhere, '{}'), coalesce(p_at_start, '{}')
    from (select internal.require_active_role('{owner,admin,editor}')) as allowed
  on conflict (workspace_id) do update set anywhere = excluded.anywhere, at_start = excluded.at_start
  returning jsonb_build_object('anywhere', to_jsonb(s.anywhere), 'atStart', to_jsonb(s.at_start), 'custom', true)
$function$;

ALTER TABLE "public"."opt_out_settings"
  ADD CONSTRAINT "opt_out_settings_pkey" PRIMARY KEY (workspace_id);

CREATE UNIQUE INDEX contact_ledger_workspace_platform_username_key ON public.contact_ledger USING btree (workspace_id, platform, lower(target_username));

CREATE UNIQUE INDEX do_not_contact_workspace_platform_username_key ON public.do_not_contact USING btree (workspace_id, platform, lower(target_username));

CREATE TRIGGER on_auth_user_deleted_hand_over_rows
  BEFORE DELETE ON auth.users
  FOR EACH ROW
  EXECUTE FUNCTION internal.hand_over_rows_of_deleted_login();

COMMENT ON FUNCTION "internal"."hand_over_rows_of_deleted_login"() IS 'BEFORE DELETE on auth.users: deletes the workspaces the person is the only owner of, and hands the rows they created in the others to each workspace''s first owner, so deleting a login never deletes a workspace''s rows.';

COMMENT ON FUNCTION "public"."set_opt_out_words"(text[], text[]) IS 'Saves the active workspace''s opt-out words (both lists) and returns them as stored: trimmed, lower case, once each.';

REVOKE ALL ON FUNCTION "internal"."hand_over_rows_of_deleted_login"() FROM PUBLIC;
