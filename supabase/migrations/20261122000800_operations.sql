-- What the admin tab shows about the running system: runner heartbeats (one row per runner process),
-- commands to runners (restart, stop), system logs, and paused queues (the runner does not fetch
-- jobs of a paused queue). Only admins read these through the client; the admin function and the
-- runner write them.

-- Tables ---------------------------------------------------------------------------------------

create table public.runner_heartbeats (
  runner_id text primary key check (char_length(runner_id) between 1 and 200),
  host text not null,
  pid integer not null check (pid > 0),
  version text,
  cpu_percent numeric(6, 2) check (cpu_percent >= 0),
  memory_mb numeric(12, 2) check (memory_mb >= 0),
  memory_percent numeric(5, 2) check (memory_percent between 0 and 100),
  load_average numeric[],
  uptime_seconds integer not null default 0 check (uptime_seconds >= 0),
  current_jobs jsonb not null default '[]'::jsonb check (jsonb_typeof(current_jobs) = 'array'),
  status text not null default 'running' check (status in ('running', 'stopping', 'stopped')),
  started_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now()
);

create index runner_heartbeats_last_seen_at_idx on public.runner_heartbeats (last_seen_at desc);

comment on table public.runner_heartbeats is
  'One row per runner process, refreshed every few seconds. A runner not seen for a minute is down.';
comment on column public.runner_heartbeats.current_jobs is 'Jobs the runner is working now: [{id, name, accountId, startedAt}].';

create table public.runner_commands (
  id uuid primary key default gen_random_uuid(),
  runner_id text,
  command text not null check (command in ('restart', 'stop')),
  status text not null default 'pending' check (status in ('pending', 'acknowledged', 'done', 'failed')),
  requested_by uuid references auth.users (id) on delete set null,
  result text,
  created_at timestamptz not null default now(),
  acknowledged_at timestamptz,
  completed_at timestamptz
);

create index runner_commands_pending_idx on public.runner_commands (created_at) where status = 'pending';

comment on table public.runner_commands is 'Restart and stop requests from the admin tab. runner_id null = every runner.';

create table public.system_logs (
  id bigint generated always as identity primary key,
  level text not null check (level in ('error', 'warn', 'info', 'debug')),
  service text not null check (char_length(service) between 1 and 50),
  message text not null,
  metadata jsonb,
  created_at timestamptz not null default now()
);

create index system_logs_created_at_idx on public.system_logs (created_at desc);
create index system_logs_level_created_at_idx on public.system_logs (level, created_at desc);
create index system_logs_service_created_at_idx on public.system_logs (service, created_at desc);

comment on table public.system_logs is 'Operational log lines (scheduler, runner, warmup, api, instagram, twitter) for the admin Logs tab.';

create table public.paused_queues (
  name text primary key,
  paused_by uuid references auth.users (id) on delete set null,
  paused_at timestamptz not null default now()
);

comment on table public.paused_queues is 'Job queues an admin paused: the runner stops fetching their jobs until resumed.';

-- Policies -------------------------------------------------------------------------------------

alter table public.runner_heartbeats enable row level security;
alter table public.runner_commands enable row level security;
alter table public.system_logs enable row level security;
alter table public.paused_queues enable row level security;

create policy "Admins can read runner heartbeats"
  on public.runner_heartbeats for select to authenticated
  using ((select internal.is_admin()));
create policy "Admins can read runner commands"
  on public.runner_commands for select to authenticated
  using ((select internal.is_admin()));
create policy "Admins can read system logs"
  on public.system_logs for select to authenticated
  using ((select internal.is_admin()));
create policy "Admins can read paused queues"
  on public.paused_queues for select to authenticated
  using ((select internal.is_admin()));

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.runner_heartbeats, public.runner_commands, public.system_logs, public.paused_queues
  from anon, authenticated;
grant select on public.runner_heartbeats, public.runner_commands, public.system_logs, public.paused_queues
  to authenticated;
grant all on public.runner_heartbeats, public.runner_commands, public.system_logs, public.paused_queues
  to service_role;
