-- AI writing: the daily budget per customer and its use.

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
  'The one row of AI budget settings: how many AI requests and tokens each customer may use per UTC day.';

create table public.ai_usage (
  user_id uuid not null,
  day date not null,
  requests integer not null default 0,
  tokens integer not null default 0,
  denied integer not null default 0,
  failures integer not null default 0,
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint ai_usage_pkey primary key (user_id, day),
  constraint ai_usage_denied_check check ((denied >= 0)),
  constraint ai_usage_failures_check check ((failures >= 0)),
  constraint ai_usage_requests_check check ((requests >= 0)),
  constraint ai_usage_tokens_check check ((tokens >= 0)),
  constraint ai_usage_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint ai_usage_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.ai_usage is
  'AI use per customer and UTC day: requests and tokens reserved or used, calls refused by the budget (denied) and calls that failed (failures, the feature fell back).';
comment on column public.ai_usage.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create index ai_usage_day_idx on public.ai_usage (day);
create index ai_usage_workspace_id_idx on public.ai_usage (workspace_id);

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

create or replace function public.ai_reserve(p_user_id uuid, p_tokens integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  today date := (internal.now() at time zone 'utc')::date;
  limits public.ai_settings;
  usage public.ai_usage;
begin
  if p_user_id is null or p_tokens is null or p_tokens < 1 then
    raise exception 'ai_reserve needs a user and a positive token estimate' using errcode = '22023';
  end if;
  select * into limits from public.ai_settings where id;
  insert into public.ai_usage (user_id, day) values (p_user_id, today) on conflict do nothing;
  -- one statement: the row lock makes concurrent reservations queue and re-check the limits
  update public.ai_usage u
     set requests = u.requests + 1, tokens = u.tokens + p_tokens, updated_at = now()
   where u.user_id = p_user_id and u.day = today
     and u.requests + 1 <= limits.requests_per_day
     and u.tokens + p_tokens <= limits.tokens_per_day
  returning * into usage;
  if found then
    return jsonb_build_object('allowed', true, 'day', today, 'requests', usage.requests, 'tokens', usage.tokens,
      'requestLimit', limits.requests_per_day, 'tokenLimit', limits.tokens_per_day);
  end if;
  update public.ai_usage u set denied = u.denied + 1, updated_at = now()
   where u.user_id = p_user_id and u.day = today
  returning * into usage;
  return jsonb_build_object('allowed', false, 'day', today, 'requests', usage.requests, 'tokens', usage.tokens,
    'requestLimit', limits.requests_per_day, 'tokenLimit', limits.tokens_per_day);
end
$$;
comment on function public.ai_reserve(uuid, integer) is
  'Reserves one AI request and p_tokens tokens of the customer''s budget for today (UTC), atomically. {allowed: false} (and denied + 1) when that would pass a daily limit.';
revoke execute on function public.ai_reserve(uuid, integer) from public, anon, authenticated;
grant execute on function public.ai_reserve(uuid, integer) to reachflow_runner;

create or replace function public.ai_settle(p_user_id uuid, p_day date, p_reserved integer, p_used integer, p_failed boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.ai_usage u
     set tokens = greatest(0, u.tokens - greatest(p_reserved, 0) + greatest(p_used, 0)),
         failures = u.failures + case when p_failed then 1 else 0 end,
         updated_at = now()
   where u.user_id = p_user_id and u.day = p_day
$$;
comment on function public.ai_settle(uuid, date, integer, integer, boolean) is
  'After an AI call: replaces the reserved token estimate with the tokens the endpoint reported, and counts a failed call.';
revoke execute on function public.ai_settle(uuid, date, integer, integer, boolean) from public, anon, authenticated;
grant execute on function public.ai_settle(uuid, date, integer, integer, boolean) to reachflow_runner;
