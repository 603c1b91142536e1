-- A site change is its own outcome. When X or Instagram serves a page that is not what the
-- adapter's facts describe, the runner records an incident (platform, action, step, URL path,
-- sightings) with a redacted outline of the page, and that platform action (send, inbox, scrape,
-- or the whole session) pauses across the fleet: the scheduler stops queuing it, runners stop
-- claiming it. The customer's accounts keep their status, trust and breaker: the site changed,
-- not the account. Customers with accounts on the platform are told, and told again when it
-- resumes: by itself when the canary passes again, or when an operator resumes it by hand.

-- Tables ---------------------------------------------------------------------------------------

create table public.platform_incidents (
  id uuid primary key default gen_random_uuid(),
  platform text not null references public.platforms (name) on update cascade,
  action text not null check (action in ('send', 'inbox', 'scrape', 'session')),
  step text not null check (char_length(step) between 1 and 200),
  path text not null default '' check (char_length(path) <= 500),
  status text not null default 'open' check (status in ('open', 'resolved')),
  sightings integer not null default 1 check (sightings >= 1),
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  source text not null check (source in ('job', 'canary')),
  pack_version text check (char_length(pack_version) <= 100),
  -- false when the same step broke again within an hour of the canary resolving it: a flapping
  -- change waits for an operator instead of pausing and resuming every few minutes
  auto_resume boolean not null default true,
  outline_object text,
  resolved_at timestamptz,
  resolution text check (resolution in ('canary', 'operator')),
  resolved_by uuid references auth.users (id) on delete set null,
  check ((status = 'resolved') = (resolved_at is not null and resolution is not null))
);

create unique index platform_incidents_open_key on public.platform_incidents (platform, action, step) where status = 'open';
create index platform_incidents_last_seen_at_idx on public.platform_incidents (last_seen_at desc);
create index platform_incidents_resolved_by_idx on public.platform_incidents (resolved_by) where resolved_by is not null;

comment on table public.platform_incidents is
  'Site changes: a page of X or Instagram that was not what the adapter expected. One open row per platform, action and step; sightings count repeats.';
comment on column public.platform_incidents.path is 'The URL path the page was on, digit runs replaced by # (thread and user ids).';
comment on column public.platform_incidents.outline_object is
  'The redacted outline (tags, test ids, roles; no text) in the private storage bucket site-change-outlines, once filed.';
comment on column public.platform_incidents.auto_resume is
  'Whether a passing canary run resolves it. False when it came back within an hour of the canary resolving the same step.';

-- The runner has no storage credentials: it hands the outline over here and the admin function
-- files it in the private bucket (and deletes the row) the first time operators read incidents.
create table public.platform_incident_outlines (
  incident_id uuid primary key references public.platform_incidents (id) on delete cascade,
  captured_at timestamptz not null default now(),
  path text not null default '',
  outline jsonb not null check (jsonb_typeof(outline) = 'object')
);

comment on table public.platform_incident_outlines is
  'The newest page outline of an incident, waiting to be filed in storage by the admin function.';

create table public.platform_action_pauses (
  platform text not null references public.platforms (name) on update cascade,
  action text not null check (action in ('send', 'inbox', 'scrape', 'session')),
  incident_id uuid references public.platform_incidents (id) on delete set null,
  paused_at timestamptz not null default now(),
  primary key (platform, action)
);

create index platform_action_pauses_incident_id_idx on public.platform_action_pauses (incident_id);

comment on table public.platform_action_pauses is
  'Platform actions paused fleet-wide after a site change (session = everything on the platform). A row exists while paused.';

-- A DM step that met a changed page is recorded as what it was (not sent, or uncertain) and
-- carries the incident, so the account's circuit breaker does not count it against the account.
alter table public.dm_logs add column incident_id uuid references public.platform_incidents (id) on delete set null;
create index dm_logs_incident_id_idx on public.dm_logs (incident_id) where incident_id is not null;
comment on column public.dm_logs.incident_id is 'Set when the attempt met a site change: not the account''s fault (the breaker skips it).';

-- The private bucket operators read outlines from (through the admin function only: no policy
-- lets a signed-in user reach it; the service role bypasses row-level security).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('site-change-outlines', 'site-change-outlines', false, 2 * 1024 * 1024, array['application/json'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Helper functions -----------------------------------------------------------------------------

create function internal.platform_label(p_platform text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_platform when 'twitter' then 'X' when 'instagram' then 'Instagram' else initcap(p_platform) end
$$;
comment on function internal.platform_label(text) is 'The platform as customers know it (twitter → X).';

create function internal.platform_action_notice(p_platform text, p_action text, p_resumed boolean)
returns table (title text, message text)
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

create function internal.platform_action_paused(p_platform text, p_action text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  -- A paused session pauses every action of the platform.
  select exists (select 1 from public.platform_action_pauses pa
                  where pa.platform = p_platform and pa.action in (p_action, 'session'))
$$;
comment on function internal.platform_action_paused(text, text) is
  'True while the platform action (or the platform''s whole session) is paused after a site change.';

create function internal.notify_platform_customers(p_platform text, p_action text, p_resumed boolean)
returns integer
language sql
security definer
set search_path = ''
as $$
  -- Everyone with an account on the platform, once each.
  with customers as (
    select distinct a.user_id
      from public.social_accounts a join public.platforms p on p.id = a.platform_id
     where p.name = p_platform
  ), sent as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select c.user_id, case when p_resumed then 'platform_resumed' else 'platform_paused' end, n.title, n.message,
           jsonb_build_object('platform', p_platform, 'action', p_action)
      from customers c cross join internal.platform_action_notice(p_platform, p_action, p_resumed) n
    returning 1
  )
  select count(*)::integer from sent
$$;
comment on function internal.notify_platform_customers(text, text, boolean) is
  'Tells every customer with an account on the platform that an action paused (or resumed).';

create function internal.record_site_change(p_platform text, p_action text, p_step text, p_path text, p_outline jsonb,
                                            p_source text, p_pack_version text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  incident uuid;
  fresh boolean;
  redacted_path text := regexp_replace(left(coalesce(p_path, ''), 500), '[0-9]+', '#', 'g');
  paused integer;
begin
  if p_action not in ('send', 'inbox', 'scrape', 'session') then
    raise exception 'Unknown platform action %', p_action using errcode = '22023';
  end if;
  -- One open incident per platform, action and step: a repeat is one more sighting.
  insert into public.platform_incidents as i (platform, action, step, path, source, pack_version)
  values (p_platform, p_action, left(p_step, 200), redacted_path, p_source, left(p_pack_version, 100))
  on conflict (platform, action, step) where status = 'open'
  do update set sightings = i.sightings + 1, last_seen_at = now(), path = excluded.path,
                pack_version = coalesce(excluded.pack_version, i.pack_version)
  returning i.id, (xmax = 0) into incident, fresh;

  if fresh then
    -- Back within the hour after the canary resolved the same step: it flaps, an operator decides.
    update public.platform_incidents i set auto_resume = false
     where i.id = incident
       and exists (select 1 from public.platform_incidents r
                    where r.platform = p_platform and r.action = p_action and r.step = left(p_step, 200)
                      and r.status = 'resolved' and r.resolution = 'canary' and r.resolved_at > now() - interval '1 hour');
    insert into public.system_logs (level, service, message, metadata)
    values ('error', p_platform,
            format('%s changed its page at "%s" (%s): %s paused on every account', internal.platform_label(p_platform),
                   left(p_step, 200), redacted_path, p_action),
            jsonb_build_object('incidentId', incident, 'platform', p_platform, 'action', p_action, 'source', p_source));
  end if;

  insert into public.platform_incident_outlines (incident_id, captured_at, path, outline)
  values (incident, now(), redacted_path, coalesce(p_outline, '{}'::jsonb))
  on conflict (incident_id) do update set captured_at = excluded.captured_at, path = excluded.path, outline = excluded.outline;

  insert into public.platform_action_pauses (platform, action, incident_id)
  values (p_platform, p_action, incident)
  on conflict (platform, action) do nothing;
  get diagnostics paused = row_count;
  if paused > 0 then
    perform internal.notify_platform_customers(p_platform, p_action, false);
  end if;
  return incident;
end
$$;
comment on function internal.record_site_change(text, text, text, text, jsonb, text, text) is
  'The runner met a changed page: counts the incident, keeps its outline for storage, pauses the action fleet-wide and tells customers (once per pause).';

create function internal.resolve_site_changes(p_platform text, p_action text, p_resolution text, p_by uuid,
                                              p_published boolean default false)
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
  -- operator just published (the fix); an operator resolves the action's incidents.
  update public.platform_incidents i
     set status = 'resolved', resolved_at = now(), resolution = p_resolution, resolved_by = p_by
   where i.platform = p_platform and i.status = 'open'
     and (p_action is null or i.action = p_action)
     and (p_resolution = 'operator' or p_published or i.auto_resume);
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

create function internal.requeue_inbox_reply(p_message_id uuid, p_reason text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  thread uuid;
begin
  -- An answer claimed but stopped by a changed page before send was pressed: nothing went out, so
  -- it waits in the queue again (sent once the pause is over), the reason on it meanwhile.
  update public.inbox_messages m set status = 'queued', error = left(p_reason, 1000), sent_at = null
   where m.id = p_message_id and m.status = 'sending'
  returning m.thread_id into thread;
  if thread is null then
    return false;
  end if;
  perform internal.refresh_inbox_thread(thread);
  return true;
end
$$;
comment on function internal.requeue_inbox_reply(uuid, text) is
  'Runner: an answer a site change stopped before it was sent goes back to the queue.';

-- Policies -------------------------------------------------------------------------------------

alter table public.platform_incidents enable row level security;
alter table public.platform_incident_outlines enable row level security;
alter table public.platform_action_pauses enable row level security;

create policy "The runner reads platform action pauses" on public.platform_action_pauses
  for select to reachflow_runner using (true);

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.platform_incidents, public.platform_incident_outlines, public.platform_action_pauses
  from anon, authenticated;
grant all on public.platform_incidents, public.platform_incident_outlines, public.platform_action_pauses to service_role;
grant select on public.platform_action_pauses to reachflow_runner;
grant update (incident_id) on public.dm_logs to reachflow_runner;

revoke execute on function internal.platform_label(text), internal.platform_action_notice(text, text, boolean),
  internal.platform_action_paused(text, text), internal.notify_platform_customers(text, text, boolean),
  internal.record_site_change(text, text, text, text, jsonb, text, text),
  internal.resolve_site_changes(text, text, text, uuid, boolean), internal.requeue_inbox_reply(uuid, text) from public;
grant execute on function internal.platform_action_paused(text, text),
  internal.record_site_change(text, text, text, text, jsonb, text, text), internal.requeue_inbox_reply(uuid, text)
  to reachflow_runner, service_role;
grant execute on function internal.platform_label(text), internal.platform_action_notice(text, text, boolean)
  to authenticated, service_role;
grant execute on function internal.resolve_site_changes(text, text, text, uuid, boolean) to service_role;

-- RPCs -----------------------------------------------------------------------------------------

create function public.platform_notices()
returns table (platform text, platform_label text, action text, paused_since timestamptz, title text, message text)
language sql
stable
security definer
set search_path = ''
as $$
  -- Only the pauses of platforms the caller has an account on; nothing about steps or pages.
  select pa.platform, internal.platform_label(pa.platform), pa.action, pa.paused_at, n.title, n.message
    from public.platform_action_pauses pa
   cross join internal.platform_action_notice(pa.platform, pa.action, false) n
   where exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
                  where a.user_id = (select auth.uid()) and p.name = pa.platform)
   order by pa.paused_at, pa.platform, pa.action
$$;
comment on function public.platform_notices() is
  'The dashboard notice: platform actions paused after a site change, for platforms the caller has an account on.';

create function public.admin_resume_platform_action(p_platform text, p_action text, p_by uuid)
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

revoke execute on function public.platform_notices(), public.admin_resume_platform_action(text, text, uuid)
  from public, anon, authenticated;
grant execute on function public.platform_notices() to authenticated;
grant execute on function public.admin_resume_platform_action(text, text, uuid) to service_role;
