-- AI writing (issue 21 item 3): an optional OpenAI-compatible endpoint drafts messages, personalises
-- each DM at send time and scores scraped leads against an ideal-customer description. Every call
-- is paid for, so each customer has a daily budget of requests and tokens, reserved atomically
-- before a call (public.ai_reserve) and settled after it (public.ai_settle). The edge functions
-- (service role) and the runner call them; customers read their own usage, operators everyone's.

-- The budget --------------------------------------------------------------------------------------

create table public.ai_settings (
  id boolean primary key default true check (id),
  requests_per_day integer not null default 300 check (requests_per_day >= 0),
  tokens_per_day integer not null default 150000 check (tokens_per_day >= 0),
  updated_at timestamptz not null default now()
);
insert into public.ai_settings (id) values (true);

comment on table public.ai_settings is
  'The one row of AI budget settings: how many AI requests and tokens each customer may use per UTC day.';

create table public.ai_usage (
  user_id uuid not null references auth.users (id) on delete cascade,
  day date not null,
  requests integer not null default 0 check (requests >= 0),
  tokens integer not null default 0 check (tokens >= 0),
  denied integer not null default 0 check (denied >= 0),
  failures integer not null default 0 check (failures >= 0),
  updated_at timestamptz not null default now(),
  primary key (user_id, day)
);
create index ai_usage_day_idx on public.ai_usage (day);

comment on table public.ai_usage is
  'AI use per customer and UTC day: requests and tokens reserved or used, calls refused by the budget (denied) and calls that failed (failures, the feature fell back).';

alter table public.ai_settings enable row level security;
alter table public.ai_usage enable row level security;

create policy "Signed-in users can read the AI budget" on public.ai_settings
  for select to authenticated using (true);
create policy "Users can read their own AI usage" on public.ai_usage
  for select to authenticated using (user_id = (select auth.uid()) or (select internal.is_admin()));

revoke all on public.ai_settings, public.ai_usage from anon, authenticated;
grant select on public.ai_settings, public.ai_usage to authenticated;
grant all on public.ai_settings, public.ai_usage to service_role;
grant select on public.ai_settings, public.ai_usage to reachflow_runner;

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

create or replace function public.ai_settle(
  p_user_id uuid, p_day date, p_reserved integer, p_used integer, p_failed boolean
)
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

revoke execute on function public.ai_reserve(uuid, integer) from public, anon, authenticated;
revoke execute on function public.ai_settle(uuid, date, integer, integer, boolean) from public, anon, authenticated;
grant execute on function public.ai_reserve(uuid, integer) to service_role, reachflow_runner;
grant execute on function public.ai_settle(uuid, date, integer, integer, boolean) to service_role, reachflow_runner;

-- Per-lead personalisation ------------------------------------------------------------------------

alter table public.campaigns add column ai_personalization boolean not null default false;
comment on column public.campaigns.ai_personalization is
  'When true the runner asks the AI endpoint to personalise each DM from the lead''s name, bio and posts; any failure sends the template.';
grant insert (ai_personalization), update (ai_personalization) on public.campaigns to authenticated;

alter table public.dm_logs
  add column personalization text check (personalization in ('personalized', 'fallback')),
  add column personalization_note text check (char_length(personalization_note) <= 300);
comment on column public.dm_logs.personalization is
  'personalized: message_sent is the AI''s text; fallback: personalisation was on but failed, message_sent is the template (personalization_note says why); null: personalisation was off.';
grant update (personalization, personalization_note) on public.dm_logs to reachflow_runner;

-- AI lead filtering -------------------------------------------------------------------------------

alter table public.scraping_campaigns
  add column ai_ideal_customer text check (char_length(ai_ideal_customer) <= 1000),
  add column ai_min_score integer not null default 60 check (ai_min_score between 0 and 100);
comment on column public.scraping_campaigns.ai_ideal_customer is
  'When set, the runner scores each lead''s bio against it (0-100) and keeps leads scoring at least ai_min_score; leads it cannot score are kept unscored. The verdict is profile_data.ai.';
grant insert (ai_ideal_customer, ai_min_score), update (ai_ideal_customer, ai_min_score)
  on public.scraping_campaigns to authenticated;

alter table public.scraping_campaigns
  add column ai_kept integer not null default 0 check (ai_kept >= 0),
  add column ai_skipped integer not null default 0 check (ai_skipped >= 0),
  add column ai_unscored integer not null default 0 check (ai_unscored >= 0);
comment on column public.scraping_campaigns.ai_kept is 'Stored leads the AI scored at or above ai_min_score.';
comment on column public.scraping_campaigns.ai_skipped is 'Stored leads filtered out for an AI score below ai_min_score (filter_reason says the score and why).';
comment on column public.scraping_campaigns.ai_unscored is 'Stored leads the AI could not score (timeout, rate limit, budget, bad answer): kept, marked unscored.';
grant update (ai_kept, ai_skipped, ai_unscored) on public.scraping_campaigns to reachflow_runner;

-- Operators: each customer's AI use today -----------------------------------------------------------

create or replace function public.admin_ai_usage(p_limit integer default 200)
returns table (user_id uuid, email text, requests integer, tokens integer, denied integer, failures integer,
               request_limit integer, token_limit integer, day date)
language sql
stable
security definer
set search_path = ''
as $$
  select u.user_id, au.email::text, u.requests, u.tokens, u.denied, u.failures,
         s.requests_per_day, s.tokens_per_day, u.day
    from public.ai_usage u
    join auth.users au on au.id = u.user_id
    cross join public.ai_settings s
   where u.day = (internal.now() at time zone 'utc')::date
   order by u.tokens desc, u.requests desc, au.email
   limit least(greatest(coalesce(p_limit, 200), 1), 1000)
$$;
comment on function public.admin_ai_usage(integer) is
  'Admin: every customer''s AI requests, tokens, refusals and failures today (UTC), heaviest first, with the daily limits.';
revoke execute on function public.admin_ai_usage(integer) from public, anon, authenticated;
grant execute on function public.admin_ai_usage(integer) to service_role;
