-- Accounts: customer profiles, the platforms, connected social accounts with their sealed
-- credentials and proxies, the account limit and the avatars bucket's policies.

-- Tables ------------------------------------------------------------------------------------------

create table public.user_profiles (
  id uuid not null,
  full_name text,
  business_name text,
  avatar_url text,
  onboarding_completed boolean not null default false,
  post_onboarding boolean not null default false,
  onboarding_answers jsonb not null default '{}'::jsonb,
  subscription_status text not null default 'none'::text,
  subscription_plan text not null default 'free'::text,
  timezone text not null default 'UTC'::text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  active_workspace_id uuid,
  constraint user_profiles_pkey primary key (id),
  constraint user_profiles_avatar_url_check check ((char_length(avatar_url) <= 2048)),
  constraint user_profiles_business_name_check check ((char_length(business_name) <= 200)),
  constraint user_profiles_full_name_check check ((char_length(full_name) <= 200)),
  constraint user_profiles_onboarding_answers_check check ((jsonb_typeof(onboarding_answers) = 'object'::text)),
  constraint user_profiles_subscription_plan_check check ((subscription_plan = any (array['free'::text, 'starter'::text, 'growth'::text, 'enterprise'::text, 'bundle'::text]))),
  constraint user_profiles_subscription_status_check check ((subscription_status = any (array['none'::text, 'active'::text, 'trialing'::text, 'past_due'::text, 'canceled'::text, 'incomplete'::text]))),
  constraint user_profiles_timezone_check check (internal.is_valid_timezone(timezone)),
  constraint user_profiles_active_workspace_id_fkey foreign key (active_workspace_id) references public.workspaces(id) on delete set null,
  constraint user_profiles_id_fkey foreign key (id) references auth.users(id) on delete cascade
);
comment on table public.user_profiles is
  'One row per customer (id = auth.users.id), created at sign-up. Billing columns are written by the system only.';
comment on column public.user_profiles.onboarding_completed is
  'False shows the onboarding wizard; set true when the user starts checkout or finishes the wizard.';
comment on column public.user_profiles.post_onboarding is
  'False shows the "Complete Your Setup" modal after onboarding; true once done or dismissed.';
comment on column public.user_profiles.onboarding_answers is
  'Wizard answers: mainGoals, targetAudience, dailyMessageGoal, businessType, billingPeriod, selectedPlan, accountCount.';
comment on column public.user_profiles.subscription_status is
  'Mirror of the customer''s current subscription status (none if never subscribed). Maintained by a trigger on subscriptions.';
comment on column public.user_profiles.subscription_plan is
  'Mirror of the current plan (free without an active or trialing subscription). Maintained by a trigger on subscriptions.';
comment on column public.user_profiles.timezone is 'IANA time zone for "today" figures on the dashboard.';
comment on column public.user_profiles.active_workspace_id is
  'The workspace the person last switched to; what they see and create is that workspace''s (set by set_active_workspace).';

create table public.platforms (
  id uuid not null default gen_random_uuid(),
  name text not null,
  display_name text not null,
  is_active boolean not null default false,
  coming_soon boolean not null default true,
  daily_message_ceiling integer not null default 450,
  created_at timestamp with time zone not null default now(),
  constraint platforms_pkey primary key (id),
  constraint platforms_name_key unique (name),
  constraint platforms_daily_message_ceiling_check check (((daily_message_ceiling >= 1) and (daily_message_ceiling <= 1000))),
  constraint platforms_name_check check ((name ~ '^[a-z][a-z0-9_]{1,30}$'::text))
);
comment on table public.platforms is
  'Social networks the product knows. Only is_active and not coming_soon ones can be connected.';
comment on column public.platforms.daily_message_ceiling is
  'Most DMs one account may send per day on this platform, whatever the plan or campaign says (450).';

create table public.social_accounts (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  platform_id uuid not null,
  username text not null,
  platform_user_id text,
  status text not null default 'testing'::text,
  daily_message_limit integer not null default 50,
  messages_sent_today integer not null default 0,
  sent_today_on date,
  warmup_phase integer not null default 1,
  warmup_started_at timestamp with time zone not null default now(),
  warmup_step_on date,
  trust_score numeric(3,2) not null default 0.50,
  requests_pending integer not null default 0,
  last_login_at timestamp with time zone,
  last_synced_at timestamp with time zone,
  last_tested_at timestamp with time zone,
  proxy_url text,
  flag_reason text,
  paused_until timestamp with time zone,
  has_chat_passcode boolean not null default false,
  timezone text not null default 'UTC'::text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  connection text not null default 'browser'::text,
  inbox_order text[],
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint social_accounts_pkey primary key (id),
  constraint social_accounts_connection_check check ((connection = any (array['browser'::text, 'official'::text]))),
  constraint social_accounts_daily_message_limit_check check (((daily_message_limit >= 1) and (daily_message_limit <= 500))),
  constraint social_accounts_messages_sent_today_check check ((messages_sent_today >= 0)),
  constraint social_accounts_proxy_url_check check ((proxy_url ~ '^([a-z][a-z0-9+.-]*://)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}$'::text)),
  constraint social_accounts_requests_pending_check check ((requests_pending >= 0)),
  constraint social_accounts_status_check check ((status = any (array['active'::text, 'inactive'::text, 'error'::text, 'testing'::text, 'paused'::text, 'flagged'::text]))),
  constraint social_accounts_timezone_check check (internal.is_valid_timezone(timezone)),
  constraint social_accounts_trust_score_check check (((trust_score >= (0)::numeric) and (trust_score <= (1)::numeric))),
  constraint social_accounts_username_check check ((username ~ '^[A-Za-z0-9._]{1,64}$'::text)),
  constraint social_accounts_warmup_phase_check check (((warmup_phase >= 1) and (warmup_phase <= 5))),
  constraint social_accounts_platform_id_fkey foreign key (platform_id) references public.platforms(id),
  constraint social_accounts_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint social_accounts_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
) with (fillfactor=80);
comment on table public.social_accounts is
  'A customer''s connected X or Instagram account. Status, warm-up, trust and counters are set by the system.';
comment on column public.social_accounts.username is 'Handle without the leading @.';
comment on column public.social_accounts.status is
  'active = usable; testing = being checked after connect; paused = circuit breaker (see paused_until); flagged = the platform showed a stop signal (see flag_reason); error = login or session failed; inactive = switched off.';
comment on column public.social_accounts.daily_message_limit is
  'The customer''s own cap per day for this account (1-500, default 50).';
comment on column public.social_accounts.messages_sent_today is
  'DMs sent (or possibly sent) today in the account''s time zone; counts only while sent_today_on is that day.';
comment on column public.social_accounts.sent_today_on is 'The local day messages_sent_today belongs to.';
comment on column public.social_accounts.warmup_phase is
  'Warm-up ramp 1-4 (10, 20, 35, 50 DMs a day; one week each), 5 = warmed up. Advanced at local midnight.';
comment on column public.social_accounts.warmup_step_on is 'Local day the last warm-up step was queued.';
comment on column public.social_accounts.trust_score is
  'Health estimate 0-1 from the runner (shown as a percentage).';
comment on column public.social_accounts.requests_pending is
  'Message requests waiting in the account''s inbox at its last inbox read (an inbox.sync job or the read a campaign tick makes in its session).';
comment on column public.social_accounts.proxy_url is
  'The account''s own proxy as [scheme://]host:port; its login is sealed in social_account_credentials. One stable proxy per account.';
comment on column public.social_accounts.paused_until is
  'When a paused account may send again (circuit breaker).';
comment on column public.social_accounts.has_chat_passcode is
  'X only: the encrypted credentials include the 4-digit X Chat passcode.';
comment on column public.social_accounts.connection is
  'How the account is driven: browser = the runner signs in to the consumer site; official = the platform''s own API (Instagram API with Instagram Login, or X API v2) with OAuth tokens sealed in social_account_credentials.';
comment on column public.social_accounts.inbox_order is
  'The platform thread ids of the inbox list at the last inbox read, top first (at most 200). X Chat rows carry no machine-readable time: a row that since moved above one it stood below holds something new, even a reply that reads like the last one. Written by the runner.';
comment on column public.social_accounts.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.social_account_credentials (
  account_id uuid not null,
  key_id text not null,
  ciphertext text not null,
  session_ciphertext text,
  updated_at timestamp with time zone not null default now(),
  token_expires_at timestamp with time zone,
  constraint social_account_credentials_pkey primary key (account_id),
  constraint social_account_credentials_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade
);
comment on table public.social_account_credentials is
  'Encrypted sign-in data per account (base64 AES-256-GCM, encrypted by the functions). No client role can read it; the runner decrypts.';
comment on column public.social_account_credentials.key_id is
  'Which encryption key sealed this row, so keys can rotate.';
comment on column public.social_account_credentials.ciphertext is
  'Encrypted authData: Instagram password and 2FA secret, or X cookies and passcode.';
comment on column public.social_account_credentials.session_ciphertext is
  'Encrypted browser session the runner saved, reused to avoid fresh logins.';
comment on column public.social_account_credentials.token_expires_at is
  'Official accounts: when the sealed access token expires (not secret), so refreshes are found without opening the seal.';

create table internal.legacy_proxy_credentials (
  account_id uuid not null,
  username text not null,
  password text not null,
  moved_at timestamp with time zone not null default now(),
  constraint legacy_proxy_credentials_pkey primary key (account_id),
  constraint legacy_proxy_credentials_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade
);
comment on table internal.legacy_proxy_credentials is
  'Proxy logins that were stored in plain text in social_accounts.proxy_url before 20261125300000; the runner seals each into social_account_credentials and deletes it.';

create table public.x_oauth_requests (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  state_hash text not null,
  key_id text not null,
  sealed text not null,
  redirect_uri text not null,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  used_at timestamp with time zone,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint x_oauth_requests_pkey primary key (id),
  constraint x_oauth_requests_state_hash_key unique (state_hash),
  constraint x_oauth_requests_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint x_oauth_requests_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.x_oauth_requests is
  'An X OAuth 2.0 (PKCE) connect in progress: the state (stored as its SHA-256), the sealed code verifier and the customer''s developer-app id and secret, bound to the customer, one use, expiring. Only the api function (service role) reads or writes it.';
comment on column public.x_oauth_requests.sealed is
  'Encrypted {codeVerifier, clientId, clientSecret} (crypto.ts), never readable by a client role.';
comment on column public.x_oauth_requests.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.x_api_usage (
  account_id uuid not null,
  user_id uuid not null,
  day date not null,
  kind text not null,
  unit_key text not null,
  created_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint x_api_usage_pkey primary key (account_id, day, kind, unit_key),
  constraint x_api_usage_kind_check check ((kind = any (array['dm_create'::text, 'dm_event_read'::text, 'user_read'::text, 'own_read'::text]))),
  constraint x_api_usage_unit_key_check check (((char_length(unit_key) >= 1) and (char_length(unit_key) <= 100))),
  constraint x_api_usage_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint x_api_usage_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint x_api_usage_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.x_api_usage is
  'Every billable unit of X API v2 the runner or the api function incurred for an official X account, as X bills its developer app (pay-per-use): one row per DM created (keyed by its event id), per DM event, user or own profile read (keyed by the resource id, once per UTC day: X charges a resource read again the same day nothing). Written only through record_x_api_usage; the customer reads their own. Prices: X_API_PRICE_MILLS in the domain package.';
comment on column public.x_api_usage.day is
  'The UTC day X counts the unit in (its deduplication window).';
comment on column public.x_api_usage.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create unique index social_accounts_official_platform_user_key on public.social_accounts (platform_id, platform_user_id) where (connection = 'official'::text);
create index social_accounts_status_idx on public.social_accounts (status) where (status = 'active'::text);
create index social_accounts_user_id_created_at_idx on public.social_accounts (user_id, created_at desc);
create unique index social_accounts_user_platform_username_key on public.social_accounts (user_id, platform_id, lower(username));
create index social_accounts_workspace_id_created_at_idx on public.social_accounts (workspace_id, created_at desc);

create index x_oauth_requests_user_id_idx on public.x_oauth_requests (user_id);
create index x_oauth_requests_workspace_id_idx on public.x_oauth_requests (workspace_id);

create index x_api_usage_user_id_day_idx on public.x_api_usage (user_id, day);
create index x_api_usage_workspace_id_day_idx on public.x_api_usage (workspace_id, day);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.cap_pending_x_connects()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- one customer's starts take turns, so parallel clicks cannot all see room under the cap
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('x_connect:' || new.user_id::text, 0));
  if (select count(*) from public.x_oauth_requests r where r.user_id = new.user_id and r.expires_at > now()) >= 5 then
    raise exception 'Too many X connections started. Finish one on X, or wait 10 minutes and start again.'
      using errcode = 'P0001', hint = 'too_many_connects';
  end if;
  return new;
end
$$;
comment on function internal.cap_pending_x_connects() is
  'At most 5 X connects per customer within a request''s lifetime (used ones count until they expire): the api function stores the request before it calls X, so the cap also bounds the calls to X.';

create or replace function internal.check_platform_connectable()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.platforms p where p.id = new.platform_id and p.is_active and not p.coming_soon) then
    raise exception 'This platform cannot be connected yet' using errcode = 'P0001';
  end if;
  return new;
end
$$;
comment on function internal.check_platform_connectable() is
  'BEFORE INSERT on social_accounts: only active platforms that are not coming soon can be connected.';

create or replace function internal.check_proxy_address()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem text := internal.proxy_address_problem(new.proxy_url);
begin
  if problem is not null then
    raise exception '%', problem using errcode = '22023';
  end if;
  return new;
end
$$;
comment on function internal.check_proxy_address() is
  'BEFORE INSERT/UPDATE OF proxy_url on social_accounts: refuses what internal.proxy_address_problem() names (22023).';

create or replace function internal.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  full_name text := nullif(trim(coalesce(new.raw_user_meta_data ->> 'full_name', new.raw_user_meta_data ->> 'name')), '');
begin
  insert into public.workspaces (id, name, created_by)
  values (new.id, left(coalesce(full_name || '''s workspace', 'My workspace'), 60), new.id)
  on conflict (id) do nothing;
  insert into public.workspace_members (workspace_id, user_id, role)
  values (new.id, new.id, 'owner')
  on conflict (workspace_id, user_id) do nothing;
  insert into public.user_profiles (id, full_name, avatar_url, active_workspace_id)
  values (
    new.id,
    full_name,
    nullif(coalesce(new.raw_user_meta_data ->> 'avatar_url', new.raw_user_meta_data ->> 'picture'), ''),
    new.id
  )
  on conflict (id) do nothing;
  return new;
end
$$;
comment on function internal.create_profile_for_new_user() is
  'AFTER INSERT on auth.users: creates the profile (full_name or Google''s name, avatar from user metadata) and the person''s personal workspace, which they own and work in.';

create or replace function internal.enforce_account_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  allowed integer;
  current_count integer;
begin
  -- Serialise concurrent inserts for one customer so two requests cannot both take the last slot.
  perform 1 from public.user_profiles p where p.id = new.user_id for update;
  select l.account_limit into allowed from internal.account_limit(new.user_id) l;
  select count(*) into current_count from public.social_accounts a where a.user_id = new.user_id;
  if current_count >= allowed then
    raise exception 'Account limit reached. You have %/% accounts.', current_count, allowed
      using errcode = 'P0001', hint = 'Upgrade your plan to add more accounts.';
  end if;
  return new;
end
$$;
comment on function internal.enforce_account_limit() is
  'BEFORE INSERT on social_accounts: refuses an account beyond the plan''s limit, whoever inserts it.';

create or replace function internal.resolve_account_alerts()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.notifications n
     set read = true,
         read_at = coalesce(n.read_at, now()),
         metadata = n.metadata || jsonb_build_object('resolvedAt', internal.now())
   where n.user_id = new.user_id
     and n.type = 'account_flagged'
     and n.metadata ->> 'accountId' = new.id::text
     and not n.metadata ? 'resolvedAt';
  return null;
end
$$;
comment on function internal.resolve_account_alerts() is
  'AFTER UPDATE of status on social_accounts, when an account becomes active: its account_flagged notifications are marked read with metadata.resolvedAt.';

create trigger on_auth_user_created_create_profile after insert on auth.users for each row execute function internal.create_profile_for_new_user();

create trigger user_profiles_set_updated_at before update on public.user_profiles for each row execute function internal.set_updated_at();

create trigger social_accounts_check_platform before insert on public.social_accounts for each row execute function internal.check_platform_connectable();

create trigger social_accounts_check_proxy before insert or update of proxy_url on public.social_accounts for each row execute function internal.check_proxy_address();

create trigger social_accounts_enforce_limit before insert on public.social_accounts for each row execute function internal.enforce_account_limit();

create trigger social_accounts_fill_workspace_id before insert on public.social_accounts for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger social_accounts_resolve_alerts after update of status on public.social_accounts for each row when (((new.status = 'active'::text) and (old.status is distinct from 'active'::text))) execute function internal.resolve_account_alerts();

create trigger social_accounts_set_updated_at before update on public.social_accounts for each row execute function internal.set_updated_at();

create trigger social_account_credentials_set_updated_at before update on public.social_account_credentials for each row execute function internal.set_updated_at();

create trigger x_oauth_requests_cap_pending before insert on public.x_oauth_requests for each row execute function internal.cap_pending_x_connects();

create trigger x_oauth_requests_fill_workspace_id before insert on public.x_oauth_requests for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger x_api_usage_fill_workspace_id before insert on public.x_api_usage for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_account();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.account_cap_reason(account public.social_accounts, platform public.platforms)
returns text
language sql
stable
as $$
  select case
    when internal.account_daily_cap(account, platform)
         < least(account.daily_message_limit, internal.warmup_daily_limit(account.warmup_phase), platform.daily_message_ceiling)
      then 'recovering'
    when internal.warmup_daily_limit(account.warmup_phase) <= least(account.daily_message_limit, platform.daily_message_ceiling)
      then 'warmup'
    when account.daily_message_limit <= platform.daily_message_ceiling then 'account'
    else 'platform' end
$$;
comment on function internal.account_cap_reason(public.social_accounts, public.platforms) is
  'Which cap sets internal.account_daily_cap: recovering (trust below 0.5 after a stop signal), warmup, account (the customer''s own limit) or platform (the ceiling).';

create or replace function internal.account_daily_cap(account public.social_accounts, platform public.platforms)
returns integer
language sql
stable
as $$
  -- least() ignores nulls: a warmed-up account has no warm-up cap. An account recovering from a stop
  -- signal (trust below 0.5) sends that share of it.
  select floor(least(account.daily_message_limit, internal.warmup_daily_limit(account.warmup_phase), platform.daily_message_ceiling)
               * internal.trust_rate_factor(account.trust_score))::integer
$$;
comment on function internal.account_daily_cap(public.social_accounts, public.platforms) is
  'DMs a day the account may send: the lowest of its own limit, its warm-up limit and the platform ceiling (450), times its trust rate factor while it recovers from a stop signal.';

create or replace function internal.account_limit(p_user_id uuid)
returns table(account_limit integer, plan_type text, subscription_status text)
language sql
stable
set search_path = ''
as $$
  -- product.md §6: without an active subscription 1 account (plan free); with one, accounts_purchased.
  select coalesce(s.accounts_purchased, 1), coalesce(s.plan_type, 'free'),
         coalesce((select x.status from public.subscriptions x where x.user_id = p_user_id
                    order by x.created_at desc limit 1), 'none')
    from (select 1) one
    left join lateral (
      select sum(x.accounts_purchased)::integer as accounts_purchased,
             (array_agg(x.plan_type order by x.created_at desc))[1] as plan_type
        from public.subscriptions x
       where x.user_id = p_user_id and x.status in ('active', 'trialing')
      having count(*) > 0
    ) s on true
$$;
comment on function internal.account_limit(uuid) is
  'How many social accounts the user''s plan allows: the sum of accounts_purchased over active or trialing subscriptions, else 1 (free). Runs with the caller''s rights: a customer only sees their own subscriptions.';

create or replace function internal.account_limit_refusal(p_user_id uuid)
returns text
language plpgsql
stable security definer
set search_path = ''
as $$
declare
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
begin
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, billing_status
    from internal.account_limit(p_user_id) l;
  select count(*) into current_count from public.social_accounts a where a.user_id = p_user_id;
  if current_count < allowed then
    return null;
  end if;
  return case
    when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
    when billing_status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
    else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
  end;
end
$$;
comment on function internal.account_limit_refusal(uuid) is
  'Why the customer cannot add another account (product.md §6 texts, as check_account_limit says them to the signed-in caller), or null when the plan has room: one wording for every way an account is created.';

create or replace function internal.account_sends_left_today(account public.social_accounts, platform public.platforms, at timestamp with time zone)
returns integer
language sql
stable
as $$
  select greatest(0, internal.account_daily_cap(account, platform) - internal.account_sent_today(account, at))
$$;
comment on function internal.account_sends_left_today(public.social_accounts, public.platforms, timestamp with time zone) is
  'How many more DMs the account may send on the day of `at` (its time zone) under its caps (0 when none).';

create or replace function internal.account_sent_today(account public.social_accounts, at timestamp with time zone)
returns integer
language sql
stable
as $$
  -- The counter belongs to the day it was last written on, in the account's time zone.
  select case when account.sent_today_on = pg_catalog.timezone(account.timezone, at)::date
              then account.messages_sent_today else 0 end
$$;
comment on function internal.account_sent_today(public.social_accounts, timestamp with time zone) is
  'DMs the account sent on the day that `at` falls on in the account''s time zone.';

create or replace function internal.proxy_address_problem(proxy text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  hostport text := regexp_replace(proxy, '^[a-z][a-z0-9+.-]*://', '');
  host text := regexp_replace(hostport, ':[0-9]{1,5}$', '');
  port integer := nullif(substring(hostport from ':([0-9]{1,5})$'), '')::integer;
  octet constant text := '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
  label constant text := '[a-z0-9-]{1,63}';
  address inet;
  private_host constant text := 'Proxy %s points at a private or local address. Use your proxy provider''s public host.';
begin
  if proxy is null then
    return null;
  end if;
  if position('@' in proxy) > 0 then
    return 'A proxy''s login is sealed with the account''s credentials; proxy_url keeps host:port only.';
  end if;
  if port is null or not (port in (80, 443, 1080, 1081, 3128, 3129) or port between 8000 and 65535) then
    return format('Proxy port %s is not a proxy port. Use 80, 443, 1080, 3128, 8000-9999 or 10000-65535.', coalesce(port::text, '?'));
  end if;
  if host ~ ('^' || octet || '(\.' || octet || '){3}$') then
    address := host::inet;
    if address << '0.0.0.0/8' or address << '10.0.0.0/8' or address << '100.64.0.0/10'
       or address << '127.0.0.0/8' or address << '169.254.0.0/16' or address << '172.16.0.0/12'
       or address << '192.0.0.0/24' or address << '192.168.0.0/16' or address << '198.18.0.0/15'
       or address << '224.0.0.0/3' then
      return format(private_host, host);
    end if;
    return null;
  end if;
  if host ~ '^\[[0-9a-f:]+\]$' then
    begin
      address := btrim(host, '[]')::inet;
    exception when invalid_text_representation then
      address := null;
    end;
    if address is not null and pg_catalog.host(address) = btrim(host, '[]') then
      if not address << '2000::/3' or address << '2001::/23' or address << '2001:db8::/32'
         or address << '2002::/16' or address << '3fff::/20' then
        return format(private_host, host);
      end if;
      return null;
    end if;
  elsif length(host) <= 253 and host ~ ('^(' || label || '\.)+' || label || '$')
        and host !~ '\.([0-9]+|0x[0-9a-f]*)$' then
    if host ~ '(^|\.)(localhost|local|internal|lan|localdomain|home\.arpa)$' then
      return format(private_host, host);
    end if;
    return null;
  elsif host ~ '^[a-z0-9-]+$' and host !~ '^([0-9]+|0x[0-9a-f]*)$' then
    return format(private_host, host); -- a name without a dot only means something inside a network
  end if;
  return format('Proxy host %s is not written in its plain form: use a name such as proxy.example.com, an IPv4 address as four decimal numbers (203.0.113.7) or an IPv6 address in brackets.', host);
end
$$;
comment on function internal.proxy_address_problem(text) is
  'Why a proxy address may not be stored, or null. Accepts only the canonical host spellings the api function produces (_shared/host.ts): dotted-decimal IPv4, bracketed IPv6 as browsers print it, a lowercase name that does not end in a number; refuses private, loopback, link-local, metadata, reserved and IPv6 non-global addresses, local names and non-proxy ports. Names are resolved and checked by the api function and the runner.';

create or replace function internal.seal_legacy_proxy_login(p_account_id uuid, p_ciphertext text, p_key_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from internal.legacy_proxy_credentials where account_id = p_account_id;
  if not found then
    return false;
  end if;
  update public.social_account_credentials
     set ciphertext = p_ciphertext, key_id = p_key_id
   where account_id = p_account_id;
  return found;
end
$$;
comment on function internal.seal_legacy_proxy_login(uuid, text, text) is
  'The runner''s one credentials write: replaces the sealed credentials with ones that include the legacy proxy login, and deletes the plain row; false when there was none.';

create or replace function internal.trust_rate_factor(trust numeric)
returns numeric
language sql
immutable
as $$
  select case when trust >= 0.5 then 1 else greatest(0.25, trust / 0.5) end
$$;
comment on function internal.trust_rate_factor(numeric) is
  'How fast an account sends for its trust score: full speed from 0.5 up, proportionally less below (at least a quarter). The runner''s pacing (rateFactor) spaces DMs by the same rule.';

create or replace function internal.warmup_daily_limit(phase integer)
returns integer
language sql
immutable
as $$
  select case phase when 1 then 10 when 2 then 20 when 3 then 35 when 4 then 50 end
$$;
comment on function internal.warmup_daily_limit(integer) is
  'DMs a day an account may send in a warm-up phase (1: 10, 2: 20, 3: 35, 4: 50); null once warmed up (phase 5).';

-- Row-level security ------------------------------------------------------------------------------

alter table public.user_profiles enable row level security;

create policy "The runner reads every profile" on public.user_profiles
  for select
  to reachflow_runner
  using (true);

create policy "Users can read their own profile" on public.user_profiles
  for select
  to authenticated
  using ((id = ( select auth.uid() as uid)));

create policy "Users can update their own profile" on public.user_profiles
  for update
  to authenticated
  using ((id = ( select auth.uid() as uid)))
  with check ((id = ( select auth.uid() as uid)));

alter table public.platforms enable row level security;

create policy "Anyone can read the platform list" on public.platforms
  for select
  to anon, authenticated
  using (true);

create policy "The runner reads every platform" on public.platforms
  for select
  to reachflow_runner
  using (true);

alter table public.social_accounts enable row level security;

create policy "The runner reads every social account" on public.social_accounts
  for select
  to reachflow_runner
  using (true);

create policy "The runner updates social accounts" on public.social_accounts
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "Members can read the workspace's social accounts" on public.social_accounts
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can change the workspace's social accounts" on public.social_accounts
  for update
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)))
  with check ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can delete the workspace's social accounts" on public.social_accounts
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.social_account_credentials enable row level security;

create policy "The runner reads credentials" on public.social_account_credentials
  for select
  to reachflow_runner
  using (true);

create policy "The runner saves browser sessions" on public.social_account_credentials
  for update
  to reachflow_runner
  using (true)
  with check (true);

alter table internal.legacy_proxy_credentials enable row level security;

create policy "The runner reads legacy proxy logins" on internal.legacy_proxy_credentials
  for select
  to reachflow_runner
  using (true);

alter table public.x_oauth_requests enable row level security;

alter table public.x_api_usage enable row level security;

create policy "Members can read the workspace's X API usage" on public.x_api_usage
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "avatars: read own folder" on storage.objects
  for select
  to authenticated
  using (((bucket_id = 'avatars'::text) and ((storage.foldername(name))[1] = (( select auth.uid() as uid))::text)));

create policy "avatars: remove from own folder" on storage.objects
  for delete
  to authenticated
  using (((bucket_id = 'avatars'::text) and ((storage.foldername(name))[1] = (( select auth.uid() as uid))::text)));

create policy "avatars: replace in own folder" on storage.objects
  for update
  to authenticated
  using (((bucket_id = 'avatars'::text) and ((storage.foldername(name))[1] = (( select auth.uid() as uid))::text)))
  with check (((bucket_id = 'avatars'::text) and ((storage.foldername(name))[1] = (( select auth.uid() as uid))::text)));

create policy "avatars: upload to own folder" on storage.objects
  for insert
  to authenticated
  with check (((bucket_id = 'avatars'::text) and ((storage.foldername(name))[1] = (( select auth.uid() as uid))::text)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.user_profiles from anon;
revoke insert, update, delete, truncate, references, trigger on public.user_profiles from authenticated;
grant select on public.user_profiles to reachflow_runner;
grant update (full_name, business_name, avatar_url, onboarding_completed, post_onboarding, onboarding_answers, timezone, updated_at) on public.user_profiles to authenticated;

revoke insert, update, delete, truncate, references, trigger on public.platforms from anon, authenticated;
grant select on public.platforms to reachflow_runner;

revoke all on public.social_accounts from anon;
revoke insert, update, truncate, references, trigger on public.social_accounts from authenticated;
grant select on public.social_accounts to reachflow_runner;
grant update (daily_message_limit, timezone, updated_at) on public.social_accounts to authenticated;
grant update (platform_user_id, status, trust_score, requests_pending, last_login_at, last_synced_at, last_tested_at, flag_reason, paused_until, updated_at, inbox_order) on public.social_accounts to reachflow_runner;

revoke all on public.social_account_credentials from anon, authenticated;
grant select on public.social_account_credentials to reachflow_runner;
grant update (session_ciphertext, updated_at) on public.social_account_credentials to reachflow_runner;

grant select on internal.legacy_proxy_credentials to reachflow_runner;
revoke all on public.x_oauth_requests from anon, authenticated;

revoke all on public.x_api_usage from anon;
revoke insert, update, delete, truncate, references, trigger on public.x_api_usage from authenticated;

revoke execute on function internal.account_cap_reason(public.social_accounts, public.platforms) from public;
grant execute on function internal.account_cap_reason(public.social_accounts, public.platforms) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.account_daily_cap(public.social_accounts, public.platforms) from public;
grant execute on function internal.account_daily_cap(public.social_accounts, public.platforms) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.account_limit(uuid) from public;
grant execute on function internal.account_limit(uuid) to authenticated, service_role;

revoke execute on function internal.account_limit_refusal(uuid) from public;

revoke execute on function internal.account_sends_left_today(public.social_accounts, public.platforms, timestamp with time zone) from public;
grant execute on function internal.account_sends_left_today(public.social_accounts, public.platforms, timestamp with time zone) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.account_sent_today(public.social_accounts, timestamp with time zone) from public;
grant execute on function internal.account_sent_today(public.social_accounts, timestamp with time zone) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.cap_pending_x_connects() from public;
revoke execute on function internal.check_platform_connectable() from public;
revoke execute on function internal.check_proxy_address() from public;
revoke execute on function internal.create_profile_for_new_user() from public;
revoke execute on function internal.enforce_account_limit() from public;
revoke execute on function internal.proxy_address_problem(text) from public;
revoke execute on function internal.resolve_account_alerts() from public;

revoke execute on function internal.seal_legacy_proxy_login(uuid, text, text) from public;
grant execute on function internal.seal_legacy_proxy_login(uuid, text, text) to reachflow_runner;

revoke execute on function internal.trust_rate_factor(numeric) from public;
grant execute on function internal.trust_rate_factor(numeric) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.warmup_daily_limit(integer) from public;
grant execute on function internal.warmup_daily_limit(integer) to authenticated, reachflow_runner, service_role;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.account_daily_usage()
returns table(account_id uuid, platform text, username text, status text, timezone text, local_day date, sent_today integer, account_limit integer, warmup_limit integer, platform_limit integer, campaign_limit integer, sending_campaigns integer, daily_cap integer, remaining_today integer, account_cap integer, cap_reason text, warmup_day integer, answers_today integer)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with campaigns as (
      -- What each sending campaign may still send today, each already held to its account's caps:
      -- their sum, held to the account's caps again, is what the account can still send.
      select c.account_id,
             sum(c.daily_message_limit)::integer as total_limit,
             sum(internal.campaign_sends_left_today(c, a, p, internal.now()))::integer as left_today,
             count(*)::integer as sending
        from public.campaigns c
        join public.social_accounts a on a.id = c.account_id
        join public.platforms p on p.id = a.platform_id
       where c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) and c.status in ('queued', 'running', 'active')
       group by c.account_id
    )
    -- least() ignores nulls: a warmed-up account has no warm-up cap, an account without a sending
    -- campaign no campaign cap.
    select a.id, p.name, a.username, a.status, a.timezone, pg_catalog.timezone(a.timezone, internal.now())::date,
           internal.account_sent_today(a, internal.now()),
           a.daily_message_limit, internal.warmup_daily_limit(a.warmup_phase), p.daily_message_ceiling,
           c.total_limit, coalesce(c.sending, 0),
           least(internal.account_daily_cap(a, p), c.total_limit),
           least(internal.account_sends_left_today(a, p, internal.now()), c.left_today),
           internal.account_daily_cap(a, p),
           internal.account_cap_reason(a, p),
           case when a.warmup_phase < 5
                then pg_catalog.timezone(a.timezone, internal.now())::date - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date + 1 end,
           (select count(*)::integer from public.inbox_messages m
             where m.account_id = a.id and m.origin = 'reachflow' and m.status in ('sent', 'uncertain')
               and pg_catalog.timezone(a.timezone, m.sent_at)::date = pg_catalog.timezone(a.timezone, internal.now())::date)
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id
      left join campaigns c on c.account_id = a.id
     where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
     order by a.created_at desc;
end
$$;
comment on function public.account_daily_usage() is
  'Per account of the caller: DMs sent today (account time zone, campaign DMs and inbox answers alike; answers_today of them answers), each cap (account limit, warm-up, platform 450, sum of sending campaigns'' daily limits), account_cap = what the account may send today (the runner''s and scheduler''s internal.account_daily_cap) and cap_reason the cap that sets it, daily_cap = the lowest with the campaigns'', remaining_today = what the caps still allow today, warmup_day = the day of warm-up (null once warmed up).';
revoke execute on function public.account_daily_usage() from public, anon;

create or replace function public.check_account_limit()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  current_count integer;
  allowed integer;
  plan text;
  status text;
  message text;
begin
  if me is null then
    raise exception 'User not authenticated' using errcode = '42501';
  end if;
  select count(*) into current_count from public.social_accounts a where a.user_id = me;
  -- The limit itself is computed by the same helper the insert trigger enforces.
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, status
    from internal.account_limit(me) l;
  if current_count >= allowed then
    message := case
      when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
      when status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
      else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
    end;
  end if;
  return jsonb_build_object('canAddAccount', current_count < allowed, 'currentCount', current_count,
    'limit', allowed, 'planType', plan, 'error', message);
end
$$;
comment on function public.check_account_limit() is
  'product.md §6 account-limit check for the caller: {canAddAccount, currentCount, limit, planType, error}. Free plan (no active or trialing subscription) allows 1 account.';
revoke execute on function public.check_account_limit() from public, anon;

create or replace function public.connect_official_x_account(p_user_id uuid, p_username text, p_platform_user_id text, p_credentials_key_id text, p_credentials text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.platforms;
  existing public.social_accounts;
  account public.social_accounts;
  refusal text;
begin
  select * into target from public.platforms p where p.name = 'twitter';
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  if p_platform_user_id !~ '^[0-9]{1,19}$' then
    raise exception 'X returned no user id' using errcode = '22023';
  end if;
  -- the same lock as create_social_account, so the limit below is the one an insert would see
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;

  select * into existing from public.social_accounts a
   where a.user_id = p_user_id and a.platform_id = target.id
     and (a.platform_user_id = p_platform_user_id or lower(a.username) = lower(p_username))
   for update;
  if existing.id is not null then
    if existing.connection <> 'official' then
      raise exception 'This X account is already connected through the browser. Delete it first to connect it through the X API.'
        using errcode = '23505';
    end if;
    -- connecting again (new tokens, perhaps another developer app) revives the same account
    update public.social_accounts a
       set username = p_username, platform_user_id = p_platform_user_id, status = 'active', flag_reason = null,
           last_tested_at = now()
     where a.id = existing.id
     returning * into account;
    update public.social_account_credentials c
       set key_id = p_credentials_key_id, ciphertext = p_credentials, session_ciphertext = null
     where c.account_id = existing.id;
    return to_jsonb(account) || jsonb_build_object('reconnected', true);
  end if;

  refusal := internal.account_limit_refusal(p_user_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001', hint = 'account_limit';
  end if;

  -- no warm-up: the API's own limits pace an official account, not a browser's
  insert into public.social_accounts (user_id, platform_id, username, platform_user_id, status, connection, last_tested_at, warmup_phase)
  values (p_user_id, target.id, p_username, p_platform_user_id, 'active', 'official', now(), 5)
  returning * into account;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  return to_jsonb(account) || jsonb_build_object('reconnected', false);
end
$$;
comment on function public.connect_official_x_account(uuid, text, text, text, text) is
  'Service role only (the api function, after the OAuth callback proved the X user and sealed the tokens with the developer app''s id and secret): creates the official X account (status active, no test job: X itself vouched for it) within the plan limit, or gives an official account of the same X user its new tokens.';
revoke execute on function public.connect_official_x_account(uuid, text, text, text, text) from public, anon, authenticated;

create or replace function public.create_social_account(p_user_id uuid, p_platform text, p_username text, p_proxy_url text, p_credentials_key_id text, p_credentials text, p_has_chat_passcode boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.platforms;
  refusal text;
  account public.social_accounts;
  job_id uuid;
begin
  select * into target from public.platforms p where p.name = p_platform;
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;

  -- The insert trigger takes the same lock; taking it first makes the count below the one the insert
  -- sees, so concurrent creates for one customer queue up and only those within the plan succeed.
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;
  refusal := internal.account_limit_refusal(p_user_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001', hint = 'account_limit';
  end if;

  begin
    insert into public.social_accounts (user_id, platform_id, username, proxy_url, has_chat_passcode, status)
    values (p_user_id, target.id, p_username, nullif(p_proxy_url, ''), coalesce(p_has_chat_passcode, false), 'testing')
    returning * into account;
  exception
    when unique_violation then
      raise exception 'This account is already connected' using errcode = '23505';
  end;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', account.id), 'account:' || account.id);

  return to_jsonb(account) || jsonb_build_object('test_job_id', job_id);
end
$$;
comment on function public.create_social_account(uuid, text, text, text, text, text, boolean) is
  'Service role only (the api function, after it authenticated the caller and encrypted the credentials): checks the plan limit under a lock on the profile, inserts the account (status testing) and its credentials, and queues an account.test job, in one transaction.';
revoke execute on function public.create_social_account(uuid, text, text, text, text, text, boolean) from public, anon, authenticated;

create or replace function public.delete_social_account(p_account_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid;
  scraping_ids uuid[];
begin
  select a.id into v_account_id from public.social_accounts a
   where a.id = p_account_id and a.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if v_account_id is null then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  select coalesce(array_agg(s.id), '{}') into scraping_ids
    from public.scraping_campaigns s where s.account_id = v_account_id;
  perform internal.drop_waiting_jobs(array['account.test', 'inbox.sync', 'warmup.step', 'campaign.tick'],
                                     'accountId', array[v_account_id], true);
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', scraping_ids, true);
  -- Its campaigns are paused, not stranded: each says why and what to do; the lists
  -- offer no Resume while a campaign has no account.
  update public.scraping_campaigns s
     set status = case when s.status = 'running' then 'paused' else s.status end,
         error_message = 'Its account was deleted. Create a new scraping campaign with another account.'
   where s.id = any (scraping_ids) and s.status <> 'completed';
  update public.campaigns c
     set status = case when c.status in ('queued', 'running', 'active') then 'paused' else c.status end,
         error_message = 'Its account was deleted. Choose another account in the campaign to send again.'
   where c.account_id = v_account_id and c.status not in ('completed', 'failed');
  -- its alerts have nothing left to fix ("Change details and retry" deletes a failed attempt)
  update public.notifications n
     set read = true,
         read_at = coalesce(n.read_at, now()),
         metadata = n.metadata || jsonb_build_object('resolvedAt', internal.now(), 'resolution', 'deleted')
   where n.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
     and n.type = 'account_flagged'
     and n.metadata ->> 'accountId' = v_account_id::text
     and not n.metadata ? 'resolvedAt';
  delete from public.social_accounts a where a.id = v_account_id;
  return jsonb_build_object('id', v_account_id, 'deleted', true);
end
$$;
comment on function public.delete_social_account(uuid) is
  'Deletes one of the caller''s social accounts with its credentials, removes every waiting job for it, pauses its running scraping campaigns, and resolves its account alerts (metadata.resolution deleted).';
revoke execute on function public.delete_social_account(uuid) from public, anon;

create or replace function public.record_x_api_usage(p_account_id uuid, p_kind text, p_unit_keys text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  added integer;
begin
  insert into public.x_api_usage (account_id, user_id, day, kind, unit_key)
  select a.id, a.user_id, pg_catalog.timezone('UTC', internal.now())::date, p_kind, k.key
    from public.social_accounts a
   cross join lateral (select distinct unnest(p_unit_keys) as key) k
   where a.id = p_account_id and a.connection = 'official' and k.key is not null
  on conflict do nothing;
  get diagnostics added = row_count;
  return added;
end
$$;
comment on function public.record_x_api_usage(uuid, text, text[]) is
  'The runner and the api function (service role) record the billable units of one X API answer for an official account (kinds and keys from xApiUsageOf in the domain package); a unit already counted today is not counted again. Answers how many were new.';
revoke execute on function public.record_x_api_usage(uuid, text, text[]) from public, anon, authenticated;
grant execute on function public.record_x_api_usage(uuid, text, text[]) to reachflow_runner;

create or replace function public.request_account_test(p_account_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  job_id uuid;
begin
  if (select auth.role()) is distinct from 'service_role'
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', p_account_id), 'account:' || p_account_id);
  return job_id;
end
$$;
comment on function public.request_account_test(uuid) is
  'Queues an account.test job for one of the caller''s accounts (the service role: any account). Returns the job id, or null when a test is already waiting.';
revoke execute on function public.request_account_test(uuid) from public, anon;

create or replace function public.save_official_credentials(p_account_id uuid, p_key_id text, p_ciphertext text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_ciphertext is null or split_part(p_ciphertext, ':', 1) is distinct from p_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  update public.social_account_credentials c
     set key_id = p_key_id, ciphertext = p_ciphertext
    from public.social_accounts a
   where c.account_id = p_account_id and a.id = c.account_id and a.connection = 'official';
  if not found then
    raise exception 'No official account %', p_account_id using errcode = 'PT404';
  end if;
end
$$;
comment on function public.save_official_credentials(uuid, text, text) is
  'The runner''s one write of sealed credentials: an official account''s rotated OAuth tokens, saved before they are used (a refresh token works once). Browser accounts'' credentials stay read-only to it.';
revoke execute on function public.save_official_credentials(uuid, text, text) from public, anon, authenticated;
grant execute on function public.save_official_credentials(uuid, text, text) to reachflow_runner;

create or replace function public.update_social_account(p_user_id uuid, p_account_id uuid, p_credentials_key_id text, p_credentials text, p_has_chat_passcode boolean, p_set_proxy boolean, p_proxy_url text, p_daily_message_limit integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account public.social_accounts;
  job_id uuid;
begin
  select * into account from public.social_accounts a
   where a.id = p_account_id and a.user_id = p_user_id
   for update;
  if account.id is null then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;

  update public.social_account_credentials
     set key_id = p_credentials_key_id, ciphertext = p_credentials, session_ciphertext = null
   where account_id = account.id;
  update public.social_accounts a
     set has_chat_passcode = coalesce(p_has_chat_passcode, a.has_chat_passcode),
         proxy_url = case when p_set_proxy then nullif(p_proxy_url, '') else a.proxy_url end,
         daily_message_limit = coalesce(p_daily_message_limit, a.daily_message_limit),
         -- a paused account's platform pause still runs out on its own; anything else is re-tested
         status = case when a.status = 'paused' then a.status else 'testing' end,
         flag_reason = case when a.status = 'paused' then a.flag_reason else null end
   where a.id = account.id
   returning * into account;
  perform internal.drop_waiting_jobs(array['account.test'], 'accountId', array[account.id], true);
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', account.id), 'account:' || account.id);
  return to_jsonb(account) || jsonb_build_object('test_job_id', job_id);
end
$$;
comment on function public.update_social_account(uuid, uuid, text, text, boolean, boolean, text, integer) is
  'Service role only (the api function, after it authenticated the caller, checked the input and sealed the merged credentials): replaces the credentials (dropping the saved session), sets proxy and limit, and re-tests the account with a fresh account.test job, in one transaction.';
revoke execute on function public.update_social_account(uuid, uuid, text, text, boolean, boolean, text, integer) from public, anon, authenticated;

create or replace function public.x_api_usage_this_month()
returns table(account_id uuid, kind text, units integer)
language sql
stable
set search_path = ''
as $$
  -- X bills by UTC day; the month is the calendar month in UTC, as X's console shows it
  select u.account_id, u.kind, count(*)::integer
    from public.x_api_usage u
   where u.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
     and u.day >= pg_catalog.date_trunc('month', pg_catalog.timezone('UTC', internal.now()))::date
   group by u.account_id, u.kind
   order by u.account_id, u.kind
$$;
comment on function public.x_api_usage_this_month() is
  'The caller''s X API units this calendar month (UTC) per official account and kind, for the account card''s "spent this month" (priced in the web app from the domain package''s one price table).';
revoke execute on function public.x_api_usage_this_month() from public, anon;
