-- Operations and the admin tab: system logs, runner heartbeats and commands, paused queues, and the
-- admin_* reads and actions only the service role may run.

-- Tables ------------------------------------------------------------------------------------------

create table public.runner_heartbeats (
  runner_id text not null,
  host text not null,
  pid integer not null,
  version text,
  cpu_percent numeric(6,2),
  memory_mb numeric(12,2),
  memory_percent numeric(5,2),
  load_average numeric[],
  uptime_seconds integer not null default 0,
  current_jobs jsonb not null default '[]'::jsonb,
  status text not null default 'running'::text,
  started_at timestamp with time zone not null default now(),
  last_seen_at timestamp with time zone not null default now(),
  admission jsonb,
  constraint runner_heartbeats_pkey primary key (runner_id),
  constraint runner_heartbeats_admission_check check (((admission is null) or (jsonb_typeof(admission) = 'object'::text))),
  constraint runner_heartbeats_cpu_percent_check check ((cpu_percent >= (0)::numeric)),
  constraint runner_heartbeats_current_jobs_check check ((jsonb_typeof(current_jobs) = 'array'::text)),
  constraint runner_heartbeats_memory_mb_check check ((memory_mb >= (0)::numeric)),
  constraint runner_heartbeats_memory_percent_check check (((memory_percent >= (0)::numeric) and (memory_percent <= (100)::numeric))),
  constraint runner_heartbeats_pid_check check ((pid > 0)),
  constraint runner_heartbeats_runner_id_check check (((char_length(runner_id) >= 1) and (char_length(runner_id) <= 200))),
  constraint runner_heartbeats_status_check check ((status = any (array['running'::text, 'stopping'::text, 'stopped'::text]))),
  constraint runner_heartbeats_uptime_seconds_check check ((uptime_seconds >= 0))
);
comment on table public.runner_heartbeats is
  'One row per runner process, refreshed every few seconds. A runner not seen for a minute is down.';
comment on column public.runner_heartbeats.current_jobs is
  'Jobs the runner is working now: [{id, name, accountId, startedAt}].';
comment on column public.runner_heartbeats.admission is
  'Admission control now: jobs and sign-ins allowed at once, in flight, jobs deferred for load since start, last event-loop lag (ms) and run queue per core. Null for a runner without it.';

create table public.runner_commands (
  id uuid not null default gen_random_uuid(),
  runner_id text,
  command text not null,
  status text not null default 'pending'::text,
  requested_by uuid,
  result text,
  created_at timestamp with time zone not null default now(),
  acknowledged_at timestamp with time zone,
  completed_at timestamp with time zone,
  constraint runner_commands_pkey primary key (id),
  constraint runner_commands_command_check check ((command = any (array['restart'::text, 'stop'::text]))),
  constraint runner_commands_status_check check ((status = any (array['pending'::text, 'acknowledged'::text, 'done'::text, 'failed'::text]))),
  constraint runner_commands_requested_by_fkey foreign key (requested_by) references auth.users(id) on delete set null
);
comment on table public.runner_commands is
  'Restart and stop requests from the admin tab. runner_id null = every runner.';

create table public.system_logs (
  id bigint generated always as identity not null,
  level text not null,
  service text not null,
  message text not null,
  metadata jsonb,
  created_at timestamp with time zone not null default now(),
  constraint system_logs_pkey primary key (id),
  constraint system_logs_level_check check ((level = any (array['error'::text, 'warn'::text, 'info'::text, 'debug'::text]))),
  constraint system_logs_service_check check (((char_length(service) >= 1) and (char_length(service) <= 50)))
);
comment on table public.system_logs is
  'Operational log lines (scheduler, runner, warmup, api, instagram, twitter) for the admin Logs tab.';

create table public.paused_queues (
  name text not null,
  paused_by uuid,
  paused_at timestamp with time zone not null default now(),
  constraint paused_queues_pkey primary key (name),
  constraint paused_queues_paused_by_fkey foreign key (paused_by) references auth.users(id) on delete set null
);
comment on table public.paused_queues is
  'Job queues an admin paused: the runner stops fetching their jobs until resumed.';

-- Indexes -----------------------------------------------------------------------------------------

create index runner_heartbeats_last_seen_at_idx on public.runner_heartbeats (last_seen_at desc);

create index runner_commands_pending_idx on public.runner_commands (created_at) where (status = 'pending'::text);

create index system_logs_created_at_idx on public.system_logs (created_at desc);
create index system_logs_level_created_at_idx on public.system_logs (level, created_at desc);
create index system_logs_service_created_at_idx on public.system_logs (service, created_at desc);

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.admin_manual_retries()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 3
$$;
comment on function internal.admin_manual_retries() is
  'How many times an operator may retry a failed job by hand, beyond the attempts its queue allows.';

create or replace function internal.admin_user_status(p_banned_until timestamp with time zone, p_last_sign_in_at timestamp with time zone)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when p_banned_until > now() then 'suspended'
    when p_last_sign_in_at > now() - interval '30 days' then 'active'
    else 'inactive'
  end
$$;
comment on function internal.admin_user_status(timestamp with time zone, timestamp with time zone) is
  'A user''s status on the admin tab: suspended (banned), active (signed in within 30 days) or inactive.';

create or replace function internal.database_host_metrics()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  first_sample bigint[];
  second_sample bigint[];
  busy_delta numeric;
  total_delta numeric;
  meminfo text;
  mem_total numeric;
  mem_available numeric;
  load_fields text[];
begin
  -- CPU use between two readings of /proc/stat 0.2 s apart (user..steal; idle and iowait are idle).
  first_sample := string_to_array(regexp_replace(split_part(pg_catalog.pg_read_file('/proc/stat'), E'\n', 1), '^cpu\s+', ''), ' ')::bigint[];
  perform pg_catalog.pg_sleep(0.2);
  second_sample := string_to_array(regexp_replace(split_part(pg_catalog.pg_read_file('/proc/stat'), E'\n', 1), '^cpu\s+', ''), ' ')::bigint[];
  total_delta := (select sum(v) from unnest(second_sample[1:8]) v) - (select sum(v) from unnest(first_sample[1:8]) v);
  busy_delta := total_delta - ((second_sample[4] + second_sample[5]) - (first_sample[4] + first_sample[5]));

  meminfo := pg_catalog.pg_read_file('/proc/meminfo');
  mem_total := (regexp_match(meminfo, 'MemTotal:\s+(\d+)'))[1]::numeric;
  mem_available := (regexp_match(meminfo, 'MemAvailable:\s+(\d+)'))[1]::numeric;
  load_fields := string_to_array(pg_catalog.pg_read_file('/proc/loadavg'), ' ');

  return jsonb_build_object(
    'host', btrim(pg_catalog.pg_read_file('/proc/sys/kernel/hostname'), E' \n'),
    'cpuPercent', case when total_delta > 0 then round(100 * busy_delta / total_delta, 1) else 0 end,
    'memoryPercent', case when mem_total > 0 then round(100 * (1 - mem_available / mem_total), 1) end,
    'loadAverage', jsonb_build_array(load_fields[1]::numeric, load_fields[2]::numeric, load_fields[3]::numeric));
exception
  -- Hosted Postgres does not let the database owner read /proc (insufficient_privilege), and a
  -- non-Linux host has no such files: then the database host simply reports nothing.
  when others then
    return null;
end
$$;
comment on function internal.database_host_metrics() is
  'CPU %, memory % and load average of the database''s host from /proc, or null where Postgres may not read it (hosted).';

create or replace function internal.runner_process_status(p_status text, p_last_seen_at timestamp with time zone)
returns text
language sql
stable
set search_path = ''
as $$
  -- Runners beat every 10 s: three missed beats is unresponsive, two minutes without one is gone.
  select case
    when p_status = 'stopped' or p_last_seen_at < now() - interval '2 minutes' then 'stopped'
    when p_last_seen_at < now() - interval '30 seconds' then 'unresponsive'
    when p_status = 'stopping' then 'stopping'
    else 'running'
  end
$$;
comment on function internal.runner_process_status(text, timestamp with time zone) is
  'A runner''s status from its heartbeat: running, stopping, unresponsive (no beat for 30 s) or stopped (none for 2 min).';

-- Row-level security ------------------------------------------------------------------------------

alter table public.runner_heartbeats enable row level security;

create policy "Admins can read runner heartbeats" on public.runner_heartbeats
  for select
  to authenticated
  using (( select internal.is_admin() as is_admin));

create policy "The runner reads heartbeats" on public.runner_heartbeats
  for select
  to reachflow_runner
  using (true);

create policy "The runner refreshes its heartbeat" on public.runner_heartbeats
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "The runner removes its heartbeat" on public.runner_heartbeats
  for delete
  to reachflow_runner
  using (true);

create policy "The runner writes its heartbeat" on public.runner_heartbeats
  for insert
  to reachflow_runner
  with check (true);

alter table public.runner_commands enable row level security;

create policy "Admins can read runner commands" on public.runner_commands
  for select
  to authenticated
  using (( select internal.is_admin() as is_admin));

create policy "The runner acknowledges commands" on public.runner_commands
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "The runner reads its commands" on public.runner_commands
  for select
  to reachflow_runner
  using (true);

alter table public.system_logs enable row level security;

create policy "Admins can read system logs" on public.system_logs
  for select
  to authenticated
  using (( select internal.is_admin() as is_admin));

create policy "The runner writes system logs" on public.system_logs
  for insert
  to reachflow_runner
  with check (true);

alter table public.paused_queues enable row level security;

create policy "Admins can read paused queues" on public.paused_queues
  for select
  to authenticated
  using (( select internal.is_admin() as is_admin));

create policy "The runner reads paused queues" on public.paused_queues
  for select
  to reachflow_runner
  using (true);

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.runner_heartbeats from anon;
revoke insert, update, delete, truncate, references, trigger on public.runner_heartbeats from authenticated;
grant select, insert, update, delete on public.runner_heartbeats to reachflow_runner;

revoke all on public.runner_commands from anon;
revoke insert, update, delete, truncate, references, trigger on public.runner_commands from authenticated;
grant select on public.runner_commands to reachflow_runner;
grant update (status, result, acknowledged_at, completed_at) on public.runner_commands to reachflow_runner;

revoke all on public.system_logs from anon;
revoke insert, update, delete, truncate, references, trigger on public.system_logs from authenticated;
grant insert on public.system_logs to reachflow_runner;

revoke all on public.paused_queues from anon;
revoke insert, update, delete, truncate, references, trigger on public.paused_queues from authenticated;
grant select on public.paused_queues to reachflow_runner;

revoke execute on function internal.admin_manual_retries() from public;
revoke execute on function internal.admin_user_status(timestamp with time zone, timestamp with time zone) from public;
revoke execute on function internal.database_host_metrics() from public;
revoke execute on function internal.runner_process_status(text, timestamp with time zone) from public;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.admin_ai_usage(p_limit integer default 200)
returns table(workspace_id uuid, workspace_name text, owner_email text, requests integer, tokens integer, denied integer, failures integer, request_limit integer, token_limit integer, day date)
language sql
stable security definer
set search_path = ''
as $$
  -- the budget is per workspace: every member's use of the day adds up
  with used as (
    select u.workspace_id, sum(u.requests)::integer as requests, sum(u.tokens)::integer as tokens,
           sum(u.denied)::integer as denied, sum(u.failures)::integer as failures
      from public.ai_usage u
     where u.day = (internal.now() at time zone 'utc')::date
     group by u.workspace_id
  )
  select w.id, w.name,
         (select au.email::text
            from public.workspace_members m join auth.users au on au.id = m.user_id
           where m.workspace_id = w.id and m.role = 'owner'
           order by m.created_at, m.user_id
           limit 1) as owner_email,
         used.requests, used.tokens, used.denied, used.failures,
         s.requests_per_day, s.tokens_per_day, (internal.now() at time zone 'utc')::date
    from used
    join public.workspaces w on w.id = used.workspace_id
    cross join public.ai_settings s
   order by used.tokens desc, used.requests desc, w.name, w.id
   limit least(greatest(coalesce(p_limit, 200), 1), 1000)
$$;
comment on function public.admin_ai_usage(integer) is
  'Admin: every workspace''s AI requests, tokens, refusals and failures today (UTC), all its members together, heaviest first, with its owner''s e-mail and the daily limits.';
revoke execute on function public.admin_ai_usage(integer) from public, anon, authenticated;

create or replace function public.admin_clear_logs()
returns bigint
language sql
security definer
set search_path = ''
as $$
  with cleared as (delete from public.system_logs where true returning 1)
  select count(*) from cleared
$$;
comment on function public.admin_clear_logs() is
  'Admin Clear Logs: deletes every system log line; returns how many.';
revoke execute on function public.admin_clear_logs() from public, anon, authenticated;

create or replace function public.admin_dashboard_stats()
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'users', (
      select jsonb_build_object(
        'total', count(*),
        'active', count(*) filter (where internal.admin_user_status(u.banned_until, u.last_sign_in_at) = 'active'),
        'trial', count(*) filter (where p.subscription_status = 'trialing'),
        'paid', count(*) filter (where p.subscription_status in ('active', 'past_due')))
        from auth.users u left join public.user_profiles p on p.id = u.id
       where u.deleted_at is null),
    'campaigns', (
      select jsonb_build_object(
        'total', count(*),
        'active', count(*) filter (where c.status in ('queued', 'running', 'active')),
        'paused', count(*) filter (where c.status = 'paused'),
        'completed', count(*) filter (where c.status = 'completed'))
        from public.campaigns c),
    'accounts', (
      select jsonb_build_object(
        'total', count(*),
        'verified', count(*) filter (where a.status = 'active'),
        'warming', count(*) filter (where a.warmup_phase < 5 and a.status in ('active', 'paused', 'testing')),
        'flagged', count(*) filter (where a.status = 'flagged'))
        from public.social_accounts a),
    'system', (
      select jsonb_build_object(
        'uptime', coalesce((select max(h.uptime_seconds) from public.runner_heartbeats h
                             where internal.runner_process_status(h.status, h.last_seen_at) = 'running'), 0),
        'activeWorkers', (select count(*) from public.runner_heartbeats h
                           where internal.runner_process_status(h.status, h.last_seen_at) = 'running'),
        'errorRate', coalesce((
          select round(100.0 * count(*) filter (where j.state = 'failed') / nullif(count(*), 0), 1)
            from pgboss.job j
           where j.state in ('completed', 'failed') and j.completed_on > now() - interval '24 hours'
             and j.name not like '\_\_pgboss%'), 0))))
$$;
comment on function public.admin_dashboard_stats() is
  'Admin Overview cards: users (active = signed in within 30 days; trial and paid from the profile''s subscription), DM campaigns, social accounts (verified = active, warming = phase < 5, flagged), and the system (longest runner uptime in s, live runners, % of jobs failed in 24 h).';
revoke execute on function public.admin_dashboard_stats() from public, anon, authenticated;

create or replace function public.admin_queue_detail(p_name text, p_limit integer default 20)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'name', q.name,
    'policy', q.policy,
    'retryLimit', coalesce(q.retry_limit, 2),
    'retryDelaySeconds', coalesce(q.retry_delay, 0),
    'retryBackoff', coalesce(q.retry_backoff, false),
    'expireSeconds', q.expire_seconds,
    'paused', p.name is not null,
    'pausedAt', p.paused_at,
    'pausedBy', (select u.email from auth.users u where u.id = p.paused_by),
    'recentJobs', coalesce((
      select jsonb_agg(x order by x.created_on desc)
        from (select j.id, j.state::text as state, j.created_on, j.started_on, j.completed_on, j.start_after,
                     j.retry_count, j.retry_limit, j.singleton_key, j.data,
                     case when j.state = 'failed' then coalesce(j.output ->> 'message', j.output -> 'value' ->> 'message') end as error
                from pgboss.job j
               where j.name = q.name
               order by j.created_on desc
               limit least(greatest(coalesce(p_limit, 20), 1), 100)) x), '[]'::jsonb))
    from pgboss.queue q
    left join public.paused_queues p on p.name = q.name
   where q.name = p_name and q.name not like '\_\_pgboss%'
$$;
comment on function public.admin_queue_detail(text, integer) is
  'Admin queue Details: the queue''s retry and expiry settings, whether it is paused and by whom, and its newest jobs. Null for an unknown queue.';
revoke execute on function public.admin_queue_detail(text, integer) from public, anon, authenticated;

create or replace function public.admin_queue_overview()
returns table(name text, paused boolean, pending bigint, active bigint, completed bigint, failed bigint, retrying bigint, rate_per_minute numeric)
language plpgsql
stable security definer
set search_path = ''
as $$
begin
  perform internal.assert_admin();
  return query
    select q.name,
           exists (select 1 from public.paused_queues p where p.name = q.name),
           count(j.id) filter (where j.state = 'created'),
           count(j.id) filter (where j.state = 'active'),
           count(j.id) filter (where j.state = 'completed'),
           count(j.id) filter (where j.state = 'failed'),
           count(j.id) filter (where j.state = 'retry'),
           round(count(j.id) filter (where j.state = 'completed' and j.completed_on > now() - interval '1 hour') / 60.0, 2)
      from pgboss.queue q
      left join pgboss.job j on j.name = q.name
     where q.name not like '\_\_pgboss%'
     group by q.name
     order by q.name;
end
$$;
comment on function public.admin_queue_overview() is
  'Admin Queues tab: per queue, paused or not, jobs by state (pending = created, retrying = retry) and completions per minute over the last hour.';
revoke execute on function public.admin_queue_overview() from public, anon, authenticated;

create or replace function public.admin_queue_stats()
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'totalJobs', count(*),
    'activeJobs', count(*) filter (where j.state = 'active'),
    'failedJobs', count(*) filter (where j.state = 'failed'),
    'jobsPerHour', count(*) filter (where j.state in ('completed', 'failed') and j.completed_on > now() - interval '1 hour'))
    from pgboss.job j
   where j.name not like '\_\_pgboss%'
$$;
comment on function public.admin_queue_stats() is
  'Admin Queues totals: jobs held, active, failed, and jobs finished (completed or failed) in the last hour.';
revoke execute on function public.admin_queue_stats() from public, anon, authenticated;

create or replace function public.admin_recent_activity(p_limit integer default 5)
returns table(id text, description text, "timestamp" timestamp with time zone, type text, status text)
language sql
stable security definer
set search_path = ''
as $$
  with lim as (select least(greatest(coalesce(p_limit, 5), 1), 50) as n),
  events (id, description, at, type, status) as (
    (select 'user:' || u.id, 'New user signed up: ' || u.email, u.created_at, 'user', 'success'
       from auth.users u where u.deleted_at is null order by u.created_at desc limit (select n from lim))
    union all
    (select 'subscription:' || s.id || ':' || s.status, u.email || ' ' || case s.status
              when 'trialing' then 'started a ' || s.plan_type || ' trial'
              when 'active' then 'subscribed to ' || s.plan_type
              when 'past_due' then 'has a ' || s.plan_type || ' payment past due'
              when 'canceled' then 'canceled ' || s.plan_type
              else 'has an incomplete ' || s.plan_type || ' checkout' end,
            case s.status when 'canceled' then coalesce(s.canceled_at, s.updated_at) when 'past_due' then s.updated_at
                          else s.created_at end,
            'subscription',
            case s.status when 'active' then 'success' when 'trialing' then 'pending' when 'past_due' then 'warning' else 'inactive' end
       from public.subscriptions s join auth.users u on u.id = s.user_id
      order by s.updated_at desc limit (select n from lim))
    union all
    (select 'campaign:' || c.id || ':' || c.status, 'Campaign "' || c.name || '" ' || case c.status
              when 'completed' then 'completed'
              when 'paused' then 'paused'
              when 'error' then 'stopped with an error' || coalesce(': ' || c.error_message, '')
              when 'failed' then 'failed' || coalesce(': ' || c.error_message, '')
              when 'draft' then 'created'
              else 'started' end,
            coalesce(case c.status when 'completed' then c.completed_at when 'paused' then c.paused_at
                                   when 'draft' then c.created_at when 'error' then c.updated_at when 'failed' then c.updated_at
                                   else c.started_at end, c.updated_at),
            'campaign', c.status
       from public.campaigns c order by c.updated_at desc limit (select n from lim))
    union all
    -- Accounts: when one was connected. Status changes are not timed (counters and warm-up touch
    -- updated_at all day); the runner's warnings below say when an account was flagged or paused.
    (select 'account:' || a.id, '@' || a.username || ' (' || p.display_name || ') was connected', a.created_at,
            'account', 'success'
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      order by a.created_at desc limit (select n from lim))
    union all
    (select 'job:' || j.id, 'Job ' || j.name || ' failed' || coalesce(': ' || coalesce(j.output ->> 'message', j.output -> 'value' ->> 'message'), ''),
            j.completed_on, 'job', 'failed'
       from pgboss.job j where j.state = 'failed' and j.name not like '\_\_pgboss%'
      order by j.completed_on desc limit (select n from lim))
    union all
    (select 'command:' || c.id, initcap(c.command) || ' requested for runner ' || coalesce(c.runner_id, 'all runners'),
            c.created_at, 'system', case c.status when 'done' then 'completed' else c.status end
       from public.runner_commands c order by c.created_at desc limit (select n from lim))
    union all
    (select 'log:' || l.id, initcap(l.service) || ': ' || l.message, l.created_at, 'system',
            case l.level when 'error' then 'error' else 'warning' end
       from public.system_logs l where l.level in ('error', 'warn') order by l.created_at desc limit (select n from lim))
  )
  select e.id, e.description, e.at, e.type, e.status
    from events e where e.at is not null order by e.at desc limit (select n from lim)
$$;
comment on function public.admin_recent_activity(integer) is
  'Admin Recent Activity: the newest sign-ups, subscription changes, campaign changes, connected accounts, failed jobs, runner commands, and warnings and errors from the logs.';
revoke execute on function public.admin_recent_activity(integer) from public, anon, authenticated;

create or replace function public.admin_request_runner_command(p_runner_id text, p_command text, p_by uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  command_id uuid;
begin
  if not exists (select 1 from public.runner_heartbeats h where h.runner_id = p_runner_id) then
    return null;
  end if;
  -- One open command per runner and kind: pressing Restart twice asks once.
  select c.id into command_id from public.runner_commands c
   where c.runner_id = p_runner_id and c.command = p_command and c.status in ('pending', 'acknowledged')
   order by c.created_at desc limit 1;
  if command_id is null then
    insert into public.runner_commands (runner_id, command, requested_by)
    values (p_runner_id, p_command, p_by)
    returning id into command_id;
  end if;
  return command_id;
end
$$;
comment on function public.admin_request_runner_command(text, text, uuid) is
  'Admin Restart / Kill: asks one runner to restart or stop (the runner acts on it within a heartbeat). Null for an unknown runner.';
revoke execute on function public.admin_request_runner_command(text, text, uuid) from public, anon, authenticated;

create or replace function public.admin_retry_stats()
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'failedJobs', count(*) filter (where j.state = 'failed'),
    'retryingJobs', count(*) filter (where j.state = 'retry'),
    'maxRetriesJobs', count(*) filter (where j.state = 'failed'
      and j.retry_count + case when j.started_on is not null then 1 else 0 end
          >= coalesce(q.retry_limit, 2) + 1 + internal.admin_manual_retries()),
    'successRate', coalesce(round(100.0 * count(*) filter (where j.state = 'completed' and j.completed_on > now() - interval '24 hours')
      / nullif(count(*) filter (where j.state in ('completed', 'failed') and j.completed_on > now() - interval '24 hours'), 0), 1), 100))
    from pgboss.job j
    left join pgboss.queue q on q.name = j.name
   where j.name not like '\_\_pgboss%'
$$;
comment on function public.admin_retry_stats() is
  'Admin Retries cards: failed, waiting to retry, failed for good (no retries left), and the share of jobs finished in 24 h that completed (100 when none finished).';
revoke execute on function public.admin_retry_stats() from public, anon, authenticated;

create or replace function public.admin_runner_processes()
returns table(name text, pid integer, status text, cpu numeric, memory numeric, uptime integer, host text, memory_percent numeric, load_average numeric[], current_jobs jsonb, version text, started_at timestamp with time zone, last_seen_at timestamp with time zone, pending_command text)
language sql
stable security definer
set search_path = ''
as $$
  -- Runners seen in the last 15 minutes; older rows are history (a restarted runner may come back
  -- under a new id).
  select h.runner_id, h.pid, internal.runner_process_status(h.status, h.last_seen_at),
         coalesce(h.cpu_percent, 0), coalesce(h.memory_mb, 0), h.uptime_seconds, h.host, h.memory_percent,
         h.load_average, h.current_jobs, h.version, h.started_at, h.last_seen_at,
         (select c.command from public.runner_commands c
           where c.runner_id = h.runner_id and c.status in ('pending', 'acknowledged') and c.created_at > h.started_at
           order by c.created_at desc limit 1)
    from public.runner_heartbeats h
   where h.last_seen_at > now() - interval '15 minutes'
   order by h.host, h.runner_id
$$;
comment on function public.admin_runner_processes() is
  'Admin Server Processes: runners seen in the last 15 minutes with their status from heartbeat age and any restart/stop still under way.';
revoke execute on function public.admin_runner_processes() from public, anon, authenticated;

create or replace function public.admin_set_account_sending(p_account_id uuid, p_paused boolean, p_until timestamp with time zone default null::timestamp with time zone)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  current_status text;
begin
  select a.status into current_status from public.social_accounts a where a.id = p_account_id for update;
  if current_status is null then
    return 'not_found';
  end if;
  if p_paused then
    -- Only a usable (or flagged) account has sending to pause; paused_until null = until resumed
    -- (the scheduler only lifts pauses whose time has come).
    if current_status not in ('active', 'flagged', 'paused') then
      return 'not_allowed';
    end if;
    update public.social_accounts set status = 'paused', paused_until = p_until where id = p_account_id;
    return 'paused';
  end if;
  if current_status not in ('paused', 'flagged') then
    return 'not_allowed';
  end if;
  update public.social_accounts set status = 'active', paused_until = null, flag_reason = null where id = p_account_id;
  return 'resumed';
end
$$;
comment on function public.admin_set_account_sending(uuid, boolean, timestamp with time zone) is
  'Admin Manage: pauses an active or flagged account (until p_until, or until resumed) or resumes a paused or flagged one. Returns paused, resumed, not_found or not_allowed.';
revoke execute on function public.admin_set_account_sending(uuid, boolean, timestamp with time zone) from public, anon, authenticated;

create or replace function public.admin_set_queue_paused(p_name text, p_paused boolean, p_by uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pgboss.queue q where q.name = p_name and q.name not like '\_\_pgboss%') then
    return false;
  end if;
  if p_paused then
    insert into public.paused_queues (name, paused_by) values (p_name, p_by) on conflict (name) do nothing;
  else
    delete from public.paused_queues p where p.name = p_name;
  end if;
  return true;
end
$$;
comment on function public.admin_set_queue_paused(text, boolean, uuid) is
  'Pauses (the runner stops fetching its jobs) or resumes a queue; idempotent. False for an unknown queue.';
revoke execute on function public.admin_set_queue_paused(text, boolean, uuid) from public, anon, authenticated;

create or replace function public.admin_social_account_detail(p_account_id uuid)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', a.id,
    'username', a.username,
    'platform_name', pl.name,
    'platformDisplayName', pl.display_name,
    'userEmail', u.email,
    'status', a.status,
    'flagReason', a.flag_reason,
    'pausedUntil', a.paused_until,
    'warmupPhase', a.warmup_phase,
    'warmupStartedAt', a.warmup_started_at,
    'trustScore', a.trust_score,
    'dailyMessageLimit', a.daily_message_limit,
    -- today's allowance and count as the runner and the scheduler keep them
    'allowedToday', internal.account_daily_cap(a, pl),
    'messagesSentToday', internal.account_sent_today(a, internal.now()),
    'requestsPending', a.requests_pending,
    'lastLogin', a.last_login_at,
    'lastSyncedAt', a.last_synced_at,
    'lastTestedAt', a.last_tested_at,
    'createdAt', a.created_at,
    'campaigns', coalesce((
      select jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name, 'status', c.status, 'messages_sent', c.messages_sent)
             order by c.created_at desc)
        from public.campaigns c where c.account_id = a.id), '[]'::jsonb),
    'recentMessages', coalesce((
      select jsonb_agg(x order by x.sent_at desc)
        from (select d.id, d.status, d.target_username, d.error, d.sent_at
                from public.dm_logs d where d.account_id = a.id order by d.sent_at desc limit 10) x), '[]'::jsonb))
    from public.social_accounts a
    join public.platforms pl on pl.id = a.platform_id
    join auth.users u on u.id = a.user_id
   where a.id = p_account_id
$$;
comment on function public.admin_social_account_detail(uuid) is
  'Admin Manage: an account''s status, flag, pause, warm-up, trust, today''s sends and allowance (internal.account_daily_cap), its campaigns and latest messages. Null for an unknown account.';
revoke execute on function public.admin_social_account_detail(uuid) from public, anon, authenticated;

create or replace function public.admin_social_accounts(p_limit integer default 500)
returns table(id uuid, username text, platform_name text, user_email text, status text, warmup_phase integer, trust_score numeric, last_login timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  select a.id, a.username, p.name, u.email::text, a.status, a.warmup_phase, a.trust_score, a.last_login_at
    from public.social_accounts a
    join public.platforms p on p.id = a.platform_id
    join auth.users u on u.id = a.user_id
   order by a.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_social_accounts(integer) is
  'Admin Accounts table: every connected account with warm-up phase and trust score, newest first.';
revoke execute on function public.admin_social_accounts(integer) from public, anon, authenticated;

create or replace function public.admin_system_hosts()
returns table(host text, role text, cpu_percent numeric, memory_percent numeric, load_average numeric[], runners integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  db jsonb := internal.database_host_metrics();
begin
  -- Runner hosts report their runners' CPU (summed, a floor for the host's), memory % and load.
  return query
    select h.host, 'runner'::text, least(sum(coalesce(h.cpu_percent, 0)), 100), max(h.memory_percent),
           (select l.load_average from public.runner_heartbeats l
             where l.host = h.host and l.load_average is not null order by l.last_seen_at desc limit 1),
           count(*)::integer
      from public.runner_heartbeats h
     where internal.runner_process_status(h.status, h.last_seen_at) in ('running', 'stopping')
     group by h.host;
  if db is not null then
    return query
      select db ->> 'host', 'database'::text, (db ->> 'cpuPercent')::numeric, (db ->> 'memoryPercent')::numeric,
             array(select jsonb_array_elements_text(db -> 'loadAverage')::numeric), 0;
  end if;
end
$$;
comment on function public.admin_system_hosts() is
  'Admin system info per host: live runner hosts (from heartbeats) and the database host (from /proc where readable).';
revoke execute on function public.admin_system_hosts() from public, anon, authenticated;

create or replace function public.admin_user_detail(p_user_id uuid)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id,
    'email', u.email,
    'fullName', coalesce(p.full_name, u.raw_user_meta_data ->> 'full_name'),
    'businessName', p.business_name,
    'isAdmin', coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
    'status', internal.admin_user_status(u.banned_until, u.last_sign_in_at),
    'subscriptionStatus', coalesce(p.subscription_status, 'none'),
    'subscriptionPlan', coalesce(p.subscription_plan, 'free'),
    'onboardingCompleted', coalesce(p.onboarding_completed, false),
    'createdAt', u.created_at,
    'lastSignInAt', u.last_sign_in_at,
    'subscriptions', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', s.id, 'status', s.status, 'planType', s.plan_type, 'billingPeriod', s.billing_period,
               'accountsPurchased', s.accounts_purchased, 'currentPeriodStart', s.current_period_start,
               'currentPeriodEnd', s.current_period_end, 'cancelAtPeriodEnd', s.cancel_at_period_end,
               'trialEnd', s.trial_end, 'createdAt', s.created_at) order by s.created_at desc)
        from public.subscriptions s where s.user_id = u.id), '[]'::jsonb),
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', a.id, 'username', a.username, 'platform_name', pl.name, 'status', a.status,
               'warmup_phase', a.warmup_phase, 'trust_score', a.trust_score, 'last_login', a.last_login_at)
             order by a.created_at desc)
        from public.social_accounts a join public.platforms pl on pl.id = a.platform_id where a.user_id = u.id), '[]'::jsonb),
    'campaigns', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', c.id, 'name', c.name, 'status', c.status, 'messages_sent', c.messages_sent,
               'target_count', c.target_count, 'response_count', c.response_count, 'started_at', c.started_at)
             order by c.created_at desc)
        from public.campaigns c where c.user_id = u.id), '[]'::jsonb),
    'payments', coalesce((
      select jsonb_agg(x order by x.created_at desc)
        from (select py.id, py.amount, py.currency, py.status, py.description, py.created_at
                from public.payments py where py.user_id = u.id order by py.created_at desc limit 5) x), '[]'::jsonb))
    from auth.users u
    left join public.user_profiles p on p.id = u.id
   where u.id = p_user_id and u.deleted_at is null
$$;
comment on function public.admin_user_detail(uuid) is
  'Admin View Details: a user''s profile, subscriptions, social accounts, campaigns and 5 latest payments. Null for an unknown user.';
revoke execute on function public.admin_user_detail(uuid) from public, anon, authenticated;

create or replace function public.admin_users(p_limit integer default 500)
returns table(id uuid, email text, subscription_status text, account_count integer, campaign_count integer, status text)
language sql
stable security definer
set search_path = ''
as $$
  select u.id, u.email::text, coalesce(p.subscription_status, 'none'),
         (select count(*)::integer from public.social_accounts a where a.user_id = u.id),
         (select count(*)::integer from public.campaigns c where c.user_id = u.id),
         internal.admin_user_status(u.banned_until, u.last_sign_in_at)
    from auth.users u
    left join public.user_profiles p on p.id = u.id
   where u.deleted_at is null
   order by u.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_users(integer) is
  'Admin Users table: newest first, with subscription status and account and campaign counts.';
revoke execute on function public.admin_users(integer) from public, anon, authenticated;

create or replace function public.admin_workspace_detail(p_workspace_id uuid)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', w.id,
    'name', w.name,
    'personal', w.id = w.created_by,
    'planType', w.subscription_plan,
    'subscriptionStatus', w.subscription_status,
    'sends', internal.workspace_sends(w),
    'stripeCustomerId', w.stripe_customer_id,
    'accountsUsed', (select count(*)::integer from public.social_accounts a where a.workspace_id = w.id),
    'accountLimit', (select l.account_limit from internal.account_limit(w.id) l),
    'createdAt', w.created_at,
    'members', coalesce((
      select jsonb_agg(jsonb_build_object(
               'userId', m.user_id, 'email', u.email, 'fullName', nullif(btrim(p.full_name), ''),
               'role', m.role, 'joinedAt', m.created_at)
             order by m.role, lower(u.email::text))
        from public.workspace_members m
        join auth.users u on u.id = m.user_id
        left join public.user_profiles p on p.id = m.user_id
       where m.workspace_id = w.id), '[]'::jsonb))
    from public.workspaces w
   where w.id = p_workspace_id
$$;
comment on function public.admin_workspace_detail(uuid) is
  'Admin workspace detail: its plan, whether it sends, accounts used against its limit, and every member with their role (owners first). Null for an unknown workspace.';
revoke execute on function public.admin_workspace_detail(uuid) from public, anon, authenticated;

create or replace function public.admin_workspaces(p_limit integer default 500)
returns table(id uuid, name text, owner_email text, member_count integer, roles jsonb, plan_type text, subscription_status text, accounts_used integer, account_limit integer, created_at timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  select w.id, w.name,
         (select u.email::text from public.workspace_members o join auth.users u on u.id = o.user_id
           where o.workspace_id = w.id and o.role = 'owner' order by o.created_at, o.user_id limit 1),
         (select count(*)::integer from public.workspace_members m where m.workspace_id = w.id),
         (select coalesce(jsonb_object_agg(r.role, r.members), '{}'::jsonb)
            from (select m.role, count(*)::integer as members from public.workspace_members m
                   where m.workspace_id = w.id group by m.role) r),
         w.subscription_plan, w.subscription_status,
         (select count(*)::integer from public.social_accounts a where a.workspace_id = w.id),
         (select l.account_limit from internal.account_limit(w.id) l),
         w.created_at
    from public.workspaces w
   order by w.created_at desc, w.id
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_workspaces(integer) is
  'Admin Workspaces table: newest first, with the owner, members per role, plan and status, and accounts used against the limit.';
revoke execute on function public.admin_workspaces(integer) from public, anon, authenticated;
