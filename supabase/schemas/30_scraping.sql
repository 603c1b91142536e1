-- Scraping and leads: scraping campaigns, the leads they collect and lead lists.

-- Tables ------------------------------------------------------------------------------------------

create table public.lead_lists (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  name text not null,
  scraping_campaign_id uuid,
  lead_count integer not null default 0,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint lead_lists_pkey primary key (id),
  constraint lead_lists_lead_count_check check ((lead_count >= 0)),
  constraint lead_lists_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 200))),
  constraint lead_lists_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint lead_lists_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.lead_lists is
  'Named lists of scraped leads. Each scraping campaign fills its own list (deleted with it) with the leads that passed its filters.';
comment on column public.lead_lists.lead_count is 'Members in the list, kept by a trigger.';
comment on column public.lead_lists.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.scraping_campaigns (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  account_id uuid,
  platform_id uuid not null,
  lead_list_id uuid,
  name text not null,
  sources jsonb not null,
  target_count integer not null default 100,
  filters jsonb not null default '{"has_bio": false, "max_followers": null, "min_followers": 0, "verified_only": false, "exclude_business": false}'::jsonb,
  status text not null default 'pending'::text,
  collected_count integer not null default 0,
  leads_collected integer not null default 0,
  error_message text,
  progress jsonb not null default '{}'::jsonb,
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  last_run_at timestamp with time zone,
  next_run_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  ai_ideal_customer text,
  ai_min_score integer not null default 60,
  ai_kept integer not null default 0,
  ai_skipped integer not null default 0,
  ai_unscored integer not null default 0,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint scraping_campaigns_pkey primary key (id),
  constraint scraping_campaigns_ai_ideal_customer_check check ((char_length(ai_ideal_customer) <= 1000)),
  constraint scraping_campaigns_ai_kept_check check ((ai_kept >= 0)),
  constraint scraping_campaigns_ai_min_score_check check (((ai_min_score >= 0) and (ai_min_score <= 100))),
  constraint scraping_campaigns_ai_skipped_check check ((ai_skipped >= 0)),
  constraint scraping_campaigns_ai_unscored_check check ((ai_unscored >= 0)),
  constraint scraping_campaigns_collected_count_check check ((collected_count >= 0)),
  constraint scraping_campaigns_leads_collected_check check ((leads_collected >= 0)),
  constraint scraping_campaigns_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 200))),
  constraint scraping_campaigns_status_check check ((status = any (array['pending'::text, 'running'::text, 'paused'::text, 'completed'::text]))),
  constraint scraping_campaigns_target_count_check check (((target_count >= 1) and (target_count <= 10000))),
  constraint scraping_campaigns_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete set null,
  constraint scraping_campaigns_lead_list_id_fkey foreign key (lead_list_id) references public.lead_lists(id) on delete set null,
  constraint scraping_campaigns_platform_id_fkey foreign key (platform_id) references public.platforms(id),
  constraint scraping_campaigns_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint scraping_campaigns_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.scraping_campaigns is
  'A lead scraping job. Created pending; the customer starts it (running) and may pause it; the system completes it at target_count valid leads.';
comment on column public.scraping_campaigns.sources is
  'Where to collect: [{type: followers|following|hashtag|keyword, value}] (usernames without @, hashtags without #).';
comment on column public.scraping_campaigns.filters is
  '{min_followers (0), max_followers (null = no limit), verified_only, has_bio, exclude_business (false)}.';
comment on column public.scraping_campaigns.collected_count is
  'Every profile collected, including those the filters rejected.';
comment on column public.scraping_campaigns.leads_collected is
  'Collected profiles that passed the filters (valid leads).';
comment on column public.scraping_campaigns.progress is
  'The runner''s paging state per source (cursors), so a run resumes where the last stopped.';
comment on column public.scraping_campaigns.next_run_at is
  'Earliest time the scheduler queues the next run (the runner sets it to respect platform rate limits).';
comment on column public.scraping_campaigns.ai_ideal_customer is
  'When set, the runner scores each lead''s bio against it (0-100) and keeps leads scoring at least ai_min_score; leads it cannot score are kept unscored. The verdict is profile_data.ai.';
comment on column public.scraping_campaigns.ai_kept is
  'Stored leads the AI scored at or above ai_min_score.';
comment on column public.scraping_campaigns.ai_skipped is
  'Stored leads filtered out for an AI score below ai_min_score (filter_reason says the score and why).';
comment on column public.scraping_campaigns.ai_unscored is
  'Stored leads the AI could not score (timeout, rate limit, budget, bad answer): kept, marked unscored.';
comment on column public.scraping_campaigns.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

alter table public.lead_lists add constraint lead_lists_scraping_campaign_id_fkey foreign key (scraping_campaign_id) references public.scraping_campaigns(id) on delete cascade;

create table public.scraping_campaign_leads (
  id uuid not null default gen_random_uuid(),
  scraping_campaign_id uuid not null,
  user_id uuid not null,
  username text not null,
  profile_data jsonb not null default '{}'::jsonb,
  is_filtered boolean not null default false,
  filter_reason text,
  source_type text,
  source_value text,
  collected_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint scraping_campaign_leads_pkey primary key (id),
  constraint scraping_campaign_leads_profile_data_check check ((jsonb_typeof(profile_data) = 'object'::text)),
  constraint scraping_campaign_leads_source_type_check check ((source_type = any (array['followers'::text, 'following'::text, 'hashtag'::text, 'keyword'::text]))),
  constraint scraping_campaign_leads_username_check check (((char_length(username) >= 1) and (char_length(username) <= 100))),
  constraint scraping_campaign_leads_scraping_campaign_id_fkey foreign key (scraping_campaign_id) references public.scraping_campaigns(id) on delete cascade,
  constraint scraping_campaign_leads_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint scraping_campaign_leads_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.scraping_campaign_leads is
  'Profiles a scraping campaign collected. Written by the runner.';
comment on column public.scraping_campaign_leads.user_id is
  'Owner, copied from the campaign so row-level security needs no join.';
comment on column public.scraping_campaign_leads.profile_data is
  'What the profile showed: display_name, full_name, bio, followers_count, verified, email, company, title...';
comment on column public.scraping_campaign_leads.is_filtered is
  'True when a filter rejected the profile (see filter_reason); such leads are not messaged.';
comment on column public.scraping_campaign_leads.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.lead_list_members (
  lead_list_id uuid not null,
  scraping_lead_id uuid not null,
  user_id uuid not null default auth.uid(),
  added_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint lead_list_members_pkey primary key (lead_list_id, scraping_lead_id),
  constraint lead_list_members_lead_list_id_fkey foreign key (lead_list_id) references public.lead_lists(id) on delete cascade,
  constraint lead_list_members_scraping_lead_id_fkey foreign key (scraping_lead_id) references public.scraping_campaign_leads(id) on delete cascade,
  constraint lead_list_members_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint lead_list_members_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.lead_list_members is 'Which scraped leads belong to which lead list.';
comment on column public.lead_list_members.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create index lead_lists_scraping_campaign_id_idx on public.lead_lists (scraping_campaign_id);
create index lead_lists_user_id_created_at_idx on public.lead_lists (user_id, created_at desc);
create index lead_lists_workspace_id_created_at_idx on public.lead_lists (workspace_id, created_at desc);

create index scraping_campaigns_account_id_idx on public.scraping_campaigns (account_id);
create index scraping_campaigns_running_idx on public.scraping_campaigns (next_run_at) where (status = 'running'::text);
create index scraping_campaigns_user_id_created_at_idx on public.scraping_campaigns (user_id, created_at desc);
create index scraping_campaigns_workspace_id_created_at_idx on public.scraping_campaigns (workspace_id, created_at desc);

create index scraping_campaign_leads_campaign_collected_at_idx on public.scraping_campaign_leads (scraping_campaign_id, collected_at desc);
create unique index scraping_campaign_leads_campaign_username_key on public.scraping_campaign_leads (scraping_campaign_id, lower(username));
create index scraping_campaign_leads_user_id_collected_at_idx on public.scraping_campaign_leads (user_id, collected_at desc);
create index scraping_campaign_leads_workspace_id_collected_at_idx on public.scraping_campaign_leads (workspace_id, collected_at desc);

create index lead_list_members_scraping_lead_id_idx on public.lead_list_members (scraping_lead_id);
create index lead_list_members_user_id_idx on public.lead_list_members (user_id);
create index lead_list_members_workspace_id_idx on public.lead_list_members (workspace_id);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.check_lead_list_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  list_workspace uuid := (select l.workspace_id from public.lead_lists l where l.id = new.lead_list_id);
begin
  -- Runs before the workspace is filled in for a service insert: then the list's workspace counts.
  if list_workspace is null or list_workspace <> coalesce(new.workspace_id, list_workspace)
     or not exists (select 1 from public.scraping_campaign_leads s where s.id = new.scraping_lead_id and s.workspace_id = list_workspace) then
    raise exception 'The list and the lead must both be yours' using errcode = '42501';
  end if;
  return new;
end
$$;
comment on function internal.check_lead_list_member() is
  'BEFORE INSERT on lead_list_members: list and lead must belong to the member row''s workspace.';

create or replace function internal.check_scraping_channel()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Scraping reads profiles and followers in the account's browser; an official account has none.
  if exists (select 1 from public.social_accounts a where a.id = new.account_id and a.connection = 'official') then
    raise exception 'This account is connected through the official API, which cannot search for leads: choose a browser-connected account for scraping' using errcode = '22023';
  end if;
  return new;
end;
$$;
comment on function internal.check_scraping_channel() is
  'BEFORE INSERT or UPDATE of account_id on scraping_campaigns: refuses an official-API account (scraping needs the browser).';

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
comment on function internal.count_lead_list_members() is
  'AFTER INSERT/DELETE (per statement) on lead_list_members: keeps lead_lists.lead_count.';

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
    returning c.id, c.workspace_id, c.user_id, c.name, c.leads_collected
  )
  insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
  select f.workspace_id, f.user_id, 'scraping_completed', 'Scraping campaign completed',
         format('"%s" collected %s valid leads.', f.name, f.leads_collected),
         jsonb_build_object('scrapingCampaignId', f.id)
    from finished f;
  return null;
end
$$;
comment on function internal.count_scraping_leads() is
  'AFTER INSERT (per statement) on scraping_campaign_leads: counters, the campaign''s lead list, completion at the target (with a scraping_completed notification).';

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
   where a.id = new.account_id and a.workspace_id = new.workspace_id;
  if account_platform is null then
    raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
  end if;
  new.platform_id := account_platform;
  return new;
end
$$;
comment on function internal.prepare_scraping_campaign() is
  'BEFORE INSERT on scraping_campaigns: the account must be in the campaign''s workspace; the platform comes from it.';

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

create trigger lead_lists_fill_workspace_id before insert on public.lead_lists for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_scraping_campaign();

create trigger lead_lists_set_updated_at before update on public.lead_lists for each row execute function internal.set_updated_at();

create trigger scraping_campaigns_check_channel before insert or update of account_id on public.scraping_campaigns for each row execute function internal.check_scraping_channel();

create trigger scraping_campaigns_create_lead_list after insert on public.scraping_campaigns for each row execute function internal.create_scraping_lead_list();

create trigger scraping_campaigns_fill_workspace_id before insert on public.scraping_campaigns for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger scraping_campaigns_guard_status before update of status on public.scraping_campaigns for each row when ((old.status is distinct from new.status)) execute function internal.guard_scraping_campaign_status();

create trigger scraping_campaigns_prepare before insert on public.scraping_campaigns for each row execute function internal.prepare_scraping_campaign();

create trigger scraping_campaigns_set_updated_at before update on public.scraping_campaigns for each row execute function internal.set_updated_at();

create trigger scraping_campaigns_validate before insert or update of sources, filters on public.scraping_campaigns for each row execute function internal.validate_scraping_campaign();

create trigger scraping_campaign_leads_count after insert on public.scraping_campaign_leads referencing new table as inserted for each statement execute function internal.count_scraping_leads();

create trigger scraping_campaign_leads_fill_workspace_id before insert on public.scraping_campaign_leads for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_scraping_campaign();

create trigger scraping_campaign_leads_prepare before insert on public.scraping_campaign_leads for each row execute function internal.prepare_scraping_lead();

create trigger lead_list_members_check before insert on public.lead_list_members for each row execute function internal.check_lead_list_member();

create trigger lead_list_members_count_delete after delete on public.lead_list_members referencing old table as deleted for each statement execute function internal.count_lead_list_members();

create trigger lead_list_members_count_insert after insert on public.lead_list_members referencing new table as inserted for each statement execute function internal.count_lead_list_members();

create trigger lead_list_members_fill_workspace_id before insert on public.lead_list_members for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_lead_list();

-- Row-level security ------------------------------------------------------------------------------

alter table public.lead_lists enable row level security;

create policy "The runner reads every lead list" on public.lead_lists
  for select
  to reachflow_runner
  using (true);

create policy "Members can read the workspace's lead lists" on public.lead_lists
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can change the workspace's lead lists" on public.lead_lists
  for update
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)))
  with check ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's lead lists" on public.lead_lists
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

create policy "Members who edit can delete the workspace's lead lists" on public.lead_lists
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.scraping_campaigns enable row level security;

create policy "The runner reads scraping campaigns" on public.scraping_campaigns
  for select
  to reachflow_runner
  using (true);

create policy "The runner updates scraping campaigns" on public.scraping_campaigns
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "Members can read the workspace's scraping campaigns" on public.scraping_campaigns
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can change the workspace's scraping campaigns" on public.scraping_campaigns
  for update
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)))
  with check ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's scraping campaigns" on public.scraping_campaigns
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

create policy "Members who edit can delete the workspace's scraping campaigns" on public.scraping_campaigns
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.scraping_campaign_leads enable row level security;

create policy "The runner adds scraped leads" on public.scraping_campaign_leads
  for insert
  to reachflow_runner
  with check (true);

create policy "The runner reads scraped leads" on public.scraping_campaign_leads
  for select
  to reachflow_runner
  using (true);

create policy "Members can read the workspace's scraped leads" on public.scraping_campaign_leads
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.lead_list_members enable row level security;

create policy "The runner reads every lead list member" on public.lead_list_members
  for select
  to reachflow_runner
  using (true);

create policy "Members can read the workspace's lead list members" on public.lead_list_members
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's lead list members" on public.lead_list_members
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

create policy "Members who edit can delete the workspace's lead list members" on public.lead_list_members
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.lead_lists from anon;
revoke insert, update, truncate, references, trigger on public.lead_lists from authenticated;
grant select on public.lead_lists to reachflow_runner;
grant insert (user_id, name) on public.lead_lists to authenticated;
grant update (name, updated_at) on public.lead_lists to authenticated;

revoke all on public.scraping_campaigns from anon;
revoke insert, update, truncate, references, trigger on public.scraping_campaigns from authenticated;
grant select on public.scraping_campaigns to reachflow_runner;
grant insert (user_id, account_id, name, sources, target_count, filters, ai_ideal_customer, ai_min_score) on public.scraping_campaigns to authenticated;
grant update (name, sources, target_count, filters, status, updated_at, ai_ideal_customer, ai_min_score) on public.scraping_campaigns to authenticated;
grant update (status, error_message, progress, last_run_at, next_run_at, updated_at, ai_kept, ai_skipped, ai_unscored) on public.scraping_campaigns to reachflow_runner;

revoke all on public.scraping_campaign_leads from anon;
revoke insert, update, delete, truncate, references, trigger on public.scraping_campaign_leads from authenticated;
grant select, insert on public.scraping_campaign_leads to reachflow_runner;

revoke all on public.lead_list_members from anon;
revoke insert, update, truncate, references, trigger on public.lead_list_members from authenticated;
grant select on public.lead_list_members to reachflow_runner;
grant insert (lead_list_id, scraping_lead_id, user_id) on public.lead_list_members to authenticated;

revoke execute on function internal.check_lead_list_member() from public;
revoke execute on function internal.check_scraping_channel() from public;
revoke execute on function internal.count_lead_list_members() from public;
revoke execute on function internal.count_scraping_leads() from public;
revoke execute on function internal.create_scraping_lead_list() from public;
revoke execute on function internal.guard_scraping_campaign_status() from public;
revoke execute on function internal.prepare_scraping_campaign() from public;
revoke execute on function internal.prepare_scraping_lead() from public;
revoke execute on function internal.validate_scraping_campaign() from public;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.delete_scraping_campaign(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_campaign_id uuid;
  v_dm_campaign_name text;
begin
  select s.id into v_campaign_id from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if v_campaign_id is null then
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  -- A launched DM campaign keeps its lead source (the data model refuses to change it).
  select c.name into v_dm_campaign_name from public.campaigns c
   where c.scraping_campaign_id = v_campaign_id and c.status <> 'draft'
   order by c.created_at limit 1;
  if v_dm_campaign_name is not null then
    raise exception 'This scraping campaign is the lead source of the DM campaign "%": delete that campaign first',
      v_dm_campaign_name using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[v_campaign_id], true);
  delete from public.scraping_campaigns s where s.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$$;
comment on function public.delete_scraping_campaign(uuid) is
  'Deletes one of the caller''s scraping campaigns (its leads and lead list go with it) and removes its waiting jobs; refused while a launched DM campaign uses it as its lead source.';
revoke execute on function public.delete_scraping_campaign(uuid) from public, anon;

create or replace function public.pause_scraping_campaign(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if campaign.id is null then
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status = 'running' then
    update public.scraping_campaigns s set status = 'paused' where s.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running scraping campaign can be paused (this one is %)', campaign.status
      using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$$;
comment on function public.pause_scraping_campaign(uuid) is
  'Pauses one of the caller''s scraping campaigns and cancels its waiting scrape.run jobs in the same transaction.';
revoke execute on function public.pause_scraping_campaign(uuid) from public, anon;

create or replace function public.scraping_campaign_stats(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
  tz text;
  totals record;
  sources jsonb;
  per_day jsonb;
  recent jsonb;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'));
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  select p.timezone into tz from public.user_profiles p where p.id = campaign.user_id;
  tz := coalesce(tz, 'UTC');

  select count(*) as collected,
         count(*) filter (where not l.is_filtered) as valid,
         count(*) filter (where not l.is_filtered and coalesce(l.profile_data ->> 'bio', '') <> '') as valid_with_bio,
         min(l.collected_at) as first_at,
         max(l.collected_at) as last_at
    into totals
    from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id;

  select coalesce(jsonb_agg(jsonb_build_object('type', x.source_type, 'value', x.source_value, 'count', x.n,
           'percentage', round(x.n * 100.0 / nullif(totals.collected, 0), 1)) order by x.n desc), '[]'::jsonb)
    into sources
    from (select l.source_type, l.source_value, count(*) as n
            from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           group by 1, 2) x;

  select coalesce(jsonb_agg(jsonb_build_object('date', x.day, 'collected', x.collected, 'valid', x.valid) order by x.day), '[]'::jsonb)
    into per_day
    from (select pg_catalog.timezone(tz, l.collected_at)::date as day, count(*) as collected,
                 count(*) filter (where not l.is_filtered) as valid
            from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           group by 1) x;

  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'username', x.username, 'sourceType', x.source_type,
           'sourceValue', x.source_value, 'isFiltered', x.is_filtered, 'filterReason', x.filter_reason,
           'collectedAt', x.collected_at) order by x.collected_at desc), '[]'::jsonb)
    into recent
    from (select l.* from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           order by l.collected_at desc limit 10) x;

  return jsonb_build_object(
    'scrapingCampaignId', campaign.id,
    'status', campaign.status,
    'targetCount', campaign.target_count,
    'collected', totals.collected,
    'valid', totals.valid,
    'filtered', totals.collected - totals.valid,
    'successRate', case when totals.collected = 0 then 0 else round(totals.valid * 100.0 / totals.collected, 1) end,
    'collectionRate', round(least(totals.valid, campaign.target_count) * 100.0 / campaign.target_count, 1),
    'qualityScore', case when totals.valid = 0 then 0 else round(totals.valid_with_bio * 100.0 / totals.valid, 1) end,
    'averagePerHour', case when totals.collected = 0 then 0
      else round(totals.collected / greatest(extract(epoch from totals.last_at - totals.first_at) / 3600.0, 1), 1) end,
    'firstCollectedAt', totals.first_at,
    'lastCollectedAt', totals.last_at,
    'sources', sources,
    'perDay', per_day,
    'recent', recent);
end
$$;
comment on function public.scraping_campaign_stats(uuid) is
  'Scraping campaign analytics: collected, valid, filtered, successRate (valid / collected %), collectionRate (valid / target %), qualityScore (% of valid leads with a bio), averagePerHour (collected per hour between first and last collection, at least one hour), sources with count and % of collected, per-day counts, the 10 most recent collections.';
revoke execute on function public.scraping_campaign_stats(uuid) from public, anon;

create or replace function public.scraping_collection_per_hour(p_scraping_campaign_id uuid, p_hours integer default 48)
returns table(hour timestamp with time zone, collected bigint, valid bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
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
       and l.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and l.collected_at >= c.hour and l.collected_at < c.hour + interval '1 hour'
     group by c.hour
     order by c.hour;
end
$$;
comment on function public.scraping_collection_per_hour(uuid, integer) is
  'Leads the caller''s scraping campaign collected per hour (all and valid) over the last p_hours hours (1-336), for the analytics chart.';
revoke execute on function public.scraping_collection_per_hour(uuid, integer) from public, anon;

create or replace function public.start_scraping_campaign(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
  account_ready boolean;
  job_id uuid;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if campaign.id is null then
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status = 'completed' then
    raise exception 'This scraping campaign has already completed' using errcode = 'PT409';
  end if;
  if campaign.account_id is null then
    raise exception 'This scraping campaign''s account was removed: create a new campaign with another account'
      using errcode = 'PT409';
  end if;
  if campaign.status in ('pending', 'paused') then
    update public.scraping_campaigns s set status = 'running' where s.id = campaign.id returning * into campaign;
  end if;
  -- The first run starts now rather than at the next scheduler minute; an account still being tested
  -- is left to the scheduler, which queues runs only for active accounts.
  select a.status = 'active' into account_ready from public.social_accounts a where a.id = campaign.account_id;
  if account_ready then
    job_id := internal.enqueue_job('scrape.run', jsonb_build_object('scrapingCampaignId', campaign.id),
                                   'scraping:' || campaign.id);
    if job_id is not null then
      update public.scraping_campaigns s set next_run_at = internal.now() + interval '30 minutes'
       where s.id = campaign.id returning * into campaign;
    end if;
  end if;
  return to_jsonb(campaign) || jsonb_build_object('run_job_id', job_id);
end
$$;
comment on function public.start_scraping_campaign(uuid) is
  'Starts (or resumes) one of the caller''s scraping campaigns and queues its first scrape.run job at once when its account is active.';
revoke execute on function public.start_scraping_campaign(uuid) from public, anon;
