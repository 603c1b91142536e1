-- Lead scraping: campaigns that collect profiles from followers, following, hashtag posts or keyword
-- search, the collected leads (kept even when a filter rejects them, with the reason), and lead
-- lists. Customers create, start, pause and delete their campaigns; the runner collects leads and
-- triggers keep the counters, the campaign's own lead list and completion in step.

-- Tables ---------------------------------------------------------------------------------------

create table public.lead_lists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  scraping_campaign_id uuid,
  lead_count integer not null default 0 check (lead_count >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index lead_lists_user_id_created_at_idx on public.lead_lists (user_id, created_at desc);

comment on table public.lead_lists is 'Named lists of scraped leads. Each scraping campaign fills its own list (deleted with it) with the leads that passed its filters.';
comment on column public.lead_lists.lead_count is 'Members in the list, kept by a trigger.';

create table public.scraping_campaigns (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  account_id uuid references public.social_accounts (id) on delete set null,
  platform_id uuid not null references public.platforms (id),
  lead_list_id uuid references public.lead_lists (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  sources jsonb not null,
  target_count integer not null default 100 check (target_count between 1 and 10000),
  filters jsonb not null default
    '{"min_followers": 0, "max_followers": null, "verified_only": false, "has_bio": false, "exclude_business": false}'::jsonb,
  status text not null default 'pending' check (status in ('pending', 'running', 'paused', 'completed')),
  collected_count integer not null default 0 check (collected_count >= 0),
  leads_collected integer not null default 0 check (leads_collected >= 0),
  error_message text,
  progress jsonb not null default '{}'::jsonb,
  started_at timestamptz,
  completed_at timestamptz,
  last_run_at timestamptz,
  next_run_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table public.lead_lists
  add constraint lead_lists_scraping_campaign_id_fkey
  foreign key (scraping_campaign_id) references public.scraping_campaigns (id) on delete cascade;

create index scraping_campaigns_user_id_created_at_idx on public.scraping_campaigns (user_id, created_at desc);
create index scraping_campaigns_account_id_idx on public.scraping_campaigns (account_id);
create index scraping_campaigns_running_idx on public.scraping_campaigns (next_run_at) where status = 'running';
create index lead_lists_scraping_campaign_id_idx on public.lead_lists (scraping_campaign_id);

comment on table public.scraping_campaigns is
  'A lead scraping job. Created pending; the customer starts it (running) and may pause it; the system completes it at target_count valid leads.';
comment on column public.scraping_campaigns.sources is
  'Where to collect: [{type: followers|following|hashtag|keyword, value}] (usernames without @, hashtags without #).';
comment on column public.scraping_campaigns.filters is
  '{min_followers (0), max_followers (null = no limit), verified_only, has_bio, exclude_business (false)}.';
comment on column public.scraping_campaigns.collected_count is 'Every profile collected, including those the filters rejected.';
comment on column public.scraping_campaigns.leads_collected is 'Collected profiles that passed the filters (valid leads).';
comment on column public.scraping_campaigns.progress is 'The runner''s paging state per source (cursors), so a run resumes where the last stopped.';
comment on column public.scraping_campaigns.next_run_at is
  'Earliest time the scheduler queues the next run (the runner sets it to respect platform rate limits).';

create table public.scraping_campaign_leads (
  id uuid primary key default gen_random_uuid(),
  scraping_campaign_id uuid not null references public.scraping_campaigns (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  username text not null check (char_length(username) between 1 and 100),
  profile_data jsonb not null default '{}'::jsonb check (jsonb_typeof(profile_data) = 'object'),
  is_filtered boolean not null default false,
  filter_reason text,
  source_type text check (source_type in ('followers', 'following', 'hashtag', 'keyword')),
  source_value text,
  collected_at timestamptz not null default now()
);

create unique index scraping_campaign_leads_campaign_username_key
  on public.scraping_campaign_leads (scraping_campaign_id, lower(username));
create index scraping_campaign_leads_user_id_collected_at_idx on public.scraping_campaign_leads (user_id, collected_at desc);
create index scraping_campaign_leads_campaign_collected_at_idx
  on public.scraping_campaign_leads (scraping_campaign_id, collected_at desc);

comment on table public.scraping_campaign_leads is 'Profiles a scraping campaign collected. Written by the runner.';
comment on column public.scraping_campaign_leads.profile_data is
  'What the profile showed: display_name, full_name, bio, followers_count, verified, email, company, title...';
comment on column public.scraping_campaign_leads.is_filtered is 'True when a filter rejected the profile (see filter_reason); such leads are not messaged.';
comment on column public.scraping_campaign_leads.user_id is 'Owner, copied from the campaign so row-level security needs no join.';

create table public.lead_list_members (
  lead_list_id uuid not null references public.lead_lists (id) on delete cascade,
  scraping_lead_id uuid not null references public.scraping_campaign_leads (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (lead_list_id, scraping_lead_id)
);

create index lead_list_members_user_id_idx on public.lead_list_members (user_id);
create index lead_list_members_scraping_lead_id_idx on public.lead_list_members (scraping_lead_id);

comment on table public.lead_list_members is 'Which scraped leads belong to which lead list.';

-- Triggers -------------------------------------------------------------------------------------

create trigger lead_lists_set_updated_at
  before update on public.lead_lists
  for each row execute function internal.set_updated_at();

create trigger scraping_campaigns_set_updated_at
  before update on public.scraping_campaigns
  for each row execute function internal.set_updated_at();

create or replace function internal.validate_scraping_campaign()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  source jsonb;
  source_type text;
  source_value text;
  filter_key text;
  defaults constant jsonb :=
    '{"min_followers": 0, "max_followers": null, "verified_only": false, "has_bio": false, "exclude_business": false}';
begin
  if jsonb_typeof(new.sources) is distinct from 'array' or jsonb_array_length(new.sources) = 0 then
    raise exception 'sources must be a non-empty list of {type, value}' using errcode = '22023';
  end if;
  if jsonb_array_length(new.sources) > 20 then
    raise exception 'sources may list at most 20 entries' using errcode = '22023';
  end if;
  for source in select value from jsonb_array_elements(new.sources) loop
    source_type := source ->> 'type';
    source_value := btrim(coalesce(source ->> 'value', ''));
    if jsonb_typeof(source) <> 'object' or source_type is null
       or source_type not in ('followers', 'following', 'hashtag', 'keyword') then
      raise exception 'source type must be followers, following, hashtag or keyword' using errcode = '22023';
    end if;
    if source_value = '' or char_length(source_value) > 200 then
      raise exception 'source value is required (at most 200 characters)' using errcode = '22023';
    end if;
    if source_type = 'hashtag' and source_value like '#%' then
      raise exception 'Enter hashtags without #' using errcode = '22023';
    end if;
    if source_type in ('followers', 'following') and source_value like '@%' then
      raise exception 'Enter usernames without @' using errcode = '22023';
    end if;
  end loop;

  if jsonb_typeof(new.filters) is distinct from 'object' then
    raise exception 'filters must be an object' using errcode = '22023';
  end if;
  for filter_key in select jsonb_object_keys(new.filters) loop
    if not defaults ? filter_key then
      raise exception 'unknown filter "%"', filter_key using errcode = '22023';
    end if;
  end loop;
  -- Missing or null filters take their defaults; max_followers null means no limit.
  new.filters := defaults || jsonb_strip_nulls(new.filters)
    || jsonb_build_object('max_followers', coalesce(new.filters -> 'max_followers', 'null'::jsonb));
  if jsonb_typeof(new.filters -> 'min_followers') <> 'number'
     or (new.filters ->> 'min_followers')::numeric < 0
     or (new.filters ->> 'min_followers')::numeric <> trunc((new.filters ->> 'min_followers')::numeric) then
    raise exception 'min_followers must be a whole number of 0 or more' using errcode = '22023';
  end if;
  if jsonb_typeof(new.filters -> 'max_followers') not in ('number', 'null')
     or (jsonb_typeof(new.filters -> 'max_followers') = 'number'
         and (new.filters ->> 'max_followers')::numeric < (new.filters ->> 'min_followers')::numeric) then
    raise exception 'max_followers must be empty (no limit) or at least min_followers' using errcode = '22023';
  end if;
  if jsonb_typeof(new.filters -> 'verified_only') <> 'boolean'
     or jsonb_typeof(new.filters -> 'has_bio') <> 'boolean'
     or jsonb_typeof(new.filters -> 'exclude_business') <> 'boolean' then
    raise exception 'verified_only, has_bio and exclude_business must be true or false' using errcode = '22023';
  end if;
  return new;
end
$$;
comment on function internal.validate_scraping_campaign() is
  'BEFORE INSERT/UPDATE on scraping_campaigns: checks sources and filters, fills filter defaults.';

create trigger scraping_campaigns_validate
  before insert or update of sources, filters on public.scraping_campaigns
  for each row execute function internal.validate_scraping_campaign();

create or replace function internal.prepare_scraping_campaign()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_platform uuid;
begin
  select a.platform_id into account_platform
    from public.social_accounts a
   where a.id = new.account_id and a.user_id = new.user_id;
  if account_platform is null then
    raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
  end if;
  new.platform_id := account_platform;
  return new;
end
$$;
comment on function internal.prepare_scraping_campaign() is
  'BEFORE INSERT on scraping_campaigns: the account must be the customer''s own; the platform comes from it.';

create trigger scraping_campaigns_prepare
  before insert on public.scraping_campaigns
  for each row execute function internal.prepare_scraping_campaign();

create or replace function internal.guard_scraping_campaign_status()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    -- Customers may start, pause and resume; completing is the system's call.
    if internal.is_client_role() and not (
         (old.status = 'pending' and new.status = 'running')
      or (old.status = 'running' and new.status = 'paused')
      or (old.status = 'paused' and new.status = 'running')) then
      raise exception 'A scraping campaign cannot go from % to %', old.status, new.status using errcode = '42501';
    end if;
    if new.status = 'running' then
      new.started_at := coalesce(new.started_at, internal.now());
      new.next_run_at := internal.now();
      new.error_message := null;
    elsif new.status = 'completed' then
      new.completed_at := coalesce(new.completed_at, internal.now());
      new.next_run_at := null;
    elsif new.status = 'paused' then
      new.next_run_at := null;
    end if;
  end if;
  return new;
end
$$;
comment on function internal.guard_scraping_campaign_status() is
  'BEFORE UPDATE on scraping_campaigns: clients may only start, pause and resume; stamps started_at, completed_at, next_run_at.';

create trigger scraping_campaigns_guard_status
  before update of status on public.scraping_campaigns
  for each row when (old.status is distinct from new.status) execute function internal.guard_scraping_campaign_status();

create or replace function internal.create_scraping_lead_list()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  list_id uuid;
begin
  insert into public.lead_lists (user_id, name, scraping_campaign_id)
  values (new.user_id, left(new.name, 194) || ' Leads', new.id)
  returning id into list_id;
  update public.scraping_campaigns set lead_list_id = list_id where id = new.id;
  return null;
end
$$;
comment on function internal.create_scraping_lead_list() is
  'AFTER INSERT on scraping_campaigns: gives the campaign its own lead list, filled with its valid leads.';

create trigger scraping_campaigns_create_lead_list
  after insert on public.scraping_campaigns
  for each row execute function internal.create_scraping_lead_list();

create or replace function internal.prepare_scraping_lead()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select c.user_id into new.user_id from public.scraping_campaigns c where c.id = new.scraping_campaign_id;
  new.username := ltrim(btrim(new.username), '@');
  return new;
end
$$;
comment on function internal.prepare_scraping_lead() is
  'BEFORE INSERT on scraping_campaign_leads: copies the owner from the campaign and strips a leading @.';

create trigger scraping_campaign_leads_prepare
  before insert on public.scraping_campaign_leads
  for each row execute function internal.prepare_scraping_lead();

create or replace function internal.count_scraping_leads()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
    returning c.id, c.user_id, c.name, c.leads_collected
  )
  insert into public.notifications (user_id, type, title, message, metadata)
  select f.user_id, 'scraping_completed', 'Scraping campaign completed',
         format('"%s" collected %s valid leads.', f.name, f.leads_collected),
         jsonb_build_object('scrapingCampaignId', f.id)
    from finished f;
  return null;
end
$$;
comment on function internal.count_scraping_leads() is
  'AFTER INSERT (per statement) on scraping_campaign_leads: counters, the campaign''s lead list, completion at the target (with a scraping_completed notification).';

create trigger scraping_campaign_leads_count
  after insert on public.scraping_campaign_leads
  referencing new table as inserted
  for each statement execute function internal.count_scraping_leads();

create or replace function internal.check_lead_list_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.lead_lists l where l.id = new.lead_list_id and l.user_id = new.user_id)
     or not exists (select 1 from public.scraping_campaign_leads s where s.id = new.scraping_lead_id and s.user_id = new.user_id) then
    raise exception 'The list and the lead must both be yours' using errcode = '42501';
  end if;
  return new;
end
$$;
comment on function internal.check_lead_list_member() is
  'BEFORE INSERT on lead_list_members: list and lead must belong to the member row''s owner.';

create trigger lead_list_members_check
  before insert on public.lead_list_members
  for each row execute function internal.check_lead_list_member();

create or replace function internal.count_lead_list_members()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.lead_lists l set lead_count = l.lead_count + d.n
      from (select lead_list_id, count(*) as n from inserted group by lead_list_id) d
     where l.id = d.lead_list_id;
  else
    update public.lead_lists l set lead_count = greatest(0, l.lead_count - d.n)
      from (select lead_list_id, count(*) as n from deleted group by lead_list_id) d
     where l.id = d.lead_list_id;
  end if;
  return null;
end
$$;
comment on function internal.count_lead_list_members() is 'AFTER INSERT/DELETE (per statement) on lead_list_members: keeps lead_lists.lead_count.';

create trigger lead_list_members_count_insert
  after insert on public.lead_list_members
  referencing new table as inserted
  for each statement execute function internal.count_lead_list_members();

create trigger lead_list_members_count_delete
  after delete on public.lead_list_members
  referencing old table as deleted
  for each statement execute function internal.count_lead_list_members();

-- Policies -------------------------------------------------------------------------------------

alter table public.lead_lists enable row level security;
alter table public.scraping_campaigns enable row level security;
alter table public.scraping_campaign_leads enable row level security;
alter table public.lead_list_members enable row level security;

create policy "Users can read their own scraping campaigns"
  on public.scraping_campaigns for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can create scraping campaigns for themselves"
  on public.scraping_campaigns for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can update their own scraping campaigns"
  on public.scraping_campaigns for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Users can delete their own scraping campaigns"
  on public.scraping_campaigns for delete to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read their own scraped leads"
  on public.scraping_campaign_leads for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read their own lead lists"
  on public.lead_lists for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can create lead lists for themselves"
  on public.lead_lists for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can rename their own lead lists"
  on public.lead_lists for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Users can delete their own lead lists"
  on public.lead_lists for delete to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read the members of their own lead lists"
  on public.lead_list_members for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can add their own leads to their own lead lists"
  on public.lead_list_members for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can remove members from their own lead lists"
  on public.lead_list_members for delete to authenticated
  using (user_id = (select auth.uid()));

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.lead_lists, public.scraping_campaigns, public.scraping_campaign_leads,
  public.lead_list_members from anon, authenticated;
grant select, delete on public.scraping_campaigns to authenticated;
grant insert (user_id, name, account_id, sources, target_count, filters) on public.scraping_campaigns to authenticated;
grant update (name, status, sources, target_count, filters, updated_at) on public.scraping_campaigns to authenticated;
grant select on public.scraping_campaign_leads to authenticated;
grant select, delete on public.lead_lists to authenticated;
grant insert (user_id, name) on public.lead_lists to authenticated;
grant update (name, updated_at) on public.lead_lists to authenticated;
grant select, delete on public.lead_list_members to authenticated;
grant insert (lead_list_id, scraping_lead_id, user_id) on public.lead_list_members to authenticated;
grant all on public.lead_lists, public.scraping_campaigns, public.scraping_campaign_leads,
  public.lead_list_members to service_role;
