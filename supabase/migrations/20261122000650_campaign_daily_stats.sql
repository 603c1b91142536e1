-- Per campaign and day (in the campaign's schedule time zone): attempts, sent, failed, uncertain and
-- replies, kept by triggers on dm_logs and campaign_leads. The dashboard's week-over-week cards and
-- the campaign charts read these few rows instead of counting message logs on every page view.

-- Tables ---------------------------------------------------------------------------------------

create table public.campaign_daily_stats (
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  day date not null,
  attempts integer not null default 0 check (attempts >= 0),
  sent integer not null default 0 check (sent >= 0),
  failed integer not null default 0 check (failed >= 0),
  uncertain integer not null default 0 check (uncertain >= 0),
  replies integer not null default 0 check (replies >= 0),
  primary key (campaign_id, day)
);

create index campaign_daily_stats_user_id_day_idx on public.campaign_daily_stats (user_id, day);

comment on table public.campaign_daily_stats is
  'Daily message figures per campaign (day in the campaign''s time zone), kept by triggers. Read-only for customers.';
comment on column public.campaign_daily_stats.uncertain is 'Sends not confirmed yet; they move to sent or failed when the runner resolves them.';
comment on column public.campaign_daily_stats.replies is 'Leads whose first reply came that day.';

-- Triggers -------------------------------------------------------------------------------------

create or replace function internal.count_daily_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, attempts, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date, 1,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set attempts = s.attempts + 1,
           sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  else
    -- A resolved send (uncertain -> sent or failed) moves between columns of its own day.
    update public.campaign_daily_stats s
       set sent = s.sent + (new.status = 'sent')::int - (old.status = 'sent')::int,
           failed = s.failed + (new.status in ('failed', 'error'))::int - (old.status in ('failed', 'error'))::int,
           uncertain = greatest(0, s.uncertain + (new.status = 'uncertain')::int - (old.status = 'uncertain')::int)
      from public.campaigns c
     where c.id = new.campaign_id and s.campaign_id = c.id
       and s.day = pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date;
  end if;
  return null;
end
$$;
comment on function internal.count_daily_message() is
  'AFTER INSERT/UPDATE of status on dm_logs: moves the log''s day figures (attempts, sent, failed, uncertain).';

create trigger dm_logs_count_daily_insert
  after insert on public.dm_logs
  for each row execute function internal.count_daily_message();

create trigger dm_logs_count_daily_status_change
  after update of status on public.dm_logs
  for each row when (old.status is distinct from new.status)
  execute function internal.count_daily_message();

create or replace function internal.count_daily_reply()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.campaign_daily_stats as s (campaign_id, user_id, day, replies)
  select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.replied_at)::date, 1
    from public.campaigns c
   where c.id = new.campaign_id
  on conflict (campaign_id, day) do update set replies = s.replies + 1;
  return null;
end
$$;
comment on function internal.count_daily_reply() is 'AFTER a lead''s first reply: counts it on the reply''s day.';

create trigger campaign_leads_count_daily_reply
  after update of replied_at on public.campaign_leads
  for each row when (old.replied_at is null and new.replied_at is not null)
  execute function internal.count_daily_reply();

create trigger campaign_leads_count_daily_reply_on_insert
  after insert on public.campaign_leads
  for each row when (new.replied_at is not null)
  execute function internal.count_daily_reply();

-- Policies -------------------------------------------------------------------------------------

alter table public.campaign_daily_stats enable row level security;

create policy "Users can read their own campaigns' daily figures"
  on public.campaign_daily_stats for select to authenticated
  using (user_id = (select auth.uid()));

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.campaign_daily_stats from anon, authenticated;
grant select on public.campaign_daily_stats to authenticated;
grant all on public.campaign_daily_stats to service_role;
