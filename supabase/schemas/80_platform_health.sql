-- Platform health: versioned platform packs, site-change incidents, fleet-wide pauses of a platform
-- action and the canary that checks a platform before it resumes.

-- Tables ------------------------------------------------------------------------------------------

create table public.platform_packs (
  id uuid not null default gen_random_uuid(),
  platform text not null,
  version text not null,
  facts jsonb not null,
  source text not null,
  created_by uuid,
  created_at timestamp with time zone not null default now(),
  registered_at timestamp with time zone,
  constraint platform_packs_pkey primary key (id),
  constraint platform_packs_check check (((source = 'code'::text) = (registered_at is not null))),
  constraint platform_packs_facts_check check ((jsonb_typeof(facts) = 'object'::text)),
  constraint platform_packs_source_check check ((source = any (array['code'::text, 'operator'::text]))),
  constraint platform_packs_version_check check (((char_length(version) >= 1) and (char_length(version) <= 100))),
  constraint platform_packs_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null,
  constraint platform_packs_platform_fkey foreign key (platform) references public.platforms(name) on update cascade
);
comment on table public.platform_packs is
  'Versioned platform facts: code defaults registered by runners, and operator packs (tried on the canary, maybe published).';
comment on column public.platform_packs.facts is
  'The facts object the adapters read (its "version" is the version column). Operator packs have exactly the code default''s shape.';
comment on column public.platform_packs.source is
  'code: a runner''s built-in default; operator: written in the admin tab.';

create table public.platform_pack_publications (
  id bigint generated always as identity not null,
  platform text not null,
  pack_id uuid,
  kind text not null,
  published_by uuid,
  published_at timestamp with time zone not null default now(),
  previous_publication_id bigint,
  unchecked_steps text[],
  constraint platform_pack_publications_pkey primary key (id),
  constraint platform_pack_publications_check check (((kind = 'rollback'::text) or (pack_id is not null))),
  constraint platform_pack_publications_kind_check check ((kind = any (array['publish'::text, 'rollback'::text]))),
  constraint platform_pack_publications_pack_id_fkey foreign key (pack_id) references public.platform_packs(id),
  constraint platform_pack_publications_platform_fkey foreign key (platform) references public.platforms(name) on update cascade,
  constraint platform_pack_publications_previous_publication_id_fkey foreign key (previous_publication_id) references public.platform_pack_publications(id),
  constraint platform_pack_publications_published_by_fkey foreign key (published_by) references auth.users(id) on delete set null
);
comment on table public.platform_pack_publications is
  'Which pack each platform runs, newest row wins (no row, or pack_id null: the code default). Rollbacks are rows too.';
comment on column public.platform_pack_publications.unchecked_steps is
  'Steps the pack''s canary try skipped (nothing to check) that the publishing operator confirmed by name; null when every step ran.';

create table public.platform_incidents (
  id uuid not null default gen_random_uuid(),
  platform text not null,
  action text not null,
  step text not null,
  path text not null default ''::text,
  status text not null default 'open'::text,
  sightings integer not null default 1,
  first_seen_at timestamp with time zone not null default now(),
  last_seen_at timestamp with time zone not null default now(),
  source text not null,
  pack_version text,
  auto_resume boolean not null default true,
  outline_object text,
  resolved_at timestamp with time zone,
  resolution text,
  resolved_by uuid,
  paused_at timestamp with time zone,
  evidence jsonb,
  constraint platform_incidents_pkey primary key (id),
  constraint platform_incidents_action_check check ((action = any (array['send'::text, 'inbox'::text, 'scrape'::text, 'session'::text]))),
  constraint platform_incidents_check check (((status = 'resolved'::text) = ((resolved_at is not null) and (resolution is not null)))),
  constraint platform_incidents_evidence_check check (((paused_at is null) = (evidence is null))),
  constraint platform_incidents_pack_version_check check ((char_length(pack_version) <= 100)),
  constraint platform_incidents_path_check check ((char_length(path) <= 500)),
  constraint platform_incidents_resolution_check check ((resolution = any (array['canary'::text, 'operator'::text]))),
  constraint platform_incidents_sightings_check check ((sightings >= 1)),
  constraint platform_incidents_source_check check ((source = any (array['job'::text, 'canary'::text]))),
  constraint platform_incidents_status_check check ((status = any (array['open'::text, 'resolved'::text]))),
  constraint platform_incidents_step_check check (((char_length(step) >= 1) and (char_length(step) <= 200))),
  constraint platform_incidents_platform_fkey foreign key (platform) references public.platforms(name) on update cascade,
  constraint platform_incidents_resolved_by_fkey foreign key (resolved_by) references auth.users(id) on delete set null
);
comment on table public.platform_incidents is
  'Site changes: a page of X or Instagram that was not what the adapter expected. One open row per platform, action and step; sightings count repeats. Open and not paused: a suspicion, only the accounts that met it wait.';
comment on column public.platform_incidents.path is
  'The URL path the page was on, digit runs replaced by # (thread and user ids).';
comment on column public.platform_incidents.auto_resume is
  'Whether a passing canary run resolves it. False when it came back within an hour of the canary resolving the same step.';
comment on column public.platform_incidents.outline_object is
  'The redacted outline (tags, test ids, roles; no text) in the private storage bucket site-change-outlines, once filed.';
comment on column public.platform_incidents.paused_at is
  'When the evidence sufficed to pause the action fleet-wide (two accounts, or the canary after a job, within 30 minutes); null while only suspected.';
comment on column public.platform_incidents.evidence is
  'What paused it: {reason accounts|canary|single (paused on one sighting, before evidence was required), windowMinutes, sightings [{source, accountId, username, canaryRunId, path, seenAt}]}.';

alter table public.dm_logs add constraint dm_logs_incident_id_fkey foreign key (incident_id) references public.platform_incidents(id) on delete set null;

create table public.platform_incident_outlines (
  incident_id uuid not null,
  captured_at timestamp with time zone not null default now(),
  path text not null default ''::text,
  outline jsonb not null,
  constraint platform_incident_outlines_pkey primary key (incident_id),
  constraint platform_incident_outlines_outline_check check ((jsonb_typeof(outline) = 'object'::text)),
  constraint platform_incident_outlines_incident_id_fkey foreign key (incident_id) references public.platform_incidents(id) on delete cascade
);
comment on table public.platform_incident_outlines is
  'The newest page outline of an incident, waiting to be filed in storage by the admin function.';

create table public.platform_action_pauses (
  platform text not null,
  action text not null,
  incident_id uuid,
  paused_at timestamp with time zone not null default now(),
  constraint platform_action_pauses_pkey primary key (platform, action),
  constraint platform_action_pauses_action_check check ((action = any (array['send'::text, 'inbox'::text, 'scrape'::text, 'session'::text]))),
  constraint platform_action_pauses_incident_id_fkey foreign key (incident_id) references public.platform_incidents(id) on delete set null,
  constraint platform_action_pauses_platform_fkey foreign key (platform) references public.platforms(name) on update cascade
);
comment on table public.platform_action_pauses is
  'Platform actions paused fleet-wide after a site change (session = everything on the platform). A row exists while paused.';

create table public.platform_canary_accounts (
  account_id uuid not null,
  platform text not null,
  thread_id text,
  added_by uuid,
  added_at timestamp with time zone not null default now(),
  last_run_at timestamp with time zone,
  constraint platform_canary_accounts_pkey primary key (account_id),
  constraint platform_canary_accounts_thread_id_check check ((thread_id ~ '^[A-Za-z0-9_:-]{1,200}$'::text)),
  constraint platform_canary_accounts_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint platform_canary_accounts_added_by_fkey foreign key (added_by) references auth.users(id) on delete set null,
  constraint platform_canary_accounts_platform_fkey foreign key (platform) references public.platforms(name) on update cascade
);
comment on table public.platform_canary_accounts is
  'Accounts the canary signs in with, chosen by operators; used in turn, one per run.';

create table public.platform_canary_settings (
  platform text not null,
  profile_username text,
  search_query text not null default 'marketing'::text,
  every_minutes integer not null default 5,
  updated_by uuid,
  updated_at timestamp with time zone not null default now(),
  constraint platform_canary_settings_pkey primary key (platform),
  constraint platform_canary_settings_every_minutes_check check (((every_minutes >= 1) and (every_minutes <= 60))),
  constraint platform_canary_settings_profile_username_check check ((profile_username ~ '^[A-Za-z0-9_.]{1,30}$'::text)),
  constraint platform_canary_settings_search_query_check check (((char_length(btrim(search_query)) >= 1) and (char_length(btrim(search_query)) <= 100))),
  constraint platform_canary_settings_platform_fkey foreign key (platform) references public.platforms(name) on update cascade,
  constraint platform_canary_settings_updated_by_fkey foreign key (updated_by) references auth.users(id) on delete set null
);
comment on table public.platform_canary_settings is
  'Per platform: the profile and the search the canary opens, and how often it runs (every minute while something is paused).';

create table public.platform_canary_runs (
  id uuid not null default gen_random_uuid(),
  platform text not null,
  account_id uuid,
  account_username text,
  trigger text not null,
  pack_id uuid,
  pack_version text,
  status text not null default 'queued'::text,
  steps jsonb not null default '[]'::jsonb,
  error text,
  requested_by uuid,
  created_at timestamp with time zone not null default now(),
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  duration_ms integer,
  constraint platform_canary_runs_pkey primary key (id),
  constraint platform_canary_runs_duration_ms_check check ((duration_ms >= 0)),
  constraint platform_canary_runs_error_check check ((char_length(error) <= 2000)),
  constraint platform_canary_runs_pack_version_check check ((char_length(pack_version) <= 100)),
  constraint platform_canary_runs_status_check check ((status = any (array['queued'::text, 'running'::text, 'passed'::text, 'failed'::text, 'error'::text]))),
  constraint platform_canary_runs_steps_check check ((jsonb_typeof(steps) = 'array'::text)),
  constraint platform_canary_runs_trigger_check check ((trigger = any (array['schedule'::text, 'try'::text, 'publish'::text, 'manual'::text, 'confirm'::text]))),
  constraint platform_canary_runs_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete set null,
  constraint platform_canary_runs_pack_id_fkey foreign key (pack_id) references public.platform_packs(id) on delete set null,
  constraint platform_canary_runs_platform_fkey foreign key (platform) references public.platforms(name) on update cascade,
  constraint platform_canary_runs_requested_by_fkey foreign key (requested_by) references auth.users(id) on delete set null
);
comment on table public.platform_canary_runs is
  'Canary runs (30 days): per step {step, status passed|failed|skipped, ms, kind, message}; passed only when no step failed.';
comment on column public.platform_canary_runs.trigger is
  'schedule, try (a draft pack), publish (the check after a publication), manual (Run now), confirm (a job met a changed page: does the canary meet it too?).';
comment on column public.platform_canary_runs.status is
  'passed, failed (a step failed), or error (the canary could not run: no usable account, a sign-in problem of the account itself).';

create table public.platform_incident_sightings (
  id bigint generated always as identity not null,
  incident_id uuid not null,
  source text not null,
  account_id uuid,
  account_username text,
  canary_run_id uuid,
  path text not null default ''::text,
  seen_at timestamp with time zone not null,
  constraint platform_incident_sightings_pkey primary key (id),
  constraint platform_incident_sightings_source_check check ((source = any (array['job'::text, 'canary'::text]))),
  constraint platform_incident_sightings_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete set null,
  constraint platform_incident_sightings_canary_run_id_fkey foreign key (canary_run_id) references public.platform_canary_runs(id) on delete set null,
  constraint platform_incident_sightings_incident_id_fkey foreign key (incident_id) references public.platform_incidents(id) on delete cascade
);
comment on table public.platform_incident_sightings is
  'Each time an account (a job''s or the canary''s) met an incident''s page: the evidence that decides whether the action pauses fleet-wide.';
comment on column public.platform_incident_sightings.account_username is
  'The account''s username when it met the page, kept for the evidence after the account is gone.';

-- Indexes -----------------------------------------------------------------------------------------

create unique index platform_packs_code_version_key on public.platform_packs (platform, version) where (source = 'code'::text);
create index platform_packs_platform_created_at_idx on public.platform_packs (platform, created_at desc);

create index platform_pack_publications_pack_id_idx on public.platform_pack_publications (pack_id);
create index platform_pack_publications_platform_id_idx on public.platform_pack_publications (platform, id desc);
create index platform_pack_publications_previous_idx on public.platform_pack_publications (previous_publication_id);

create index platform_incidents_last_seen_at_idx on public.platform_incidents (last_seen_at desc);
create unique index platform_incidents_open_key on public.platform_incidents (platform, action, step) where (status = 'open'::text);
create index platform_incidents_resolved_by_idx on public.platform_incidents (resolved_by) where (resolved_by is not null);

create index platform_action_pauses_incident_id_idx on public.platform_action_pauses (incident_id);

create index platform_canary_accounts_added_by_idx on public.platform_canary_accounts (added_by);
create index platform_canary_accounts_platform_idx on public.platform_canary_accounts (platform, last_run_at nulls first);

create index platform_canary_runs_account_id_idx on public.platform_canary_runs (account_id);
create index platform_canary_runs_pack_id_idx on public.platform_canary_runs (pack_id) where (pack_id is not null);
create index platform_canary_runs_platform_created_at_idx on public.platform_canary_runs (platform, created_at desc);
create index platform_canary_runs_requested_by_idx on public.platform_canary_runs (requested_by) where (requested_by is not null);
create index platform_canary_runs_unfinished_idx on public.platform_canary_runs (platform) where (status = any (array['queued'::text, 'running'::text]));

create index platform_incident_sightings_account_id_idx on public.platform_incident_sightings (account_id) where (account_id is not null);
create index platform_incident_sightings_canary_run_id_idx on public.platform_incident_sightings (canary_run_id) where (canary_run_id is not null);
create index platform_incident_sightings_incident_id_seen_at_idx on public.platform_incident_sightings (incident_id, seen_at desc);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.fill_canary_account_platform()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select p.name into new.platform
    from public.social_accounts a join public.platforms p on p.id = a.platform_id where a.id = new.account_id;
  return new;
end
$$;
comment on function internal.fill_canary_account_platform() is
  'BEFORE INSERT/UPDATE on platform_canary_accounts: the platform is the account''s.';

create trigger platform_canary_accounts_fill_platform before insert or update of account_id on public.platform_canary_accounts for each row execute function internal.fill_canary_account_platform();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.code_pack(p_platform text)
returns table(pack_id uuid, version text, facts jsonb, registered_at timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  select p.id, p.version, p.facts, p.registered_at
    from public.platform_packs p
   where p.platform = p_platform and p.source = 'code'
   order by p.registered_at desc
   limit 1
$$;
comment on function internal.code_pack(text) is
  'The code default a runner registered last for the platform: the reference operator packs are validated against.';

create or replace function internal.finish_canary_run(p_run_id uuid, p_status text, p_steps jsonb, p_pack_version text, p_error text, p_duration_ms integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  run record;
  resolved jsonb := null;
begin
  if p_status not in ('passed', 'failed', 'error') then
    raise exception 'A canary run ends passed, failed or error, not %', p_status using errcode = '22023';
  end if;
  update public.platform_canary_runs r
     set status = p_status, steps = coalesce(p_steps, '[]'::jsonb), pack_version = left(p_pack_version, 100),
         error = left(p_error, 2000), finished_at = internal.now(), duration_ms = greatest(0, p_duration_ms)
   where r.id = p_run_id and r.status in ('queued', 'running')
  returning r.platform, r.trigger into run;
  if run.platform is null then
    return null;
  end if;
  -- A pass with the platform's own pack (not a draft under test) means the site works again; the
  -- check of a pack just published (an operator's fix) resolves even a change that came back.
  if p_status = 'passed' and run.trigger <> 'try' then
    resolved := internal.resolve_site_changes(run.platform, null, 'canary', null, run.trigger = 'publish');
  end if;
  return jsonb_build_object('status', p_status, 'resolved', resolved);
end
$$;
comment on function internal.finish_canary_run(uuid, text, jsonb, text, text, integer) is
  'The runner records a canary run''s outcome; a pass of the platform''s own pack resolves its incidents and resumes what they paused.';

create or replace function internal.notify_platform_customers(p_platform text, p_action text, p_resumed boolean)
returns integer
language sql
security definer
set search_path = ''
as $$
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
$$;
comment on function internal.notify_platform_customers(text, text, boolean) is
  'Tells every workspace with an account on the platform that an action paused (or resumed).';

create or replace function internal.platform_action_held(p_platform text, p_action text, p_account_id uuid)
returns boolean
language sql
stable security definer
set search_path = ''
as $$
  -- The account met a page no other account (nor the canary) has confirmed yet: its own work of
  -- that action waits while the evidence is fresh; every other account goes on.
  select exists (select 1 from public.platform_incidents i
                   join public.platform_incident_sightings s on s.incident_id = i.id
                  where i.platform = p_platform and i.action in (p_action, 'session') and i.status = 'open'
                    and i.paused_at is null and s.account_id = p_account_id and s.source = 'job'
                    and s.seen_at > internal.now() - make_interval(mins => internal.site_change_window_minutes()))
$$;
comment on function internal.platform_action_held(text, text, uuid) is
  'True while the account''s own sighting of an unconfirmed site change of that action (or its session) is within the window.';

create or replace function internal.platform_action_notice(p_platform text, p_action text, p_resumed boolean)
returns table(title text, message text)
language sql
immutable
set search_path = ''
as $$
  -- What customers read, on the dashboard and in their notifications: what is paused, that it is
  -- not their account, that nothing was lost and what happens when it resumes.
  with l as (select internal.platform_label(p_platform) as name)
  select
    case when p_resumed then
      case p_action
        when 'send' then format('Sending on %s has resumed', l.name)
        when 'inbox' then format('Reading replies on %s has resumed', l.name)
        when 'scrape' then format('Lead scraping on %s has resumed', l.name)
        else format('Work on %s has resumed', l.name) end
    else
      case p_action
        when 'send' then format('Sending on %s is paused', l.name)
        when 'inbox' then format('Reading replies on %s is paused', l.name)
        when 'scrape' then format('Lead scraping on %s is paused', l.name)
        else format('Work on %s is paused', l.name) end
    end,
    case when p_resumed then
      case p_action
        when 'send' then format('%s works with Reachflow again. DMs that came due during the pause are being sent now, at the normal pace.', l.name)
        when 'inbox' then format('%s works with Reachflow again. Replies that arrived during the pause are being read now.', l.name)
        when 'scrape' then format('%s works with Reachflow again. Lead scraping continues where it stopped.', l.name)
        else format('%s works with Reachflow again. Sending, replies and scraping continue where they stopped, at the normal pace.', l.name) end
    else
      format('%s changed its site and we are adapting Reachflow to it. This is not about your account and you don''t need to do anything. Nothing was lost: ', l.name)
      || case p_action
        when 'send' then 'DMs that come due in the meantime will be sent once sending resumes, at the normal pace.'
        when 'inbox' then 'replies that arrive in the meantime will be read once it resumes.'
        when 'scrape' then 'lead scraping continues where it stopped once it resumes.'
        else 'sending, replies and scraping continue where they stopped once it resumes, at the normal pace.' end
    end
    from l
$$;
comment on function internal.platform_action_notice(text, text, boolean) is
  'The customer-facing title and message of a paused (or resumed) platform action.';

create or replace function internal.platform_action_paused(p_platform text, p_action text)
returns boolean
language sql
stable security definer
set search_path = ''
as $$
  -- A paused session pauses every action of the platform.
  select exists (select 1 from public.platform_action_pauses pa
                  where pa.platform = p_platform and pa.action in (p_action, 'session'))
$$;
comment on function internal.platform_action_paused(text, text) is
  'True while the platform action (or the platform''s whole session) is paused after a site change.';

create or replace function internal.platform_label(p_platform text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_platform when 'twitter' then 'X' when 'instagram' then 'Instagram' else initcap(p_platform) end
$$;
comment on function internal.platform_label(text) is 'The platform as customers know it (twitter → X).';

create or replace function internal.published_pack(p_platform text)
returns table(publication_id bigint, pack_id uuid, version text, facts jsonb, kind text, published_at timestamp with time zone, published_by uuid)
language sql
stable security definer
set search_path = ''
as $$
  -- The newest publication of the platform; pack_id null means "the code default".
  select pub.id, pub.pack_id, p.version, p.facts, pub.kind, pub.published_at, pub.published_by
    from public.platform_pack_publications pub
    left join public.platform_packs p on p.id = pub.pack_id
   where pub.platform = p_platform
   order by pub.id desc
   limit 1
$$;
comment on function internal.published_pack(text) is
  'The platform''s newest publication (pack null = code default); no row when nothing was ever published.';

create or replace function internal.queue_canary_run(p_platform text, p_trigger text, p_pack_id uuid, p_by uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  chosen record;
  run uuid;
begin
  -- The chosen account that waited longest and can sign in now.
  select c.account_id, a.username into chosen
    from public.platform_canary_accounts c join public.social_accounts a on a.id = c.account_id
   where c.platform = p_platform and a.status = 'active'
   order by c.last_run_at nulls first, c.added_at, c.account_id
   limit 1
   for update of c skip locked;
  if chosen.account_id is null then
    return null;
  end if;
  insert into public.platform_canary_runs (platform, account_id, account_username, trigger, pack_id, requested_by, created_at)
  values (p_platform, chosen.account_id, chosen.username, p_trigger, p_pack_id, p_by, internal.now())
  returning id into run;
  update public.platform_canary_accounts set last_run_at = internal.now() where account_id = chosen.account_id;
  perform internal.enqueue_job('platform.canary', jsonb_build_object('runId', run), 'canary-run:' || run);
  return run;
end
$$;
comment on function internal.queue_canary_run(text, text, uuid, uuid) is
  'Queues one canary run of the platform on its next canary account; null when it has no active one.';

create or replace function internal.record_site_change(p_platform text, p_action text, p_step text, p_path text, p_outline jsonb, p_source text, p_pack_version text, p_account_id uuid, p_canary_run_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  incident record;
  redacted_path text := regexp_replace(left(coalesce(p_path, ''), 500), '[0-9]+', '#', 'g');
  since timestamp with time zone := internal.now() - make_interval(mins => internal.site_change_window_minutes());
  witnesses integer;
  canary_saw boolean;
  found_evidence jsonb;
  paused integer;
  -- The account as it is now (none when it was deleted while its job ran).
  witness record;
begin
  select a.id, a.username into witness from public.social_accounts a where a.id = p_account_id;
  if p_action not in ('send', 'inbox', 'scrape', 'session') then
    raise exception 'Unknown platform action %', p_action using errcode = '22023';
  end if;
  -- One open incident per platform, action and step: a repeat is one more sighting.
  insert into public.platform_incidents as i (platform, action, step, path, source, pack_version)
  values (p_platform, p_action, left(p_step, 200), redacted_path, p_source, left(p_pack_version, 100))
  on conflict (platform, action, step) where status = 'open'
  do update set sightings = i.sightings + 1, last_seen_at = now(), path = excluded.path,
                pack_version = coalesce(excluded.pack_version, i.pack_version)
  returning i.id, i.paused_at, (xmax = 0) as fresh into incident;

  insert into public.platform_incident_sightings (incident_id, source, account_id, account_username, canary_run_id, path, seen_at)
  values (incident.id, p_source, witness.id, witness.username, p_canary_run_id, redacted_path, internal.now());

  insert into public.platform_incident_outlines (incident_id, captured_at, path, outline)
  values (incident.id, now(), redacted_path, coalesce(p_outline, '{}'::jsonb))
  on conflict (incident_id) do update set captured_at = excluded.captured_at, path = excluded.path, outline = excluded.outline;

  if incident.paused_at is not null then
    return incident.id;
  end if;

  -- Is it the site? One account's odd page (a lead, a moment) is not: it takes a second account,
  -- or the canary, meeting the same step within the window. A job's account and the canary count
  -- as two witnesses even when the canary signs in with that same account.
  select count(distinct case when s.source = 'canary' then 'canary' else s.account_id::text end),
         bool_or(s.source = 'canary')
    into witnesses, canary_saw
    from public.platform_incident_sightings s
   where s.incident_id = incident.id and s.seen_at > since
     and (s.source = 'canary' or s.account_id is not null);

  if witnesses < 2 then
    if p_source = 'job' then
      insert into public.system_logs (level, service, message, metadata)
      values ('warn', p_platform,
              format('%s showed an unexpected page at "%s" (%s) to @%s: only that account''s %s waits while the canary checks',
                     internal.platform_label(p_platform), left(p_step, 200), redacted_path, coalesce(witness.username, 'an account'), p_action),
              jsonb_build_object('incidentId', incident.id, 'platform', p_platform, 'action', p_action, 'source', p_source,
                                 'accountId', witness.id));
      -- Check at once on the canary's own account, unless a run is already on its way.
      if not exists (select 1 from public.platform_canary_runs r
                      where r.platform = p_platform and r.status in ('queued', 'running') and r.trigger <> 'try') then
        perform internal.queue_canary_run(p_platform, 'confirm', null, null);
      end if;
    end if;
    return incident.id;
  end if;

  select jsonb_build_object(
           'reason', case when canary_saw then 'canary' else 'accounts' end,
           'windowMinutes', internal.site_change_window_minutes(),
           'sightings', jsonb_agg(jsonb_build_object('source', w.source, 'accountId', w.account_id, 'username', w.account_username,
                                                     'canaryRunId', w.canary_run_id, 'path', w.path, 'seenAt', w.seen_at)
                                  order by w.seen_at, w.id))
    into found_evidence
    from (select distinct on (case when s.source = 'canary' then 'canary' else s.account_id::text end) s.*
            from public.platform_incident_sightings s
           where s.incident_id = incident.id and s.seen_at > since
             and (s.source = 'canary' or s.account_id is not null)
           order by case when s.source = 'canary' then 'canary' else s.account_id::text end, s.seen_at desc, s.id desc) w;

  -- Back within the hour after the canary resolved the same step's pause: it flaps, an operator decides.
  update public.platform_incidents i
     set paused_at = now(), evidence = found_evidence,
         auto_resume = not exists (
           select 1 from public.platform_incidents r
            where r.platform = p_platform and r.action = p_action and r.step = left(p_step, 200) and r.paused_at is not null
              and r.status = 'resolved' and r.resolution = 'canary' and r.resolved_at > now() - interval '1 hour')
   where i.id = incident.id;
  insert into public.system_logs (level, service, message, metadata)
  values ('error', p_platform,
          format('%s changed its page at "%s" (%s): %s paused on every account, %s', internal.platform_label(p_platform),
                 left(p_step, 200), redacted_path, p_action,
                 case when canary_saw then 'the canary met it too'
                      else 'met by ' || (select string_agg('@' || coalesce(e ->> 'username', '?'), ' and ' order by e ->> 'seenAt')
                                           from jsonb_array_elements(found_evidence -> 'sightings') e)
                           || format(' within %s minutes', internal.site_change_window_minutes()) end),
          jsonb_build_object('incidentId', incident.id, 'platform', p_platform, 'action', p_action, 'source', p_source,
                             'evidence', found_evidence));

  insert into public.platform_action_pauses (platform, action, incident_id)
  values (p_platform, p_action, incident.id)
  on conflict (platform, action) do nothing;
  get diagnostics paused = row_count;
  if paused > 0 then
    perform internal.notify_platform_customers(p_platform, p_action, false);
  end if;
  return incident.id;
end
$$;
comment on function internal.record_site_change(text, text, text, text, jsonb, text, text, uuid, uuid) is
  'The runner met a changed page: counts the sighting and keeps the outline; on evidence that it is the site (a second account or the canary within the window) pauses the action fleet-wide with that evidence and tells customers (once per pause), else queues a canary check.';

create or replace function internal.register_code_pack(p_platform text, p_version text, p_facts jsonb)
returns uuid
language sql
security definer
set search_path = ''
as $$
  -- A runner's default: one row per version (a later start with the same version refreshes it).
  insert into public.platform_packs as p (platform, version, facts, source, registered_at)
  values (p_platform, p_version, p_facts, 'code', now())
  on conflict (platform, version) where source = 'code'
  do update set facts = excluded.facts, registered_at = excluded.registered_at
  returning p.id
$$;
comment on function internal.register_code_pack(text, text, jsonb) is
  'Run by each runner at start: records its built-in facts for a platform (admin view, validation reference).';

create or replace function internal.resolve_site_changes(p_platform text, p_action text, p_resolution text, p_by uuid, p_published boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  resolved integer;
  lifted text[];
  action text;
begin
  -- The canary resolves what it may (auto_resume), everything once it passed with a pack an
  -- operator just published (the fix); an operator resolves the action's incidents. The canary
  -- never sends: its pass clears no suspicion about sending (that account waits out the window).
  update public.platform_incidents i
     set status = 'resolved', resolved_at = now(), resolution = p_resolution, resolved_by = p_by
   where i.platform = p_platform and i.status = 'open'
     and (p_action is null or i.action = p_action)
     and (p_resolution = 'operator' or p_published
          or (i.auto_resume and (i.paused_at is not null or i.action <> 'send')));
  get diagnostics resolved = row_count;

  -- A pause lifts once no open incident of its action is left (an operator lifts the one named).
  with gone as (
    delete from public.platform_action_pauses pa
     where pa.platform = p_platform and (p_action is null or pa.action = p_action)
       and (p_resolution = 'operator'
            or not exists (select 1 from public.platform_incidents i
                            where i.platform = pa.platform and i.action = pa.action and i.status = 'open'))
    returning pa.action
  )
  select coalesce(array_agg(g.action order by g.action), '{}') into lifted from gone g;

  foreach action in array lifted loop
    perform internal.notify_platform_customers(p_platform, action, true);
  end loop;
  -- Account tests that waited for the platform's sign-in run now.
  if 'session' = any (lifted) then
    perform internal.enqueue_job('account.test', jsonb_build_object('accountId', a.id), 'account:' || a.id)
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      where p.name = p_platform and a.status = 'testing';
  end if;
  if resolved > 0 or cardinality(lifted) > 0 then
    insert into public.system_logs (level, service, message, metadata)
    values ('info', p_platform,
            format('%s: %s resumed %s', internal.platform_label(p_platform),
                   case when cardinality(lifted) = 0 then 'nothing' else array_to_string(lifted, ', ') end,
                   case p_resolution when 'canary' then 'after the canary passed' else 'by an operator' end),
            jsonb_build_object('platform', p_platform, 'resolved', resolved, 'resumed', to_jsonb(lifted),
                               'resolution', p_resolution));
  end if;
  return jsonb_build_object('resolved', resolved, 'resumed', to_jsonb(lifted));
end
$$;
comment on function internal.resolve_site_changes(text, text, text, uuid, boolean) is
  'Resolves a platform''s open incidents (all actions when p_action is null; the canary only auto_resume ones unless it checked a new publication) and lifts pauses left without one; customers are told.';

create or replace function internal.site_change_window_minutes()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 30
$$;
comment on function internal.site_change_window_minutes() is
  'How recent sightings must be to add up to evidence of a site change, and how long an account''s own odd page holds its work.';

create or replace function internal.start_canary_run(p_run_id uuid)
returns table(platform text, account_id uuid, trigger text, pack_id uuid, pack_facts jsonb, pack_version text, thread_id text, profile_username text, search_query text)
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- queued, or running when the job is retried after its runner died
  update public.platform_canary_runs r set status = 'running', started_at = internal.now()
   where r.id = p_run_id and r.status in ('queued', 'running');
  if not found then
    return;
  end if;
  return query
    select r.platform, r.account_id, r.trigger, r.pack_id, p.facts, p.version, c.thread_id, s.profile_username, s.search_query
      from public.platform_canary_runs r
      left join public.platform_packs p on p.id = r.pack_id
      left join public.platform_canary_accounts c on c.account_id = r.account_id
      left join public.platform_canary_settings s on s.platform = r.platform
     where r.id = p_run_id;
end
$$;
comment on function internal.start_canary_run(uuid) is
  'The runner takes a canary run: marks it running and returns what it needs (account, draft pack, thread, profile, search).';

-- Row-level security ------------------------------------------------------------------------------

alter table public.platform_packs enable row level security;

create policy "The runner reads platform packs" on public.platform_packs
  for select
  to reachflow_runner
  using (true);

alter table public.platform_pack_publications enable row level security;

create policy "The runner reads pack publications" on public.platform_pack_publications
  for select
  to reachflow_runner
  using (true);

alter table public.platform_incidents enable row level security;

alter table public.platform_incident_outlines enable row level security;

alter table public.platform_action_pauses enable row level security;

create policy "The runner reads platform action pauses" on public.platform_action_pauses
  for select
  to reachflow_runner
  using (true);

alter table public.platform_canary_accounts enable row level security;

alter table public.platform_canary_settings enable row level security;

alter table public.platform_canary_runs enable row level security;

alter table public.platform_incident_sightings enable row level security;

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.platform_packs from anon, authenticated;
grant select on public.platform_packs to reachflow_runner;

revoke all on public.platform_pack_publications from anon, authenticated;
grant select on public.platform_pack_publications to reachflow_runner;

revoke all on public.platform_incidents from anon, authenticated;
revoke all on public.platform_incident_outlines from anon, authenticated;

revoke all on public.platform_action_pauses from anon, authenticated;
grant select on public.platform_action_pauses to reachflow_runner;

revoke all on public.platform_canary_accounts from anon, authenticated;
revoke all on public.platform_canary_settings from anon, authenticated;
revoke all on public.platform_canary_runs from anon, authenticated;
revoke all on public.platform_incident_sightings from anon, authenticated;

revoke execute on function internal.code_pack(text) from public;
grant execute on function internal.code_pack(text) to reachflow_runner, service_role;

revoke execute on function internal.fill_canary_account_platform() from public;
grant execute on function internal.fill_canary_account_platform() to service_role;

revoke execute on function internal.finish_canary_run(uuid, text, jsonb, text, text, integer) from public;
grant execute on function internal.finish_canary_run(uuid, text, jsonb, text, text, integer) to reachflow_runner, service_role;

revoke execute on function internal.notify_platform_customers(text, text, boolean) from public;

revoke execute on function internal.platform_action_held(text, text, uuid) from public;
grant execute on function internal.platform_action_held(text, text, uuid) to reachflow_runner, service_role;

revoke execute on function internal.platform_action_notice(text, text, boolean) from public;
grant execute on function internal.platform_action_notice(text, text, boolean) to authenticated, service_role;

revoke execute on function internal.platform_action_paused(text, text) from public;
grant execute on function internal.platform_action_paused(text, text) to reachflow_runner, service_role;

revoke execute on function internal.platform_label(text) from public;
grant execute on function internal.platform_label(text) to authenticated, service_role;

revoke execute on function internal.published_pack(text) from public;
grant execute on function internal.published_pack(text) to reachflow_runner, service_role;

revoke execute on function internal.queue_canary_run(text, text, uuid, uuid) from public;
grant execute on function internal.queue_canary_run(text, text, uuid, uuid) to service_role;

revoke execute on function internal.record_site_change(text, text, text, text, jsonb, text, text, uuid, uuid) from public;
grant execute on function internal.record_site_change(text, text, text, text, jsonb, text, text, uuid, uuid) to reachflow_runner, service_role;

revoke execute on function internal.register_code_pack(text, text, jsonb) from public;
grant execute on function internal.register_code_pack(text, text, jsonb) to reachflow_runner, service_role;

revoke execute on function internal.resolve_site_changes(text, text, text, uuid, boolean) from public;
grant execute on function internal.resolve_site_changes(text, text, text, uuid, boolean) to service_role;

revoke execute on function internal.site_change_window_minutes() from public;
grant execute on function internal.site_change_window_minutes() to reachflow_runner, service_role;

revoke execute on function internal.start_canary_run(uuid) from public;
grant execute on function internal.start_canary_run(uuid) to reachflow_runner, service_role;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.admin_canary_accounts(p_platform text)
returns table(account_id uuid, username text, status text, user_email text, operator boolean, thread_id text, added_at timestamp with time zone, last_run_at timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  select c.account_id, a.username, a.status, u.email, coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
         c.thread_id, c.added_at, c.last_run_at
    from public.platform_canary_accounts c
    join public.social_accounts a on a.id = c.account_id
    join auth.users u on u.id = a.user_id
   where c.platform = p_platform
   order by c.added_at, c.account_id
$$;
comment on function public.admin_canary_accounts(text) is
  'The platform''s canary accounts with their owner and status.';
revoke execute on function public.admin_canary_accounts(text) from public, anon, authenticated;

create or replace function public.admin_canary_candidates(p_platform text, p_search text, p_limit integer)
returns table(account_id uuid, username text, status text, user_email text, operator boolean, chosen boolean)
language sql
stable security definer
set search_path = ''
as $$
  -- Active accounts on the platform, operators' own first; chosen ones are marked.
  select a.id, a.username, a.status, u.email, coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
         exists (select 1 from public.platform_canary_accounts c where c.account_id = a.id)
    from public.social_accounts a
    join public.platforms p on p.id = a.platform_id
    join auth.users u on u.id = a.user_id
   where p.name = p_platform and a.status = 'active'
     and (coalesce(p_search, '') = '' or a.username ilike '%' || p_search || '%' or u.email ilike '%' || p_search || '%')
   order by coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin' desc, a.username
   limit greatest(1, least(coalesce(p_limit, 20), 100))
$$;
comment on function public.admin_canary_candidates(text, text, integer) is
  'Accounts an operator may choose for the canary: active accounts on the platform (operators'' own first).';
revoke execute on function public.admin_canary_candidates(text, text, integer) from public, anon, authenticated;

create or replace function public.admin_canary_history(p_platform text, p_days integer)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  -- Per day (UTC) of the last p_days: runs passed, failed and in error, for the health strip.
  with days as (
    select d::date as day
      from generate_series((internal.now() - make_interval(days => greatest(1, least(p_days, 30)) - 1))::date,
                           internal.now()::date, interval '1 day') d
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'day', days.day,
           'passed', (select count(*) from public.platform_canary_runs r where r.platform = p_platform
                        and r.trigger <> 'try' and r.status = 'passed' and r.created_at::date = days.day),
           'failed', (select count(*) from public.platform_canary_runs r where r.platform = p_platform
                        and r.trigger <> 'try' and r.status = 'failed' and r.created_at::date = days.day),
           'errors', (select count(*) from public.platform_canary_runs r where r.platform = p_platform
                        and r.trigger <> 'try' and r.status = 'error' and r.created_at::date = days.day))
         order by days.day), '[]'::jsonb)
    from days
$$;
comment on function public.admin_canary_history(text, integer) is
  'Canary runs per UTC day (passed, failed, error) over the last days, drafts'' tries left out.';
revoke execute on function public.admin_canary_history(text, integer) from public, anon, authenticated;

create or replace function public.admin_platform_pack(p_platform text)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  -- The code default, what is published, what is in effect, where Roll back goes, the history.
  with code as (select * from internal.code_pack(p_platform)),
  pubs as (
    select pub.id, pub.pack_id, pub.kind, pub.published_at, pub.previous_publication_id, pub.unchecked_steps, u.email as published_by,
           p.version, p.facts, row_number() over (order by pub.id desc) as n
      from public.platform_pack_publications pub
      left join public.platform_packs p on p.id = pub.pack_id
      left join auth.users u on u.id = pub.published_by
     where pub.platform = p_platform
  ),
  cur as (select * from pubs where n = 1),
  prev as (select pubs.* from pubs join cur on pubs.id = cur.previous_publication_id)
  select jsonb_build_object(
    'platform', p_platform,
    'codeDefault', (select jsonb_build_object('packId', c.pack_id, 'version', c.version, 'facts', c.facts,
                                              'registeredAt', c.registered_at) from code c),
    'effective', coalesce(
      (select jsonb_build_object('source', 'operator', 'packId', cur.pack_id, 'version', cur.version, 'facts', cur.facts,
                                 'publishedAt', cur.published_at, 'publishedBy', cur.published_by, 'kind', cur.kind)
         from cur where cur.pack_id is not null),
      (select jsonb_build_object('source', 'code', 'packId', c.pack_id, 'version', c.version, 'facts', c.facts,
                                 'publishedAt', (select cur.published_at from cur), 'publishedBy', (select cur.published_by from cur),
                                 'kind', (select cur.kind from cur))
         from code c)),
    -- Roll back returns to what was in effect before the newest publication: an earlier one, or
    -- the code default; nothing when the code default is in effect and nothing came before it.
    'rollbackTo', case
      when exists (select 1 from prev) then (select jsonb_build_object('publicationId', prev.id, 'packId', prev.pack_id,
                                                      'source', case when prev.pack_id is null then 'code' else 'operator' end,
                                                      'version', coalesce(prev.version, (select c.version from code c)))
                                               from prev)
      when exists (select 1 from cur where cur.pack_id is not null)
        then jsonb_build_object('publicationId', null, 'packId', null, 'source', 'code',
                                'version', (select c.version from code c))
      else null end,
    'history', coalesce((select jsonb_agg(jsonb_build_object('id', pubs.id, 'kind', pubs.kind, 'packId', pubs.pack_id,
                                                             'version', coalesce(pubs.version, 'code default'),
                                                             'unchecked', coalesce(to_jsonb(pubs.unchecked_steps), '[]'::jsonb),
                                                             'publishedAt', pubs.published_at, 'publishedBy', pubs.published_by)
                                          order by pubs.id desc)
                           from pubs where pubs.n <= 20), '[]'::jsonb))
$$;
comment on function public.admin_platform_pack(text) is
  'Platform health tab: the platform''s code default, effective pack, roll-back target and last 20 publications.';
revoke execute on function public.admin_platform_pack(text) from public, anon, authenticated;

create or replace function public.admin_publish_pack(p_platform text, p_pack_id uuid, p_by uuid, p_unchecked text[] default null::text[])
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  pack record;
  tried record;
  skipped text[];
begin
  select p.* into pack from public.platform_packs p
   where p.id = p_pack_id and p.platform = p_platform and p.source = 'operator';
  if pack.id is null then
    return 'not_found';
  end if;
  -- Only the newest try of this very pack counts, and it must have passed.
  select r.status, r.steps into tried from public.platform_canary_runs r
   where r.pack_id = pack.id and r.trigger = 'try' order by r.created_at desc limit 1;
  if tried.status is null then
    return 'not_tried';
  elsif tried.status in ('queued', 'running') then
    return 'trying';
  elsif tried.status <> 'passed' then
    return 'failed';
  end if;
  -- A skipped step checked nothing: the pack goes out unchecked there only when the operator named
  -- exactly those steps (a confirmation given for another try's skips does not carry over).
  skipped := array(select distinct s ->> 'step' from jsonb_array_elements(tried.steps) s
                    where s ->> 'status' = 'skipped' order by 1);
  if cardinality(skipped) > 0
     and skipped is distinct from array(select distinct u from unnest(p_unchecked) u order by 1) then
    return 'unchecked';
  end if;
  if exists (select 1 from internal.published_pack(p_platform) cur where cur.pack_id = pack.id) then
    return 'current';
  end if;
  -- A version names one set of facts: another pack published (or a code default) under it with other facts.
  if exists (select 1 from public.platform_packs other
              where other.platform = p_platform and other.version = pack.version and other.facts <> pack.facts
                and (other.source = 'code'
                     or exists (select 1 from public.platform_pack_publications pub where pub.pack_id = other.id))) then
    return 'version_taken';
  end if;
  insert into public.platform_pack_publications (platform, pack_id, kind, published_by, previous_publication_id, unchecked_steps)
  values (p_platform, pack.id, 'publish', p_by, (select cur.publication_id from internal.published_pack(p_platform) cur),
          nullif(skipped, '{}'));
  -- Check the published pack at once rather than at the next scheduled run: it may resume what is paused.
  perform internal.queue_canary_run(p_platform, 'publish', null, p_by);
  return 'published';
end
$$;
comment on function public.admin_publish_pack(text, uuid, uuid, text[]) is
  'Publishes an operator pack whose newest canary try passed with every step run, or whose skipped steps the operator named in p_unchecked (recorded): not_found, not_tried, trying, failed, unchecked, current, version_taken or published.';
revoke execute on function public.admin_publish_pack(text, uuid, uuid, text[]) from public, anon, authenticated;

create or replace function public.admin_resume_platform_action(p_platform text, p_action text, p_by uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.platform_action_pauses pa where pa.platform = p_platform and pa.action = p_action) then
    return null;
  end if;
  return internal.resolve_site_changes(p_platform, p_action, 'operator', p_by);
end
$$;
comment on function public.admin_resume_platform_action(text, text, uuid) is
  'An operator resumes a paused platform action by hand (its incidents resolved); null when it is not paused.';
revoke execute on function public.admin_resume_platform_action(text, text, uuid) from public, anon, authenticated;

create or replace function public.admin_rollback_pack(p_platform text, p_by uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target jsonb := nullif((public.admin_platform_pack(p_platform)) -> 'rollbackTo', 'null'::jsonb);
begin
  if target is null then
    return null;
  end if;
  insert into public.platform_pack_publications (platform, pack_id, kind, published_by, previous_publication_id)
  values (p_platform, nullif(target ->> 'packId', '')::uuid, 'rollback', p_by,
          (select t.previous_publication_id from public.platform_pack_publications t
            where t.id = nullif(target ->> 'publicationId', '')::bigint));
  perform internal.queue_canary_run(p_platform, 'publish', null, p_by);
  return target;
end
$$;
comment on function public.admin_rollback_pack(text, uuid) is
  'Goes back to the pack in effect before the newest publication (null: nothing to go back to); again goes further back.';
revoke execute on function public.admin_rollback_pack(text, uuid) from public, anon, authenticated;

create or replace function public.admin_run_canary(p_platform text, p_by uuid)
returns uuid
language sql
security definer
set search_path = ''
as $$
  select internal.queue_canary_run(p_platform, 'manual', null, p_by)
$$;
comment on function public.admin_run_canary(text, uuid) is
  'Run now: queues a canary run of the platform''s own pack; null when it has no active canary account.';
revoke execute on function public.admin_run_canary(text, uuid) from public, anon, authenticated;

create or replace function public.admin_set_canary_account(p_account_id uuid, p_thread_id text, p_by uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  account record;
begin
  select a.status, p.name as platform into account
    from public.social_accounts a join public.platforms p on p.id = a.platform_id where a.id = p_account_id;
  if account.status is null then
    return 'not_found';
  elsif account.platform not in ('twitter', 'instagram') then
    return 'not_supported';
  elsif account.status <> 'active' then
    return 'not_active';
  end if;
  insert into public.platform_canary_accounts (account_id, thread_id, added_by)
  values (p_account_id, nullif(btrim(p_thread_id), ''), p_by)
  on conflict (account_id) do update set thread_id = excluded.thread_id;
  return 'saved';
end
$$;
comment on function public.admin_set_canary_account(uuid, text, uuid) is
  'Chooses an active account for its platform''s canary (or changes its known thread): not_found, not_supported, not_active or saved.';
revoke execute on function public.admin_set_canary_account(uuid, text, uuid) from public, anon, authenticated;

create or replace function public.admin_try_pack(p_platform text, p_facts jsonb, p_by uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  pack uuid;
  run uuid;
begin
  -- The admin function validated the shape against the code default before calling.
  insert into public.platform_packs (platform, version, facts, source, created_by)
  values (p_platform, p_facts ->> 'version', p_facts, 'operator', p_by)
  returning id into pack;
  run := internal.queue_canary_run(p_platform, 'try', pack, p_by);
  if run is null then
    raise exception 'Choose an active canary account for % first', internal.platform_label(p_platform)
      using errcode = 'P0001', hint = 'no_canary_account';
  end if;
  return jsonb_build_object('packId', pack, 'runId', run);
end
$$;
comment on function public.admin_try_pack(text, jsonb, uuid) is
  'Stores a draft pack and queues a canary run with it ("Try on canary"). Fails when the platform has no active canary account.';
revoke execute on function public.admin_try_pack(text, jsonb, uuid) from public, anon, authenticated;

create or replace function public.platform_notices()
returns table(platform text, platform_label text, action text, paused_since timestamp with time zone, title text, message text)
language sql
stable security definer
set search_path = ''
as $$
  -- Only the pauses of platforms the caller has an account on; nothing about steps or pages.
  select pa.platform, internal.platform_label(pa.platform), pa.action, pa.paused_at, n.title, n.message
    from public.platform_action_pauses pa
   cross join internal.platform_action_notice(pa.platform, pa.action, false) n
   where exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
                  where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}')) and p.name = pa.platform)
   order by pa.paused_at, pa.platform, pa.action
$$;
comment on function public.platform_notices() is
  'The dashboard notice: platform actions paused after a site change, for platforms the caller has an account on.';
revoke execute on function public.platform_notices() from public, anon;
