-- AI writing: the daily budget per workspace and its use (by whom).

-- Tables ------------------------------------------------------------------------------------------

create table public.ai_settings (
  id boolean not null default true,
  requests_per_day integer not null default 300,
  tokens_per_day integer not null default 150000,
  updated_at timestamp with time zone not null default now(),
  constraint ai_settings_pkey primary key (id),
  constraint ai_settings_id_check check (id),
  constraint ai_settings_requests_per_day_check check ((requests_per_day >= 0)),
  constraint ai_settings_tokens_per_day_check check ((tokens_per_day >= 0))
);
comment on table public.ai_settings is
  'The one row of AI budget settings: how many AI requests and tokens each workspace (all its members together) may use per UTC day.';

create table public.ai_usage (
  user_id uuid not null,
  day date not null,
  requests integer not null default 0,
  tokens integer not null default 0,
  denied integer not null default 0,
  failures integer not null default 0,
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint ai_usage_pkey primary key (workspace_id, day, user_id),
  constraint ai_usage_denied_check check ((denied >= 0)),
  constraint ai_usage_failures_check check ((failures >= 0)),
  constraint ai_usage_requests_check check ((requests >= 0)),
  constraint ai_usage_tokens_check check ((tokens >= 0)),
  constraint ai_usage_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint ai_usage_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.ai_usage is
  'AI use per workspace, member and UTC day: requests and tokens reserved or used, calls refused by the budget (denied) and calls that failed (failures, the feature fell back). The workspace''s rows of a day together count against the daily budget.';
comment on column public.ai_usage.user_id is
  'Who used it: the member who drafted or previewed, or the creator of the campaign or scraping campaign the runner used it for.';
comment on column public.ai_usage.workspace_id is
  'The workspace the AI was used in, whose daily budget it counts against: ai_reserve always names it (the caller''s active workspace, or the campaign''s).';

-- Indexes -----------------------------------------------------------------------------------------

create index ai_usage_day_idx on public.ai_usage (day);

-- Triggers ----------------------------------------------------------------------------------------

create trigger ai_usage_fill_workspace_id before insert on public.ai_usage for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

-- Row-level security ------------------------------------------------------------------------------

alter table public.ai_settings enable row level security;

create policy "Signed-in users can read the AI budget" on public.ai_settings
  for select
  to authenticated
  using (true);

alter table public.ai_usage enable row level security;

create policy "Members and admins can read the workspace's AI usage" on public.ai_usage
  for select
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)) or ( select internal.is_admin() as is_admin)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.ai_settings from anon;
revoke insert, update, delete, truncate, references, trigger on public.ai_settings from authenticated;
grant select on public.ai_settings to reachflow_runner;

revoke all on public.ai_usage from anon;
revoke insert, update, delete, truncate, references, trigger on public.ai_usage from authenticated;
grant select on public.ai_usage to reachflow_runner;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.ai_reserve(p_workspace_id uuid, p_user_id uuid, p_tokens integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  today date := (internal.now() at time zone 'utc')::date;
  limits public.ai_settings;
  used_requests integer;
  used_tokens integer;
  allowed boolean;
begin
  if p_workspace_id is null or p_user_id is null or p_tokens is null or p_tokens < 1 then
    raise exception 'ai_reserve needs a workspace, a user and a positive token estimate' using errcode = '22023';
  end if;
  -- The budget is the workspace's, spread over its members' rows: reservations in one workspace
  -- queue on its row (no key update, so inserts that only reference the workspace never wait) and
  -- each re-reads the day's total once it holds the lock.
  perform 1 from public.workspaces w where w.id = p_workspace_id for no key update;
  if not found then
    raise exception 'ai_reserve needs an existing workspace' using errcode = '22023';
  end if;
  select * into limits from public.ai_settings where id;
  insert into public.ai_usage (workspace_id, user_id, day) values (p_workspace_id, p_user_id, today)
  on conflict do nothing;
  select coalesce(sum(u.requests), 0)::integer, coalesce(sum(u.tokens), 0)::integer
    into used_requests, used_tokens
    from public.ai_usage u
   where u.workspace_id = p_workspace_id and u.day = today;
  allowed := used_requests + 1 <= limits.requests_per_day and used_tokens + p_tokens <= limits.tokens_per_day;
  update public.ai_usage u
     set requests = u.requests + case when allowed then 1 else 0 end,
         tokens = u.tokens + case when allowed then p_tokens else 0 end,
         denied = u.denied + case when allowed then 0 else 1 end,
         updated_at = now()
   where u.workspace_id = p_workspace_id and u.user_id = p_user_id and u.day = today;
  if allowed then
    used_requests := used_requests + 1;
    used_tokens := used_tokens + p_tokens;
  end if;
  return jsonb_build_object('allowed', allowed, 'day', today, 'requests', used_requests, 'tokens', used_tokens,
    'requestLimit', limits.requests_per_day, 'tokenLimit', limits.tokens_per_day);
end
$$;
comment on function public.ai_reserve(uuid, uuid, integer) is
  'Reserves one AI request and p_tokens tokens of the workspace''s budget for today (UTC), booked to the member who uses it, atomically. {allowed: false} (and the member''s denied + 1) when the workspace''s use would pass a daily limit. The counts answered are the workspace''s.';
revoke execute on function public.ai_reserve(uuid, uuid, integer) from public, anon, authenticated;
grant execute on function public.ai_reserve(uuid, uuid, integer) to reachflow_runner;

create or replace function public.ai_settle(p_workspace_id uuid, p_user_id uuid, p_day date, p_reserved integer, p_used integer, p_failed boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.ai_usage u
     set tokens = greatest(0, u.tokens - greatest(p_reserved, 0) + greatest(p_used, 0)),
         failures = u.failures + case when p_failed then 1 else 0 end,
         updated_at = now()
   where u.workspace_id = p_workspace_id and u.user_id = p_user_id and u.day = p_day
$$;
comment on function public.ai_settle(uuid, uuid, date, integer, integer, boolean) is
  'After an AI call: replaces the reserved token estimate with the tokens the endpoint reported, and counts a failed call, on the row ai_reserve booked.';
revoke execute on function public.ai_settle(uuid, uuid, date, integer, integer, boolean) from public, anon, authenticated;
grant execute on function public.ai_settle(uuid, uuid, date, integer, integer, boolean) to reachflow_runner;
