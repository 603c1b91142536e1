-- The admin tab's view of the running system (spec §2 "Admin dashboard"): job queues and failed
-- jobs in pg-boss, runner processes from their heartbeats, host load, system logs, and the actions
-- on them (pause / resume a queue, retry / delete a failed job, restart / stop a runner, clear logs).
-- Every function here is for the admin edge function alone: security definer, executable by the
-- service role only. The function checks app_metadata.role = 'admin' before calling any of them.
--
-- Replaces the first admin queue functions (20261122001400): those counted a failed job's attempts
-- as pg-boss's retry_count against its retry_limit, which are always equal once pg-boss gives up,
-- so the Retries tab could never retry anything. Here attempts are the runs a job had and the most
-- attempts are the queue's automatic ones plus a small allowance of manual retries.

-- Helper functions -----------------------------------------------------------------------------

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

create or replace function internal.runner_process_status(p_status text, p_last_seen_at timestamptz)
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
comment on function internal.runner_process_status(text, timestamptz) is
  'A runner''s status from its heartbeat: running, stopping, unresponsive (no beat for 30 s) or stopped (none for 2 min).';

create or replace function internal.database_host_metrics()
returns jsonb
language plpgsql
volatile
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

-- RPCs: queues ---------------------------------------------------------------------------------

drop function if exists public.admin_failed_jobs(integer);
drop function if exists public.admin_retry_job(text, uuid);
drop function if exists public.admin_delete_job(text, uuid);

create or replace function public.admin_queue_stats()
returns jsonb
language sql
stable
security definer
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

create or replace function public.admin_queue_detail(p_name text, p_limit integer default 20)
returns jsonb
language sql
stable
security definer
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

-- RPCs: failed jobs ----------------------------------------------------------------------------

create or replace function public.admin_failed_jobs(p_limit integer default 100)
returns table (id uuid, queue text, failed_at timestamptz, attempts integer, max_attempts integer, error text, data jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select j.id, j.name, j.completed_on,
         j.retry_count + case when j.started_on is not null then 1 else 0 end,
         coalesce(q.retry_limit, 2) + 1 + internal.admin_manual_retries(),
         coalesce(j.output ->> 'message', j.output -> 'value' ->> 'message', j.output::text), j.data
    from pgboss.job j
    left join pgboss.queue q on q.name = j.name
   where j.state = 'failed' and j.name not like '\_\_pgboss%'
   order by j.completed_on desc nulls last
   limit least(greatest(coalesce(p_limit, 100), 1), 500)
$$;
comment on function public.admin_failed_jobs(integer) is
  'Admin Retries table: failed jobs, newest first. attempts = runs the job had; max_attempts = the queue''s automatic attempts plus internal.admin_manual_retries().';

create or replace function public.admin_retry_stats()
returns jsonb
language sql
stable
security definer
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

create or replace function public.admin_retry_job(p_job_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  job record;
  outcome text;
begin
  select j.name as queue, j.state, j.retry_count + case when j.started_on is not null then 1 else 0 end as attempts,
         coalesce(q.retry_limit, 2) + 1 + internal.admin_manual_retries() as max_attempts
    into job
    from pgboss.job j
    left join pgboss.queue q on q.name = j.name
   where j.id = p_job_id and j.name not like '\_\_pgboss%'
     for update of j;
  if not found then
    return jsonb_build_object('outcome', 'not_found');
  end if;
  if job.state <> 'failed' then
    outcome := 'not_failed';
  elsif job.attempts >= job.max_attempts then
    outcome := 'max_attempts';
  else
    -- Exactly pg-boss 10's retry(): back to 'retry' with one more attempt allowed; its start_after
    -- has passed, so the next fetch takes it.
    update pgboss.job j set state = 'retry', retry_limit = j.retry_limit + 1
     where j.name = job.queue and j.id = p_job_id and j.state = 'failed';
    outcome := 'retried';
  end if;
  return jsonb_build_object('outcome', outcome, 'queue', job.queue, 'attempts', job.attempts, 'maxAttempts', job.max_attempts);
end
$$;
comment on function public.admin_retry_job(uuid) is
  'Admin Retry: requeues a failed job as pg-boss retry() does. {outcome: retried | not_found | not_failed | max_attempts, queue, attempts, maxAttempts}.';

create or replace function public.admin_delete_job(p_job_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  job record;
begin
  select j.name as queue, j.state::text as state into job from pgboss.job j
   where j.id = p_job_id and j.name not like '\_\_pgboss%' for update;
  if not found then
    return jsonb_build_object('outcome', 'not_found');
  elsif job.state <> 'failed' then
    return jsonb_build_object('outcome', 'not_failed', 'queue', job.queue);
  end if;
  delete from pgboss.job j where j.name = job.queue and j.id = p_job_id and j.state = 'failed';
  return jsonb_build_object('outcome', 'deleted', 'queue', job.queue);
end
$$;
comment on function public.admin_delete_job(uuid) is
  'Admin Delete on the Retries tab: removes a failed job (pg-boss deleteJob()). {outcome: deleted | not_found | not_failed, queue}.';

-- RPCs: runners, hosts, logs -------------------------------------------------------------------

create or replace function public.admin_runner_processes()
returns table (name text, pid integer, status text, cpu numeric, memory numeric, uptime integer, host text,
               memory_percent numeric, load_average numeric[], current_jobs jsonb, version text,
               started_at timestamptz, last_seen_at timestamptz, pending_command text)
language sql
stable
security definer
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

create or replace function public.admin_system_hosts()
returns table (host text, role text, cpu_percent numeric, memory_percent numeric, load_average numeric[], runners integer)
language plpgsql
volatile
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

create or replace function public.admin_clear_logs()
returns bigint
language sql
security definer
set search_path = ''
as $$
  with cleared as (delete from public.system_logs returning 1)
  select count(*) from cleared
$$;
comment on function public.admin_clear_logs() is 'Admin Clear Logs: deletes every system log line; returns how many.';

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function internal.admin_manual_retries(), internal.runner_process_status(text, timestamptz),
  internal.database_host_metrics() from public;
revoke execute on function public.admin_queue_overview(), public.admin_queue_stats(), public.admin_queue_detail(text, integer),
  public.admin_set_queue_paused(text, boolean, uuid), public.admin_failed_jobs(integer), public.admin_retry_stats(),
  public.admin_retry_job(uuid), public.admin_delete_job(uuid), public.admin_runner_processes(), public.admin_system_hosts(),
  public.admin_request_runner_command(text, text, uuid), public.admin_clear_logs()
  from public, anon, authenticated;
grant execute on function public.admin_queue_overview(), public.admin_queue_stats(), public.admin_queue_detail(text, integer),
  public.admin_set_queue_paused(text, boolean, uuid), public.admin_failed_jobs(integer), public.admin_retry_stats(),
  public.admin_retry_job(uuid), public.admin_delete_job(uuid), public.admin_runner_processes(), public.admin_system_hosts(),
  public.admin_request_runner_command(text, text, uuid), public.admin_clear_logs()
  to service_role;
