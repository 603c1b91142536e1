-- The Leads tab lists people, not source rows (issue 18 item 4): a person scraped by two campaigns
-- and messaged by a third was three rows (badge 40 for 20 people), and a scraped row still read
-- "Active" after the person replied to the DM campaign. public.lead_people has one row per person
-- (platform + username, case-insensitive) with the latest status across sources (a reply wins,
-- then what DM campaigns did, then the scraped state), the sources listed, and the campaign ids
-- for the campaign filter. Like lead_view it runs with its owner's rights and filters by
-- (select auth.uid()) itself, so each branch uses the owner indexes.

create view public.lead_people
with (security_invoker = false, security_barrier = false)
as
with rows as (
  select 'campaign'::text as source,
         l.id,
         l.campaign_id,
         coalesce(c.name, 'Unknown Campaign') as campaign_name,
         c.platform_id,
         l.username,
         l.profile_data,
         case when l.replied_at is not null then 'replied' else l.state end as status,
         case when l.replied_at is not null then 0 else 1 end as precedence,
         greatest(l.collected_at, coalesce(l.last_sent_at, l.collected_at), coalesce(l.replied_at, l.collected_at))
           as activity_at,
         l.collected_at
    from public.campaign_leads l
    join public.campaigns c on c.id = l.campaign_id
   where l.user_id = (select auth.uid())
  union all
  select 'scraping'::text,
         s.id,
         s.scraping_campaign_id,
         coalesce(sc.name, 'Unknown Scraping Campaign'),
         sc.platform_id,
         s.username,
         s.profile_data,
         case when s.is_filtered then 'filtered' else 'active' end,
         2,
         s.collected_at,
         s.collected_at
    from public.scraping_campaign_leads s
    join public.scraping_campaigns sc on sc.id = s.scraping_campaign_id
   where s.user_id = (select auth.uid())
), people as (
  select r.platform_id,
         lower(r.username) as person,
         (array_agg(r.id order by r.precedence, r.activity_at desc, r.id))[1] as id,
         (array_agg(r.source order by r.precedence, r.activity_at desc, r.id))[1] as source,
         (array_agg(r.campaign_id order by r.precedence, r.activity_at desc, r.id))[1] as campaign_id,
         (array_agg(r.campaign_name order by r.precedence, r.activity_at desc, r.id))[1] as campaign_name,
         (array_agg(r.username order by r.precedence, r.activity_at desc, r.id))[1] as username,
         (array_agg(r.status order by r.precedence, r.activity_at desc, r.id))[1] as status,
         -- profile details from the newest row that has them
         (array_agg(coalesce(nullif(r.profile_data ->> 'display_name', ''), nullif(r.profile_data ->> 'full_name', ''))
            order by r.collected_at desc) filter (where coalesce(nullif(r.profile_data ->> 'display_name', ''),
            nullif(r.profile_data ->> 'full_name', '')) is not null))[1] as display_name,
         (array_agg(nullif(r.profile_data ->> 'email', '') order by r.collected_at desc)
            filter (where nullif(r.profile_data ->> 'email', '') is not null))[1] as email,
         (array_agg(coalesce(nullif(r.profile_data ->> 'company', ''), nullif(r.profile_data ->> 'business', ''))
            order by r.collected_at desc) filter (where coalesce(nullif(r.profile_data ->> 'company', ''),
            nullif(r.profile_data ->> 'business', '')) is not null))[1] as company,
         (array_agg(coalesce(nullif(r.profile_data ->> 'title', ''), nullif(r.profile_data ->> 'job_title', ''))
            order by r.collected_at desc) filter (where coalesce(nullif(r.profile_data ->> 'title', ''),
            nullif(r.profile_data ->> 'job_title', '')) is not null))[1] as title,
         array_agg(distinct r.campaign_name) as sources,
         array_agg(distinct r.campaign_id) as campaign_ids,
         count(*)::int as source_count,
         max(r.activity_at) as last_activity,
         max(r.collected_at) as collected_at
    from rows r
   group by r.platform_id, lower(r.username)
)
select p.id,
       p.source,
       p.campaign_id,
       p.campaign_name,
       p.username,
       coalesce(p.display_name, p.username) as display_name,
       p.email,
       p.company,
       p.title,
       upper(left(p.username, 1)) as avatar,
       p.status,
       p.last_activity,
       p.collected_at,
       p.sources,
       p.campaign_ids,
       p.source_count,
       (select pl.name from public.platforms pl where pl.id = p.platform_id) as platform
  from people p;

comment on view public.lead_people is
  'The Leads tab: one row per person (platform + username) across the caller''s DM and scraped leads, with the latest status (replied wins, then DM states, then active/filtered), the sources (campaign names) and campaign_ids. Shows only the caller''s rows.';
comment on column public.lead_people.status is
  'The person''s latest status across sources: replied; pending, sending, sent, failed, uncertain or skipped from a DM campaign; active or filtered when only scraped.';

create trigger lead_people_read_only
  instead of insert or update or delete on public.lead_people
  for each row execute function internal.refuse_view_write();

revoke all on public.lead_people from anon, authenticated;
grant select on public.lead_people to authenticated, service_role;

-- The tab badges in one call (issue 18 item 10): the dashboard sent six HEAD count requests on every
-- refresh (and its live poll), which the browser aborted and re-sent whenever a write invalidated
-- them. The same figures as dashboard_snapshot's counts, read with the caller's rights.
create or replace function public.dashboard_counts()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  return jsonb_build_object(
    'campaigns', (select count(*) from public.campaigns c where c.user_id = me),
    'leads', (select count(*) from public.lead_people),
    'accounts', (select count(*) from public.social_accounts a where a.user_id = me),
    'scraping', (select count(*) from public.scraping_campaigns s where s.user_id = me),
    'running', (select count(*) from public.campaigns c
                 where c.user_id = me and c.status in ('queued', 'running', 'active'))
             + (select count(*) from public.scraping_campaigns s
                 where s.user_id = me and s.status = 'running'));
end
$$;
comment on function public.dashboard_counts() is
  'The dashboard tab badges in one call: campaigns, leads (people), accounts, scraping campaigns, and running (DM + scraping) — the caller''s own rows.';
revoke execute on function public.dashboard_counts() from public, anon;
grant execute on function public.dashboard_counts() to authenticated, service_role;

-- The Leads tab's badge counts people too: the snapshot's counts are dashboard_counts() (below),
-- so the first screen and later refreshes read the same figures from one definition.
create or replace function public.dashboard_snapshot()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return (
    with me as (select (select auth.uid()) as id)
    select jsonb_build_object(
      'user_id', me.id,
      'summary', (select pg_catalog.to_jsonb(s) from public.dashboard_summary() s),
      'today', (select pg_catalog.to_jsonb(t) from public.todays_overview() t),
      'counts', public.dashboard_counts(),
      -- The same columns as the Campaigns tab's list read (web/src/features/campaigns/api/get-campaigns.ts).
      'campaigns', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'id', c.id, 'name', c.name, 'status', c.status, 'industry', c.industry, 'stage', c.stage,
                 'account_id', c.account_id, 'scraping_campaign_id', c.scraping_campaign_id,
                 'messages_sent', c.messages_sent, 'messages_failed', c.messages_failed,
                 'total_attempts', c.total_attempts, 'response_count', c.response_count,
                 'daily_message_limit', c.daily_message_limit, 'target_count', c.target_count,
                 'message_template', c.message_template, 'sequences', c.sequences, 'schedule', c.schedule,
                 'run_immediately', c.run_immediately, 'error_message', c.error_message,
                 'created_at', c.created_at, 'started_at', c.started_at, 'completed_at', c.completed_at,
                 'updated_at', c.updated_at,
                 'platform', (select jsonb_build_object('name', p.name, 'display_name', p.display_name)
                                from public.platforms p where p.id = c.platform_id),
                 'social_account', (select jsonb_build_object('id', a.id, 'username', a.username, 'status', a.status)
                                      from public.social_accounts a where a.id = c.account_id),
                 'scraping_campaign', (select jsonb_build_object('id', s.id, 'name', s.name)
                                         from public.scraping_campaigns s where s.id = c.scraping_campaign_id),
                 'leads', coalesce(f.leads, 0), 'contacted', coalesce(f.contacted, 0),
                 'replied', coalesce(f.replied, 0))
               order by c.created_at desc)
          from public.campaigns c
          left join public.campaign_card_figures() f on f.campaign_id = c.id
         where c.user_id = me.id), '[]'::jsonb))
      from me
  );
end
$$;

