-- What the dashboard needs beyond the client reads of 20261122001300: real figures for the campaign
-- cards (leads, contacted, replied per campaign in one query), the random days off of a schedule
-- before its campaign exists (the DM wizard picks the campaign's id itself so the preview is the
-- schedule the campaign will get), and scraped leads per hour for the scraping analytics chart.

-- Grants first need the column: a client may choose its own campaign id (a UUID it generated; a
-- clash is a unique violation, 409), so the wizard's preview of days off names the real campaign.
grant insert (id) on public.campaigns to authenticated;

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.campaign_card_figures()
returns table (campaign_id uuid, leads bigint, contacted bigint, replied bigint)
language sql
stable
set search_path = ''
as $$
  select l.campaign_id,
         count(*),
         count(*) filter (where l.last_sent_at is not null),
         count(*) filter (where l.replied_at is not null)
    from public.campaign_leads l
   where l.user_id = (select auth.uid())
   group by l.campaign_id
$$;
comment on function public.campaign_card_figures() is
  'Per DM campaign of the caller: leads, leads contacted at least once, leads that replied (the campaign cards'' Total Leads and Progress).';

create or replace function public.preview_campaign_days_off(p_campaign_id uuid, p_schedule jsonb, p_days integer default 28)
returns setof date
language sql
stable
set search_path = ''
as $$
  -- The same rule as public.campaign_days_off, for a schedule that is not stored yet.
  select d::date
    from pg_catalog.generate_series(
           pg_catalog.timezone(coalesce(p_schedule ->> 'timezone', 'UTC'), internal.now())::date,
           pg_catalog.timezone(coalesce(p_schedule ->> 'timezone', 'UTC'), internal.now())::date
             + (least(greatest(coalesce(p_days, 28), 1), 366) - 1),
           interval '1 day') d
   where coalesce((p_schedule ->> 'randomDaysOff')::boolean, true)
     and coalesce(p_schedule -> 'activeDays', '[]'::jsonb)
           ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
             [pg_catalog.date_part('isodow', d)::integer]
     and internal.is_random_day_off(p_campaign_id, d::date)
   order by 1
$$;
comment on function public.preview_campaign_days_off(uuid, jsonb, integer) is
  'Random days off a campaign with this id and schedule would take, from today in the schedule''s time zone for p_days days (1-366). Reads no table.';

create or replace function public.scraping_collection_per_hour(p_scraping_campaign_id uuid, p_hours integer default 48)
returns table (hour timestamptz, collected bigint, valid bigint)
language sql
stable
set search_path = ''
as $$
  with bounds as (
    select pg_catalog.date_trunc('hour', internal.now()) as last_hour,
           least(greatest(coalesce(p_hours, 48), 1), 24 * 14) as hours
  ), calendar as (
    select pg_catalog.generate_series(b.last_hour - (b.hours - 1) * interval '1 hour', b.last_hour, interval '1 hour') as hour
      from bounds b
  )
  select c.hour,
         count(l.id),
         count(l.id) filter (where not l.is_filtered)
    from calendar c
    left join public.scraping_campaign_leads l
      on l.scraping_campaign_id = p_scraping_campaign_id
     and l.user_id = (select auth.uid())
     and l.collected_at >= c.hour and l.collected_at < c.hour + interval '1 hour'
   group by c.hour
   order by c.hour
$$;
comment on function public.scraping_collection_per_hour(uuid, integer) is
  'Leads the caller''s scraping campaign collected per hour (all and valid) over the last p_hours hours (1-336), for the analytics chart.';

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function public.campaign_card_figures(), public.preview_campaign_days_off(uuid, jsonb, integer),
  public.scraping_collection_per_hour(uuid, integer) from public, anon;
grant execute on function public.campaign_card_figures(), public.preview_campaign_days_off(uuid, jsonb, integer),
  public.scraping_collection_per_hour(uuid, integer) to authenticated, service_role;
