-- Platforms and the social accounts customers connect. Accounts are created by the social-accounts
-- function (it checks the plan limit and encrypts credentials); the account limit is enforced here
-- too, so no path can exceed the plan. Credentials live in their own table that no client role can
-- read; the database only ever holds ciphertext.

-- Tables ---------------------------------------------------------------------------------------

create table public.platforms (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (name ~ '^[a-z][a-z0-9_]{1,30}$'),
  display_name text not null,
  is_active boolean not null default false,
  coming_soon boolean not null default true,
  daily_message_ceiling integer not null default 450 check (daily_message_ceiling between 1 and 1000),
  created_at timestamptz not null default now()
);

comment on table public.platforms is 'Social networks the product knows. Only is_active and not coming_soon ones can be connected.';
comment on column public.platforms.daily_message_ceiling is
  'Most DMs one account may send per day on this platform, whatever the plan or campaign says (450).';

insert into public.platforms (name, display_name, is_active, coming_soon) values
  ('instagram', 'Instagram', true, false),
  ('twitter', 'Twitter', true, false),
  ('linkedin', 'LinkedIn', false, true),
  ('facebook', 'Facebook', false, true),
  ('tiktok', 'TikTok', false, true);

create table public.social_accounts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  platform_id uuid not null references public.platforms (id),
  username text not null check (username ~ '^[A-Za-z0-9._]{1,64}$'),
  platform_user_id text,
  status text not null default 'testing'
    check (status in ('active', 'inactive', 'error', 'testing', 'paused', 'flagged')),
  daily_message_limit integer not null default 50 check (daily_message_limit between 1 and 500),
  messages_sent_today integer not null default 0 check (messages_sent_today >= 0),
  sent_today_on date,
  warmup_phase integer not null default 1 check (warmup_phase between 1 and 5),
  warmup_started_at timestamptz not null default now(),
  warmup_step_on date,
  trust_score numeric(3, 2) not null default 0.50 check (trust_score between 0 and 1),
  requests_pending integer not null default 0 check (requests_pending >= 0),
  last_login_at timestamptz,
  last_synced_at timestamptz,
  last_tested_at timestamptz,
  proxy_url text check (proxy_url ~ '^([a-z][a-z0-9+.-]*://)?([^:@/\s]+(:[^@/\s]*)?@)?[A-Za-z0-9.-]+:[0-9]{1,5}$'),
  flag_reason text,
  paused_until timestamptz,
  has_chat_passcode boolean not null default false,
  timezone text not null default 'UTC' check (internal.is_valid_timezone(timezone)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Counters and status change with every send: leave room for HOT updates.
alter table public.social_accounts set (fillfactor = 80);

create unique index social_accounts_user_platform_username_key
  on public.social_accounts (user_id, platform_id, lower(username));
create index social_accounts_user_id_created_at_idx on public.social_accounts (user_id, created_at desc);
create index social_accounts_status_idx on public.social_accounts (status) where status = 'active';

comment on table public.social_accounts is
  'A customer''s connected X or Instagram account. Status, warm-up, trust and counters are set by the system.';
comment on column public.social_accounts.username is 'Handle without the leading @.';
comment on column public.social_accounts.status is
  'active = usable; testing = being checked after connect; paused = circuit breaker (see paused_until); flagged = the platform showed a stop signal (see flag_reason); error = login or session failed; inactive = switched off.';
comment on column public.social_accounts.daily_message_limit is 'The customer''s own cap per day for this account (1-500, default 50).';
comment on column public.social_accounts.messages_sent_today is
  'DMs sent (or possibly sent) today in the account''s time zone; counts only while sent_today_on is that day.';
comment on column public.social_accounts.sent_today_on is 'The local day messages_sent_today belongs to.';
comment on column public.social_accounts.warmup_phase is
  'Warm-up ramp 1-4 (10, 20, 35, 50 DMs a day; one week each), 5 = warmed up. Advanced at local midnight.';
comment on column public.social_accounts.warmup_step_on is 'Local day the last warm-up step was queued.';
comment on column public.social_accounts.trust_score is 'Health estimate 0-1 from the runner (shown as a percentage).';
comment on column public.social_accounts.requests_pending is 'Message requests waiting in the account''s inbox at the last sync.';
comment on column public.social_accounts.proxy_url is 'The customer''s own proxy, user:pass@host:port; one stable proxy per account.';
comment on column public.social_accounts.has_chat_passcode is 'X only: the encrypted credentials include the 4-digit X Chat passcode.';
comment on column public.social_accounts.paused_until is 'When a paused account may send again (circuit breaker).';

create table public.social_account_credentials (
  account_id uuid primary key references public.social_accounts (id) on delete cascade,
  key_id text not null,
  ciphertext text not null,
  session_ciphertext text,
  updated_at timestamptz not null default now()
);

comment on table public.social_account_credentials is
  'Encrypted sign-in data per account (base64 AES-256-GCM, encrypted by the functions). No client role can read it; the runner decrypts.';
comment on column public.social_account_credentials.key_id is 'Which encryption key sealed this row, so keys can rotate.';
comment on column public.social_account_credentials.ciphertext is 'Encrypted authData: Instagram password and 2FA secret, or X cookies and passcode.';
comment on column public.social_account_credentials.session_ciphertext is 'Encrypted browser session the runner saved, reused to avoid fresh logins.';

-- Triggers -------------------------------------------------------------------------------------

create trigger social_accounts_set_updated_at
  before update on public.social_accounts
  for each row execute function internal.set_updated_at();

create trigger social_account_credentials_set_updated_at
  before update on public.social_account_credentials
  for each row execute function internal.set_updated_at();

create or replace function internal.account_limit(p_user_id uuid)
returns table (account_limit integer, plan_type text, subscription_status text)
language sql
stable
set search_path = ''
as $$
  -- Spec §6: without an active subscription 1 account (plan free); with one, accounts_purchased.
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

create trigger social_accounts_enforce_limit
  before insert on public.social_accounts
  for each row execute function internal.enforce_account_limit();

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

create trigger social_accounts_check_platform
  before insert on public.social_accounts
  for each row execute function internal.check_platform_connectable();

-- Policies -------------------------------------------------------------------------------------

alter table public.platforms enable row level security;
alter table public.social_accounts enable row level security;
alter table public.social_account_credentials enable row level security;

create policy "Anyone can read the platform list"
  on public.platforms for select
  to anon, authenticated
  using (true);

create policy "Users can read their own social accounts"
  on public.social_accounts for select
  to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can update their own social accounts"
  on public.social_accounts for update
  to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Users can delete their own social accounts"
  on public.social_accounts for delete
  to authenticated
  using (user_id = (select auth.uid()));

-- social_account_credentials: no policy for any client role on purpose.

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.platforms, public.social_accounts, public.social_account_credentials from anon, authenticated;
grant select on public.platforms to anon, authenticated;
grant select, delete on public.social_accounts to authenticated;
grant update (daily_message_limit, proxy_url, timezone, updated_at) on public.social_accounts to authenticated;
grant all on public.platforms, public.social_accounts, public.social_account_credentials to service_role;
