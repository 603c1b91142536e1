-- The canary: a read-only check of each platform every few minutes on accounts operators chose
-- (customers' active accounts or their own): sign in, open the inbox, open a known thread, open a
-- profile, one page of a search. Never a send. Each run records its steps with their times; runs
-- are kept 30 days. A step that meets a changed page records a site change (the runner calls
-- internal.record_site_change); a passing run resolves the platform's incidents and resumes what
-- they paused. Operators also try a draft pack on the canary before they may publish it, and
-- roll back to the previous pack in one step. pg_cron (minute granularity, as pg_cron 1.4 has)
-- calls internal.enqueue_platform_canaries() every minute; it decides which platform is due.

-- Tables ---------------------------------------------------------------------------------------

create table public.platform_canary_accounts (
  account_id uuid primary key references public.social_accounts (id) on delete cascade,
  platform text not null references public.platforms (name) on update cascade,
  -- the conversation the thread step opens; null: the newest conversation of the inbox that has
  -- nothing unread (so the canary never marks a customer's new message read)
  thread_id text check (thread_id ~ '^[A-Za-z0-9_:-]{1,200}$'),
  added_by uuid references auth.users (id) on delete set null,
  added_at timestamptz not null default now(),
  last_run_at timestamptz
);

create index platform_canary_accounts_platform_idx on public.platform_canary_accounts (platform, last_run_at nulls first);
create index platform_canary_accounts_added_by_idx on public.platform_canary_accounts (added_by);

comment on table public.platform_canary_accounts is
  'Accounts the canary signs in with, chosen by operators; used in turn, one per run.';

create table public.platform_canary_settings (
  platform text primary key references public.platforms (name) on update cascade,
  -- the profile step opens this profile (null: the canary account's own)
  profile_username text check (profile_username ~ '^[A-Za-z0-9_.]{1,30}$'),
  search_query text not null default 'marketing' check (char_length(btrim(search_query)) between 1 and 100),
  every_minutes integer not null default 5 check (every_minutes between 1 and 60),
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);

comment on table public.platform_canary_settings is
  'Per platform: the profile and the search the canary opens, and how often it runs (every minute while something is paused).';

insert into public.platform_canary_settings (platform) values ('twitter'), ('instagram');

create table public.platform_canary_runs (
  id uuid primary key default gen_random_uuid(),
  platform text not null references public.platforms (name) on update cascade,
  account_id uuid references public.social_accounts (id) on delete set null,
  account_username text,
  trigger text not null check (trigger in ('schedule', 'try', 'publish', 'manual')),
  -- try: the draft pack under test; otherwise null (the platform's pack at the time it runs)
  pack_id uuid references public.platform_packs (id) on delete set null,
  pack_version text check (char_length(pack_version) <= 100),
  status text not null default 'queued' check (status in ('queued', 'running', 'passed', 'failed', 'error')),
  steps jsonb not null default '[]'::jsonb check (jsonb_typeof(steps) = 'array'),
  error text check (char_length(error) <= 2000),
  requested_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  duration_ms integer check (duration_ms >= 0)
);

create index platform_canary_runs_platform_created_at_idx on public.platform_canary_runs (platform, created_at desc);
create index platform_canary_runs_pack_id_idx on public.platform_canary_runs (pack_id) where pack_id is not null;
create index platform_canary_runs_account_id_idx on public.platform_canary_runs (account_id);
create index platform_canary_runs_requested_by_idx on public.platform_canary_runs (requested_by) where requested_by is not null;
create index platform_canary_runs_unfinished_idx on public.platform_canary_runs (platform) where status in ('queued', 'running');

comment on table public.platform_canary_runs is
  'Canary runs (30 days): per step {step, status passed|failed|skipped, ms, kind, message}; passed only when no step failed.';
comment on column public.platform_canary_runs.status is
  'passed, failed (a step failed), or error (the canary could not run: no usable account, a sign-in problem of the account itself).';

-- The runner works canary runs from their own queue (one job per run).
select pgboss.create_queue('platform.canary',
  jsonb_build_object('policy', 'short', 'retryLimit', 1, 'retryDelay', 30, 'expireInSeconds', 600));

-- Helper functions -----------------------------------------------------------------------------

create function internal.fill_canary_account_platform()
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
comment on function internal.fill_canary_account_platform() is 'BEFORE INSERT/UPDATE on platform_canary_accounts: the platform is the account''s.';

create trigger platform_canary_accounts_fill_platform
  before insert or update of account_id on public.platform_canary_accounts
  for each row execute function internal.fill_canary_account_platform();

create function internal.queue_canary_run(p_platform text, p_trigger text, p_pack_id uuid, p_by uuid)
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

create function internal.enqueue_platform_canaries()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  settings record;
  queued integer := 0;
begin
  -- A run nobody finished within 15 minutes died with its job: say so, and let the next one go.
  update public.platform_canary_runs r
     set status = 'error', error = 'The canary job did not finish (the runner stopped or the job expired).',
         finished_at = t
   where r.status in ('queued', 'running') and r.created_at < t - interval '15 minutes';

  for settings in select s.* from public.platform_canary_settings s order by s.platform loop
    -- Every few minutes; every minute while something on the platform is paused, to resume soon.
    continue when exists (select 1 from public.platform_canary_runs r
                           where r.platform = settings.platform and r.trigger <> 'try'
                             and (r.status in ('queued', 'running')
                                  or r.created_at > t - case when exists (select 1 from public.platform_action_pauses pa
                                                                           where pa.platform = settings.platform)
                                                              then interval '1 minute' - interval '5 seconds'
                                                              else make_interval(mins => settings.every_minutes) - interval '5 seconds' end));
    if internal.queue_canary_run(settings.platform, 'schedule', null, null) is not null then
      queued := queued + 1;
    end if;
  end loop;

  -- 30 days of history; drafts nobody published or tried for 30 days go too.
  delete from public.platform_canary_runs r where r.created_at < t - interval '30 days';
  delete from public.platform_packs p
   where p.source = 'operator' and p.created_at < now() - interval '30 days'
     and not exists (select 1 from public.platform_pack_publications pub where pub.pack_id = p.id)
     and not exists (select 1 from public.platform_canary_runs r where r.pack_id = p.id);
  return queued;
end
$$;
comment on function internal.enqueue_platform_canaries() is
  'Run by pg_cron every minute: queues each platform''s canary when due (every_minutes, or every minute while paused) and prunes 30-day-old runs.';

create function internal.start_canary_run(p_run_id uuid)
returns table (platform text, account_id uuid, trigger text, pack_id uuid, pack_facts jsonb, pack_version text,
               thread_id text, profile_username text, search_query text)
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

create function internal.finish_canary_run(p_run_id uuid, p_status text, p_steps jsonb, p_pack_version text,
                                           p_error text, p_duration_ms integer)
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

-- Policies -------------------------------------------------------------------------------------

alter table public.platform_canary_accounts enable row level security;
alter table public.platform_canary_settings enable row level security;
alter table public.platform_canary_runs enable row level security;

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.platform_canary_accounts, public.platform_canary_settings, public.platform_canary_runs
  from anon, authenticated;
grant all on public.platform_canary_accounts, public.platform_canary_settings, public.platform_canary_runs
  to service_role;

revoke execute on function internal.fill_canary_account_platform(), internal.queue_canary_run(text, text, uuid, uuid),
  internal.enqueue_platform_canaries(), internal.start_canary_run(uuid),
  internal.finish_canary_run(uuid, text, jsonb, text, text, integer) from public;
grant execute on function internal.fill_canary_account_platform() to service_role;
grant execute on function internal.queue_canary_run(text, text, uuid, uuid), internal.enqueue_platform_canaries()
  to service_role;
grant execute on function internal.start_canary_run(uuid), internal.finish_canary_run(uuid, text, jsonb, text, text, integer)
  to reachflow_runner, service_role;

-- Schedule -------------------------------------------------------------------------------------

select cron.schedule('reachflow-platform-canary', '* * * * *', 'select internal.enqueue_platform_canaries()');

-- RPCs: the admin function's Platform health tab ------------------------------------------------

create function public.admin_platform_pack(p_platform text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  -- The code default, what is published, what is in effect, where Roll back goes, the history.
  with code as (select * from internal.code_pack(p_platform)),
  pubs as (
    select pub.id, pub.pack_id, pub.kind, pub.published_at, pub.previous_publication_id, u.email as published_by,
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
                                                             'publishedAt', pubs.published_at, 'publishedBy', pubs.published_by)
                                          order by pubs.id desc)
                           from pubs where pubs.n <= 20), '[]'::jsonb))
$$;
comment on function public.admin_platform_pack(text) is
  'Platform health tab: the platform''s code default, effective pack, roll-back target and last 20 publications.';

create function public.admin_try_pack(p_platform text, p_facts jsonb, p_by uuid)
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

create function public.admin_publish_pack(p_platform text, p_pack_id uuid, p_by uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  pack record;
  tried text;
begin
  select p.* into pack from public.platform_packs p
   where p.id = p_pack_id and p.platform = p_platform and p.source = 'operator';
  if pack.id is null then
    return 'not_found';
  end if;
  -- Only the newest try of this very pack counts, and it must have passed.
  select r.status into tried from public.platform_canary_runs r
   where r.pack_id = pack.id and r.trigger = 'try' order by r.created_at desc limit 1;
  if tried is null then
    return 'not_tried';
  elsif tried in ('queued', 'running') then
    return 'trying';
  elsif tried <> 'passed' then
    return 'failed';
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
  insert into public.platform_pack_publications (platform, pack_id, kind, published_by, previous_publication_id)
  values (p_platform, pack.id, 'publish', p_by, (select cur.publication_id from internal.published_pack(p_platform) cur));
  -- Check the published pack at once rather than at the next scheduled run: it may resume what is paused.
  perform internal.queue_canary_run(p_platform, 'publish', null, p_by);
  return 'published';
end
$$;
comment on function public.admin_publish_pack(text, uuid, uuid) is
  'Publishes an operator pack whose newest canary try passed: not_found, not_tried, trying, failed, current, version_taken or published.';

create function public.admin_rollback_pack(p_platform text, p_by uuid)
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

create function public.admin_canary_candidates(p_platform text, p_search text, p_limit integer)
returns table (account_id uuid, username text, status text, user_email text, operator boolean, chosen boolean)
language sql
stable
security definer
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

create function public.admin_canary_accounts(p_platform text)
returns table (account_id uuid, username text, status text, user_email text, operator boolean, thread_id text,
               added_at timestamptz, last_run_at timestamptz)
language sql
stable
security definer
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
comment on function public.admin_canary_accounts(text) is 'The platform''s canary accounts with their owner and status.';

create function public.admin_canary_history(p_platform text, p_days integer)
returns jsonb
language sql
stable
security definer
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

create function public.admin_run_canary(p_platform text, p_by uuid)
returns uuid
language sql
security definer
set search_path = ''
as $$
  select internal.queue_canary_run(p_platform, 'manual', null, p_by)
$$;
comment on function public.admin_run_canary(text, uuid) is
  'Run now: queues a canary run of the platform''s own pack; null when it has no active canary account.';

create function public.admin_set_canary_account(p_account_id uuid, p_thread_id text, p_by uuid)
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

revoke execute on function public.admin_platform_pack(text), public.admin_try_pack(text, jsonb, uuid),
  public.admin_publish_pack(text, uuid, uuid), public.admin_rollback_pack(text, uuid),
  public.admin_canary_candidates(text, text, integer), public.admin_canary_accounts(text),
  public.admin_canary_history(text, integer), public.admin_run_canary(text, uuid),
  public.admin_set_canary_account(uuid, text, uuid) from public, anon, authenticated;
grant execute on function public.admin_platform_pack(text), public.admin_try_pack(text, jsonb, uuid),
  public.admin_publish_pack(text, uuid, uuid), public.admin_rollback_pack(text, uuid),
  public.admin_canary_candidates(text, text, integer), public.admin_canary_accounts(text),
  public.admin_canary_history(text, integer), public.admin_run_canary(text, uuid),
  public.admin_set_canary_account(uuid, text, uuid) to service_role;
