-- DM campaigns: a message sequence sent from one account to the leads of a scraping campaign (or a
-- lead list) inside a schedule window. campaign_leads carry the send state machine
-- (pending -> sending -> sent | failed | uncertain | skipped); dm_logs hold one row per lead and
-- step at most, so a message is never logged twice. A per-customer contact ledger de-duplicates
-- recipients across all accounts and campaigns; do_not_contact is honoured when leads are attached.

-- Tables ---------------------------------------------------------------------------------------

create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  account_id uuid references public.social_accounts (id) on delete set null,
  platform_id uuid not null references public.platforms (id),
  scraping_campaign_id uuid references public.scraping_campaigns (id) on delete set null,
  lead_list_id uuid references public.lead_lists (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  message_template text,
  sequences jsonb not null,
  schedule jsonb not null default
    '{"timezone": "UTC", "timeFrom": "09:00", "timeTo": "17:00", "activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday"], "randomDaysOff": true}'::jsonb,
  run_immediately boolean not null default false,
  target_count integer not null default 100 check (target_count between 1 and 100000),
  status text not null default 'draft'
    check (status in ('draft', 'queued', 'running', 'active', 'paused', 'completed', 'error', 'failed')),
  daily_message_limit integer not null default 50 check (daily_message_limit between 1 and 500),
  messages_sent integer not null default 0 check (messages_sent >= 0),
  messages_failed integer not null default 0 check (messages_failed >= 0),
  total_attempts integer not null default 0 check (total_attempts >= 0),
  response_count integer not null default 0 check (response_count >= 0),
  messages_sent_today integer not null default 0 check (messages_sent_today >= 0),
  sent_today_on date,
  industry text check (char_length(industry) <= 100),
  stage text check (char_length(stage) <= 100),
  error_message text,
  next_action_at timestamptz,
  started_at timestamptz,
  completed_at timestamptz,
  paused_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The scheduler and the runner update counters and leases all day: leave room for HOT updates.
alter table public.campaigns set (fillfactor = 80);

create index campaigns_user_id_created_at_idx on public.campaigns (user_id, created_at desc);
create index campaigns_account_id_idx on public.campaigns (account_id);
create index campaigns_scraping_campaign_id_idx on public.campaigns (scraping_campaign_id);
create index campaigns_lead_list_id_idx on public.campaigns (lead_list_id);
-- The scheduler reads sending campaigns whose next send time has come, and queued ones to start.
create index campaigns_due_idx on public.campaigns ((coalesce(next_action_at, '-infinity'::timestamptz)))
  where status in ('queued', 'running', 'active');
create index campaigns_queued_idx on public.campaigns (id) where status = 'queued';
-- Each sending campaign is checked for completion in its own minute of ten (see internal.enqueue_due_work).
create index campaigns_completion_slot_idx on public.campaigns ((mod(hashtext(id::text)::bigint + 2147483648, 10)))
  where status in ('queued', 'running', 'active');

comment on table public.campaigns is
  'DM campaigns. Draft until launched (or run_immediately); the scheduler ticks running ones inside their schedule; the system completes them.';
comment on column public.campaigns.sequences is
  '{messages: [text], noFirstnameMessage, followUpEnabled, followUpMessages: [text], followUpDays (1-30, default 3)}. {username} and {name} are personalised.';
comment on column public.campaigns.schedule is
  '{timezone (IANA, default UTC), timeFrom, timeTo (HH:MM, from < to), activeDays (lowercase weekdays), randomDaysOff (default true)}.';
comment on column public.campaigns.status is
  'draft, queued (launched, waiting for its first tick), running/active (sending), paused, completed, error, failed. Clients may only launch (also relaunch after an error), pause and resume.';
comment on column public.campaigns.target_count is 'The customer''s goal for messages, shown as sent/target; not a stop rule.';
comment on column public.campaigns.daily_message_limit is 'Most DMs this campaign sends per day in its schedule''s time zone (1-500, default 50).';
comment on column public.campaigns.total_attempts is 'Every logged send attempt (sent, failed, error, uncertain): the delivery rate''s denominator.';
comment on column public.campaigns.response_count is 'Leads that replied (campaign_leads.replied_at set).';
comment on column public.campaigns.messages_sent_today is 'Sent or possibly sent today in the schedule''s time zone; valid while sent_today_on is that day.';
comment on column public.campaigns.next_action_at is
  'Earliest time the scheduler may queue the next tick: the runner sets it after each tick (a random gap to the next send). Null = as soon as possible.';

create table public.campaign_leads (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  scraping_lead_id uuid references public.scraping_campaign_leads (id) on delete set null,
  username text not null check (char_length(username) between 1 and 100),
  profile_data jsonb not null default '{}'::jsonb check (jsonb_typeof(profile_data) = 'object'),
  state text not null default 'pending' check (state in ('pending', 'sending', 'sent', 'failed', 'uncertain', 'skipped')),
  skip_reason text,
  current_step integer not null default 0 check (current_step >= 0),
  next_send_at timestamptz,
  last_sent_at timestamptz,
  replied_at timestamptz,
  reply_text text,
  attempts integer not null default 0 check (attempts >= 0),
  last_error text,
  collected_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index campaign_leads_campaign_username_key on public.campaign_leads (campaign_id, lower(username));
create index campaign_leads_due_idx on public.campaign_leads (campaign_id, next_send_at) where next_send_at is not null;
create index campaign_leads_in_flight_idx on public.campaign_leads (campaign_id) where state in ('sending', 'uncertain');
create index campaign_leads_user_id_collected_at_idx on public.campaign_leads (user_id, collected_at desc);
create index campaign_leads_campaign_collected_at_idx on public.campaign_leads (campaign_id, collected_at desc);
create index campaign_leads_user_replied_at_idx on public.campaign_leads (user_id, replied_at) where replied_at is not null;
create index campaign_leads_scraping_lead_id_idx on public.campaign_leads (scraping_lead_id);

comment on table public.campaign_leads is 'A lead inside a DM campaign and where its message sequence stands.';
comment on column public.campaign_leads.state is
  'pending (waiting for its first message) -> sending (intent written, send in progress) -> sent | failed | uncertain (may have gone out: check the thread, never resend blindly) | skipped (see skip_reason).';
comment on column public.campaign_leads.current_step is 'The step to send next: 0 = first message, 1.. = follow-ups. Advanced when a send is recorded as sent.';
comment on column public.campaign_leads.next_send_at is
  'When the lead is due for its next step; null when nothing more is due (done, replied, skipped, failed or in flight). The scheduler reads it.';
comment on column public.campaign_leads.replied_at is 'When the lead first replied; stops follow-ups.';

create table public.dm_logs (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  campaign_lead_id uuid not null references public.campaign_leads (id) on delete cascade,
  account_id uuid references public.social_accounts (id) on delete set null,
  user_id uuid not null references auth.users (id) on delete cascade,
  step integer not null check (step >= 0),
  message_type text not null check (message_type in ('initial', 'follow_up')),
  status text not null check (status in ('sent', 'failed', 'error', 'uncertain')),
  target_username text not null,
  message_sent text,
  error text,
  sent_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  unique (campaign_lead_id, step)
);

create index dm_logs_user_id_sent_at_idx on public.dm_logs (user_id, sent_at desc) include (status);
create index dm_logs_campaign_id_sent_at_idx on public.dm_logs (campaign_id, sent_at desc);
create index dm_logs_account_id_sent_at_idx on public.dm_logs (account_id, sent_at desc);

comment on table public.dm_logs is 'Every DM attempt: at most one row per lead and step, so a message is never recorded (or sent) twice.';
comment on column public.dm_logs.status is 'sent (confirmed on the page), failed / error (not sent), uncertain (could not confirm; the runner checks the thread later).';
comment on column public.dm_logs.step is '0 = initial message, 1.. = follow-up number.';

create table public.contact_ledger (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  platform text not null references public.platforms (name),
  target_username text not null,
  first_contacted_at timestamptz not null default now(),
  campaign_id uuid references public.campaigns (id) on delete set null,
  account_id uuid references public.social_accounts (id) on delete set null
);

create unique index contact_ledger_user_platform_username_key
  on public.contact_ledger (user_id, platform, lower(target_username));

comment on table public.contact_ledger is
  'Everyone a customer has messaged, per platform, across all accounts and campaigns: a person is contacted once.';

create table public.do_not_contact (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  platform text not null references public.platforms (name),
  target_username text not null check (char_length(target_username) between 1 and 100),
  reason text not null default 'manual' check (char_length(reason) <= 500),
  created_at timestamptz not null default now()
);

create unique index do_not_contact_user_platform_username_key
  on public.do_not_contact (user_id, platform, lower(target_username));

comment on table public.do_not_contact is
  'People a customer must never message (added by hand, or by the runner when someone replies stop/unsubscribe).';

-- Triggers -------------------------------------------------------------------------------------

create trigger campaigns_set_updated_at
  before update on public.campaigns
  for each row execute function internal.set_updated_at();

create trigger campaign_leads_set_updated_at
  before update on public.campaign_leads
  for each row execute function internal.set_updated_at();

create or replace function internal.normalized_sequences(sequences jsonb)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  result jsonb;
  days numeric;
begin
  if jsonb_typeof(sequences) is distinct from 'object' then
    raise exception 'sequences must be an object with messages' using errcode = '22023';
  end if;
  result := jsonb_build_object('messages', '[]'::jsonb, 'noFirstnameMessage', '', 'followUpEnabled', false,
    'followUpMessages', '[]'::jsonb, 'followUpDays', 3) || jsonb_strip_nulls(sequences);

  if jsonb_typeof(result -> 'messages') <> 'array'
     or exists (select 1 from jsonb_array_elements(result -> 'messages') m where jsonb_typeof(m) <> 'string') then
    raise exception 'sequences.messages must be a list of texts' using errcode = '22023';
  end if;
  if not exists (select 1 from jsonb_array_elements_text(result -> 'messages') m where btrim(m) <> '') then
    raise exception 'Write at least one initial message' using errcode = '22023';
  end if;
  if jsonb_array_length(result -> 'messages') > 10
     or jsonb_array_length(result -> 'followUpMessages') > 10 then
    raise exception 'A sequence holds at most 10 messages and 10 follow-ups' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements_text(result -> 'messages') m where char_length(m) > 10000) then
    raise exception 'A message may be at most 10,000 characters' using errcode = '22023';
  end if;
  if jsonb_typeof(result -> 'noFirstnameMessage') <> 'string' then
    raise exception 'sequences.noFirstnameMessage must be a text' using errcode = '22023';
  end if;
  if jsonb_typeof(result -> 'followUpEnabled') <> 'boolean' then
    raise exception 'sequences.followUpEnabled must be true or false' using errcode = '22023';
  end if;
  if jsonb_typeof(result -> 'followUpMessages') <> 'array'
     or exists (select 1 from jsonb_array_elements(result -> 'followUpMessages') m where jsonb_typeof(m) <> 'string') then
    raise exception 'sequences.followUpMessages must be a list of texts' using errcode = '22023';
  end if;
  if jsonb_typeof(result -> 'followUpDays') <> 'number' then
    raise exception 'Follow-up days must be a whole number from 1 to 30' using errcode = '22023';
  end if;
  days := (result ->> 'followUpDays')::numeric;
  if days < 1 or days > 30 or days <> trunc(days) then
    raise exception 'Follow-up days must be a whole number from 1 to 30' using errcode = '22023';
  end if;
  return result;
end
$$;
comment on function internal.normalized_sequences(jsonb) is
  'Checks a campaign''s sequences and fills defaults (followUpEnabled false, followUpDays 3); raises a clear error otherwise.';

create or replace function internal.normalized_schedule(schedule jsonb)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  result jsonb;
  day text;
begin
  if jsonb_typeof(schedule) is distinct from 'object' then
    raise exception 'schedule must be an object' using errcode = '22023';
  end if;
  result := jsonb_build_object('timezone', 'UTC', 'timeFrom', '09:00', 'timeTo', '17:00',
    'activeDays', '["monday", "tuesday", "wednesday", "thursday", "friday"]'::jsonb, 'randomDaysOff', true)
    || jsonb_strip_nulls(schedule);

  if jsonb_typeof(result -> 'timezone') <> 'string' or not internal.is_valid_timezone(result ->> 'timezone') then
    raise exception 'Unknown time zone "%"', result ->> 'timezone' using errcode = '22023';
  end if;
  if jsonb_typeof(result -> 'timeFrom') <> 'string' or (result ->> 'timeFrom') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
     or jsonb_typeof(result -> 'timeTo') <> 'string' or (result ->> 'timeTo') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' then
    raise exception 'Schedule times must be HH:MM (00:00-23:59)' using errcode = '22023';
  end if;
  if (result ->> 'timeFrom') >= (result ->> 'timeTo') then
    raise exception 'The schedule''s end time must be later than its start time' using errcode = '22023';
  end if;
  if jsonb_typeof(result -> 'activeDays') <> 'array' or jsonb_array_length(result -> 'activeDays') = 0 then
    raise exception 'Choose at least one active day' using errcode = '22023';
  end if;
  for day in select jsonb_array_elements_text(result -> 'activeDays') loop
    if day not in ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday') then
      raise exception 'Active days are lowercase weekday names, got "%"', day using errcode = '22023';
    end if;
  end loop;
  if jsonb_typeof(result -> 'randomDaysOff') <> 'boolean' then
    raise exception 'schedule.randomDaysOff must be true or false' using errcode = '22023';
  end if;
  return result;
end
$$;
comment on function internal.normalized_schedule(jsonb) is
  'Checks a campaign schedule (IANA time zone, HH:MM window with from < to, lowercase weekdays) and fills defaults.';

create or replace function internal.prepare_campaign()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_platform uuid;
begin
  new.sequences := internal.normalized_sequences(new.sequences);
  new.schedule := internal.normalized_schedule(new.schedule);
  if new.message_template is null or btrim(new.message_template) = '' then
    select m into new.message_template
      from jsonb_array_elements_text(new.sequences -> 'messages') m where btrim(m) <> '' limit 1;
  end if;

  if new.account_id is not null and (tg_op = 'INSERT' or new.account_id is distinct from old.account_id) then
    select a.platform_id into account_platform
      from public.social_accounts a where a.id = new.account_id and a.user_id = new.user_id;
    if account_platform is null then
      raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
    end if;
    if tg_op = 'UPDATE' and account_platform <> old.platform_id then
      raise exception 'The new account must be on the same platform as the campaign' using errcode = '22023';
    end if;
    new.platform_id := account_platform;
  elsif tg_op = 'INSERT' and new.platform_id is null then
    raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
  end if;

  if new.scraping_campaign_id is not null and (tg_op = 'INSERT' or new.scraping_campaign_id is distinct from old.scraping_campaign_id) then
    if not exists (select 1 from public.scraping_campaigns s where s.id = new.scraping_campaign_id and s.user_id = new.user_id) then
      raise exception 'Choose one of your scraping campaigns as the lead source' using errcode = '23503';
    end if;
    if not exists (select 1 from public.scraping_campaigns s where s.id = new.scraping_campaign_id and s.platform_id = new.platform_id) then
      raise exception 'The lead source must be on the same platform as the account' using errcode = '22023';
    end if;
  end if;
  if new.lead_list_id is not null and (tg_op = 'INSERT' or new.lead_list_id is distinct from old.lead_list_id)
     and not exists (select 1 from public.lead_lists l where l.id = new.lead_list_id and l.user_id = new.user_id) then
    raise exception 'Choose one of your lead lists as the lead source' using errcode = '23503';
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft'
     and (new.scraping_campaign_id is distinct from old.scraping_campaign_id or new.lead_list_id is distinct from old.lead_list_id)
     and internal.is_client_role() then
    raise exception 'The lead source can only change while the campaign is a draft' using errcode = '22023';
  end if;

  if tg_op = 'INSERT' then
    if new.run_immediately and new.status = 'draft' then
      new.status := 'running';
    end if;
    if new.status in ('queued', 'running', 'active') then
      new.started_at := coalesce(new.started_at, internal.now());
    end if;
  end if;
  return new;
end
$$;
comment on function internal.prepare_campaign() is
  'BEFORE INSERT/UPDATE on campaigns: validates sequences and schedule, checks the account and lead source are the customer''s own, starts run_immediately campaigns.';

create trigger campaigns_prepare
  before insert or update of sequences, schedule, account_id, scraping_campaign_id, lead_list_id, message_template
  on public.campaigns
  for each row execute function internal.prepare_campaign();

create or replace function internal.guard_campaign_status()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    -- Customers launch, pause and resume (also after an error, e.g. with a new account);
    -- completing or failing a campaign is the system's call.
    if internal.is_client_role() and not (
         (old.status in ('draft', 'paused', 'error', 'failed') and new.status in ('queued', 'running'))
      or (old.status in ('queued', 'running', 'active') and new.status = 'paused')) then
      raise exception 'A campaign cannot go from % to %', old.status, new.status using errcode = '42501';
    end if;
    if new.status in ('queued', 'running', 'active') and old.status not in ('queued', 'running', 'active') then
      if new.account_id is null then
        raise exception 'Choose an account before launching the campaign' using errcode = '22023';
      end if;
      -- A (re)start: the scheduler may tick it at once.
      new.started_at := coalesce(new.started_at, internal.now());
      new.paused_at := null;
      new.next_action_at := null;
      new.error_message := null;
    elsif new.status = 'paused' then
      new.paused_at := internal.now();
    elsif new.status in ('completed', 'error', 'failed') then
      new.completed_at := coalesce(new.completed_at, internal.now());
    end if;
  end if;
  return new;
end
$$;
comment on function internal.guard_campaign_status() is
  'BEFORE UPDATE of status on campaigns: clients may only launch, pause and resume; stamps started_at, paused_at, completed_at.';

create trigger campaigns_guard_status
  before update of status on public.campaigns
  for each row when (old.status is distinct from new.status) execute function internal.guard_campaign_status();

create or replace function internal.attach_campaign_leads(p_campaign_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign record;
  attached integer;
begin
  select c.id, c.user_id, c.scraping_campaign_id, c.lead_list_id, p.name as platform
    into campaign
    from public.campaigns c join public.platforms p on p.id = c.platform_id
   where c.id = p_campaign_id;

  with source_leads as (
    select s.id, s.username, s.profile_data, s.collected_at
      from public.scraping_campaign_leads s
     where s.scraping_campaign_id = campaign.scraping_campaign_id and not s.is_filtered
    union
    select s.id, s.username, s.profile_data, s.collected_at
      from public.lead_list_members m join public.scraping_campaign_leads s on s.id = m.scraping_lead_id
     where m.lead_list_id = campaign.lead_list_id and not s.is_filtered
  ), marked as (
    select l.*,
           case
             when exists (select 1 from public.do_not_contact d
                           where d.user_id = campaign.user_id and d.platform = campaign.platform
                             and lower(d.target_username) = lower(l.username)) then 'do_not_contact'
             when exists (select 1 from public.contact_ledger x
                           where x.user_id = campaign.user_id and x.platform = campaign.platform
                             and lower(x.target_username) = lower(l.username)) then 'already_contacted'
           end as skip_reason
      from source_leads l
  )
  insert into public.campaign_leads (campaign_id, user_id, scraping_lead_id, username, profile_data, state, skip_reason, collected_at)
  select campaign.id, campaign.user_id, m.id, m.username, m.profile_data,
         case when m.skip_reason is null then 'pending' else 'skipped' end, m.skip_reason, m.collected_at
    from marked m
  on conflict do nothing;
  get diagnostics attached = row_count;
  return attached;
end
$$;
comment on function internal.attach_campaign_leads(uuid) is
  'Copies the valid leads of the campaign''s scraping campaign or lead list into campaign_leads; do-not-contact and already contacted people are attached as skipped.';

create or replace function internal.attach_leads_on_campaign_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    delete from public.campaign_leads l where l.campaign_id = new.id and l.state in ('pending', 'skipped') and l.current_step = 0;
  end if;
  perform internal.attach_campaign_leads(new.id);
  return null;
end
$$;
comment on function internal.attach_leads_on_campaign_change() is
  'AFTER INSERT, or UPDATE of the lead source: (re)attaches the source''s leads to the campaign.';

create trigger campaigns_attach_leads_on_insert
  after insert on public.campaigns
  for each row execute function internal.attach_leads_on_campaign_change();

create trigger campaigns_attach_leads_on_source_change
  after update of scraping_campaign_id, lead_list_id on public.campaigns
  for each row
  when (old.scraping_campaign_id is distinct from new.scraping_campaign_id or old.lead_list_id is distinct from new.lead_list_id)
  execute function internal.attach_leads_on_campaign_change();

create or replace function internal.prepare_campaign_lead()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign record;
  follow_ups integer;
begin
  if tg_op = 'INSERT' then
    select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
    new.username := ltrim(btrim(new.username), '@');
  end if;

  -- A send recorded as sent moves the lead to its next step; a follow-up is due followUpDays later.
  if tg_op = 'UPDATE' and new.state = 'sent' and old.state is distinct from 'sent' then
    new.last_sent_at := coalesce(new.last_sent_at, internal.now());
    if new.current_step = old.current_step then
      new.current_step := old.current_step + 1;
    end if;
    select c.sequences into campaign from public.campaigns c where c.id = new.campaign_id;
    select count(*) into follow_ups
      from jsonb_array_elements_text(campaign.sequences -> 'followUpMessages') m where btrim(m) <> '';
    if (campaign.sequences ->> 'followUpEnabled')::boolean and new.current_step <= follow_ups then
      new.next_send_at := new.last_sent_at + make_interval(days => (campaign.sequences ->> 'followUpDays')::int);
    else
      new.next_send_at := null;
    end if;
  end if;

  -- next_send_at is set exactly while something is due: pending leads now, follow-ups later.
  if new.replied_at is not null or new.state in ('sending', 'failed', 'uncertain', 'skipped') then
    new.next_send_at := null;
  elsif new.state = 'pending' and new.next_send_at is null then
    new.next_send_at := internal.now();
  end if;
  if new.state = 'sending' and (tg_op = 'INSERT' or old.state is distinct from 'sending') then
    new.attempts := new.attempts + 1;
  end if;
  return new;
end
$$;
comment on function internal.prepare_campaign_lead() is
  'BEFORE INSERT/UPDATE on campaign_leads: owner from the campaign; keeps current_step and next_send_at consistent with state and replies.';

create trigger campaign_leads_prepare
  before insert or update on public.campaign_leads
  for each row execute function internal.prepare_campaign_lead();

create or replace function internal.count_campaign_replies()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.campaigns c set response_count = c.response_count + 1 where c.id = new.campaign_id;
  return null;
end
$$;
comment on function internal.count_campaign_replies() is 'AFTER a lead''s first reply: counts it on the campaign.';

create trigger campaign_leads_count_replies
  after update of replied_at on public.campaign_leads
  for each row when (old.replied_at is null and new.replied_at is not null)
  execute function internal.count_campaign_replies();

create trigger campaign_leads_count_replies_on_insert
  after insert on public.campaign_leads
  for each row when (new.replied_at is not null)
  execute function internal.count_campaign_replies();

create or replace function internal.prepare_dm_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
  if not exists (select 1 from public.campaign_leads l where l.id = new.campaign_lead_id and l.campaign_id = new.campaign_id) then
    raise exception 'The lead does not belong to this campaign' using errcode = '23503';
  end if;
  new.message_type := case when new.step = 0 then 'initial' else 'follow_up' end;
  return new;
end
$$;
comment on function internal.prepare_dm_log() is
  'BEFORE INSERT on dm_logs: owner from the campaign, lead must be in the campaign, message_type from the step.';

create trigger dm_logs_prepare
  before insert on public.dm_logs
  for each row execute function internal.prepare_dm_log();

create or replace function internal.count_dm_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was_sent boolean := tg_op = 'UPDATE' and old.status = 'sent';
  was_failed boolean := tg_op = 'UPDATE' and old.status in ('failed', 'error');
  counts_today boolean := tg_op = 'INSERT' and new.status in ('sent', 'uncertain');
  platform_name text;
begin
  update public.campaigns c
     set total_attempts = c.total_attempts + case when tg_op = 'INSERT' then 1 else 0 end,
         messages_sent = c.messages_sent + case when new.status = 'sent' and not was_sent then 1 else 0 end,
         messages_failed = c.messages_failed + case when new.status in ('failed', 'error') and not was_failed then 1 else 0 end,
         -- Today's counter (in the schedule's zone) counts anything that may have gone out.
         messages_sent_today = case
           when not counts_today then c.messages_sent_today
           when c.sent_today_on = (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then c.messages_sent_today + 1
           when c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then 1
           else c.messages_sent_today end,
         sent_today_on = case
           when counts_today and (c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date)
             then (new.sent_at at time zone (c.schedule ->> 'timezone'))::date
           else c.sent_today_on end
   where c.id = new.campaign_id;

  if counts_today and new.account_id is not null then
    update public.social_accounts a
       set messages_sent_today = case
             when a.sent_today_on = (new.sent_at at time zone a.timezone)::date then a.messages_sent_today + 1
             when a.sent_today_on is null or a.sent_today_on < (new.sent_at at time zone a.timezone)::date then 1
             else a.messages_sent_today end,
           sent_today_on = greatest(a.sent_today_on, (new.sent_at at time zone a.timezone)::date)
     where a.id = new.account_id;
  end if;

  if new.status in ('sent', 'uncertain') then
    select p.name into platform_name
      from public.campaigns c join public.platforms p on p.id = c.platform_id where c.id = new.campaign_id;
    insert into public.contact_ledger (user_id, platform, target_username, first_contacted_at, campaign_id, account_id)
    values (new.user_id, platform_name, new.target_username, new.sent_at, new.campaign_id, new.account_id)
    on conflict do nothing;
  end if;
  return null;
end
$$;
comment on function internal.count_dm_log() is
  'AFTER INSERT/UPDATE of status on dm_logs: campaign counters, today''s counters of campaign and account, and the contact ledger.';

create trigger dm_logs_count_insert
  after insert on public.dm_logs
  for each row execute function internal.count_dm_log();

create trigger dm_logs_count_status_change
  after update of status on public.dm_logs
  for each row when (old.status is distinct from new.status)
  execute function internal.count_dm_log();

-- Policies -------------------------------------------------------------------------------------

alter table public.campaigns enable row level security;
alter table public.campaign_leads enable row level security;
alter table public.dm_logs enable row level security;
alter table public.contact_ledger enable row level security;
alter table public.do_not_contact enable row level security;

create policy "Users can read their own campaigns"
  on public.campaigns for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can create campaigns for themselves"
  on public.campaigns for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can update their own campaigns"
  on public.campaigns for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Users can delete their own campaigns"
  on public.campaigns for delete to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read the leads of their own campaigns"
  on public.campaign_leads for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read their own message logs"
  on public.dm_logs for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read their own contact ledger"
  on public.contact_ledger for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can read their own do-not-contact list"
  on public.do_not_contact for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can add to their own do-not-contact list"
  on public.do_not_contact for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can remove from their own do-not-contact list"
  on public.do_not_contact for delete to authenticated
  using (user_id = (select auth.uid()));

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.campaigns, public.campaign_leads, public.dm_logs, public.contact_ledger,
  public.do_not_contact from anon, authenticated;
grant select, delete on public.campaigns to authenticated;
grant insert (user_id, account_id, scraping_campaign_id, lead_list_id, name, message_template, sequences, schedule,
  run_immediately, target_count, daily_message_limit, industry, stage) on public.campaigns to authenticated;
grant update (account_id, scraping_campaign_id, lead_list_id, name, message_template, sequences, schedule,
  target_count, daily_message_limit, industry, stage, status, updated_at) on public.campaigns to authenticated;
grant select on public.campaign_leads, public.dm_logs, public.contact_ledger to authenticated;
grant select, delete on public.do_not_contact to authenticated;
grant insert (user_id, platform, target_username, reason) on public.do_not_contact to authenticated;
grant all on public.campaigns, public.campaign_leads, public.dm_logs, public.contact_ledger,
  public.do_not_contact to service_role;
