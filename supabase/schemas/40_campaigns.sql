-- DM campaigns: campaigns, their leads and the send state machine, the daily figures, and the Leads
-- screen's views (scraped and campaign leads together). What was sent is in 41_messages.sql, who may
-- be contacted in 42_contacts.sql.

-- Tables ------------------------------------------------------------------------------------------

create table public.campaigns (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  account_id uuid,
  platform_id uuid not null,
  scraping_campaign_id uuid,
  lead_list_id uuid,
  name text not null,
  message_template text,
  sequences jsonb not null,
  schedule jsonb not null default '{"timeTo": "17:00", "timeFrom": "09:00", "timezone": "UTC", "activeDays": ["monday", "tuesday", "wednesday", "thursday", "friday"], "randomDaysOff": true}'::jsonb,
  run_immediately boolean not null default false,
  target_count integer not null default 0,
  status text not null default 'draft'::text,
  daily_message_limit integer not null default 50,
  messages_sent integer not null default 0,
  messages_failed integer not null default 0,
  total_attempts integer not null default 0,
  response_count integer not null default 0,
  messages_sent_today integer not null default 0,
  sent_today_on date,
  industry text,
  stage text,
  error_message text,
  next_action_at timestamp with time zone,
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  paused_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  winner_after_sends integer,
  winner_variant_id uuid,
  winner_chosen_at timestamp with time zone,
  ai_personalization boolean not null default false,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint campaigns_pkey primary key (id),
  constraint campaigns_daily_message_limit_check check (((daily_message_limit >= 1) and (daily_message_limit <= 500))),
  constraint campaigns_industry_check check ((char_length(industry) <= 100)),
  constraint campaigns_messages_failed_check check ((messages_failed >= 0)),
  constraint campaigns_messages_sent_check check ((messages_sent >= 0)),
  constraint campaigns_messages_sent_today_check check ((messages_sent_today >= 0)),
  constraint campaigns_name_check check (((char_length(btrim(name)) >= 1) and (char_length(btrim(name)) <= 200))),
  constraint campaigns_response_count_check check ((response_count >= 0)),
  constraint campaigns_stage_check check ((char_length(stage) <= 100)),
  constraint campaigns_status_check check ((status = any (array['draft'::text, 'queued'::text, 'running'::text, 'active'::text, 'paused'::text, 'completed'::text, 'error'::text, 'failed'::text]))),
  constraint campaigns_target_count_check check ((target_count >= 0)),
  constraint campaigns_total_attempts_check check ((total_attempts >= 0)),
  constraint campaigns_winner_after_sends_check check (((winner_after_sends >= 30) and (winner_after_sends <= 10000))),
  constraint campaigns_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete set null,
  constraint campaigns_lead_list_id_fkey foreign key (lead_list_id) references public.lead_lists(id) on delete set null,
  constraint campaigns_platform_id_fkey foreign key (platform_id) references public.platforms(id),
  constraint campaigns_scraping_campaign_id_fkey foreign key (scraping_campaign_id) references public.scraping_campaigns(id) on delete set null,
  constraint campaigns_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint campaigns_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
) with (fillfactor=80);
comment on table public.campaigns is
  'DM campaigns. Draft until launched (or run_immediately); the scheduler ticks running ones inside their schedule; the system completes them.';
comment on column public.campaigns.sequences is
  '{messages: [text], noFirstnameMessage, followUpEnabled, followUpMessages: [text], followUpDays (1-30, default 3)}. {username} and {name} are personalised.';
comment on column public.campaigns.schedule is
  '{timezone (IANA, default UTC), timeFrom, timeTo (HH:MM, from < to), activeDays (lowercase weekdays), randomDaysOff (default true)}.';
comment on column public.campaigns.target_count is
  'People the campaign will message or has messaged: leads not skipped, plus skipped ones already messaged. Kept by triggers; written values are ignored.';
comment on column public.campaigns.status is
  'draft, queued (launched, waiting for its first tick), running/active (sending), paused, completed, error, failed. Clients may only launch (also relaunch after an error), pause and resume.';
comment on column public.campaigns.daily_message_limit is
  'Most DMs this campaign sends per day in its schedule''s time zone (1-500, default 50).';
comment on column public.campaigns.messages_failed is
  'Messages whose log says not delivered now (failed or error); a retry that went out leaves this count.';
comment on column public.campaigns.total_attempts is
  'Messages logged (one per lead and step; a retry reuses its row): sent + failed + unconfirmed. The delivery rate leaves the unconfirmed out.';
comment on column public.campaigns.response_count is
  'Leads that replied (campaign_leads.replied_at set).';
comment on column public.campaigns.messages_sent_today is
  'Sent or possibly sent today in the schedule''s time zone; valid while sent_today_on is that day.';
comment on column public.campaigns.next_action_at is
  'Earliest time the scheduler may queue the next tick: the runner sets it after each tick (a random gap to the next send). Null = as soon as possible.';
comment on column public.campaigns.winner_after_sends is
  'Optional: once every opening variant has this many sends and one replies significantly better (95% confidence), only that one is sent.';
comment on column public.campaigns.winner_variant_id is
  'The opening variant the runner chose as the winner; only it is sent while it is set. Set by the runner.';
comment on column public.campaigns.winner_chosen_at is 'When the winner was chosen.';
comment on column public.campaigns.ai_personalization is
  'When true the runner asks the AI endpoint to personalise each DM from the lead''s name, bio and posts; any failure sends the template.';
comment on column public.campaigns.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.campaign_leads (
  id uuid not null default gen_random_uuid(),
  campaign_id uuid not null,
  user_id uuid not null,
  scraping_lead_id uuid,
  username text not null,
  profile_data jsonb not null default '{}'::jsonb,
  state text not null default 'pending'::text,
  skip_reason text,
  current_step integer not null default 0,
  next_send_at timestamp with time zone,
  last_sent_at timestamp with time zone,
  replied_at timestamp with time zone,
  reply_text text,
  attempts integer not null default 0,
  last_error text,
  collected_at timestamp with time zone not null default now(),
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint campaign_leads_pkey primary key (id),
  constraint campaign_leads_attempts_check check ((attempts >= 0)),
  constraint campaign_leads_current_step_check check ((current_step >= 0)),
  constraint campaign_leads_profile_data_check check ((jsonb_typeof(profile_data) = 'object'::text)),
  constraint campaign_leads_state_check check ((state = any (array['pending'::text, 'sending'::text, 'sent'::text, 'failed'::text, 'uncertain'::text, 'skipped'::text]))),
  constraint campaign_leads_username_check check (((char_length(username) >= 1) and (char_length(username) <= 100))),
  constraint campaign_leads_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint campaign_leads_scraping_lead_id_fkey foreign key (scraping_lead_id) references public.scraping_campaign_leads(id) on delete set null,
  constraint campaign_leads_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint campaign_leads_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.campaign_leads is
  'A lead inside a DM campaign and where its message sequence stands.';
comment on column public.campaign_leads.state is
  'pending (waiting for its first message) -> sending (intent written, send in progress) -> sent | failed | uncertain (may have gone out: check the thread, never resend blindly) | skipped (see skip_reason).';
comment on column public.campaign_leads.current_step is
  'The step to send next: 0 = first message, 1.. = follow-ups. Advanced when a send is recorded as sent.';
comment on column public.campaign_leads.next_send_at is
  'When the lead is due for its next step; null when nothing more is due (done, replied, skipped, failed or in flight). The scheduler reads it.';
comment on column public.campaign_leads.replied_at is 'When the lead first replied; stops follow-ups.';
comment on column public.campaign_leads.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.campaign_daily_stats (
  campaign_id uuid not null,
  user_id uuid not null,
  day date not null,
  attempts integer not null default 0,
  sent integer not null default 0,
  failed integer not null default 0,
  uncertain integer not null default 0,
  replies integer not null default 0,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint campaign_daily_stats_pkey primary key (campaign_id, day),
  constraint campaign_daily_stats_attempts_check check ((attempts >= 0)),
  constraint campaign_daily_stats_failed_check check ((failed >= 0)),
  constraint campaign_daily_stats_replies_check check ((replies >= 0)),
  constraint campaign_daily_stats_sent_check check ((sent >= 0)),
  constraint campaign_daily_stats_uncertain_check check ((uncertain >= 0)),
  constraint campaign_daily_stats_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint campaign_daily_stats_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint campaign_daily_stats_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.campaign_daily_stats is
  'Daily message figures per campaign (day in the campaign''s time zone), kept by triggers. Read-only for customers.';
comment on column public.campaign_daily_stats.uncertain is
  'Sends not confirmed yet; they move to sent or failed when the runner resolves them.';
comment on column public.campaign_daily_stats.replies is 'Leads whose first reply came that day.';
comment on column public.campaign_daily_stats.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create index campaigns_account_id_idx on public.campaigns (account_id);
create index campaigns_completion_slot_idx on public.campaigns (mod(((hashtext((id)::text))::bigint + '2147483648'::bigint), (10)::bigint)) where (status = any (array['queued'::text, 'running'::text, 'active'::text]));
create index campaigns_due_idx on public.campaigns (coalesce(next_action_at, '-infinity'::timestamp with time zone)) where (status = any (array['queued'::text, 'running'::text, 'active'::text]));
create index campaigns_lead_list_id_idx on public.campaigns (lead_list_id);
create index campaigns_queued_idx on public.campaigns (id) where (status = 'queued'::text);
create index campaigns_scraping_campaign_id_idx on public.campaigns (scraping_campaign_id);
create index campaigns_user_id_created_at_idx on public.campaigns (user_id, created_at desc);
create index campaigns_winner_variant_id_idx on public.campaigns (winner_variant_id) where (winner_variant_id is not null);
create index campaigns_workspace_id_created_at_idx on public.campaigns (workspace_id, created_at desc);

create index campaign_leads_campaign_collected_at_idx on public.campaign_leads (campaign_id, collected_at desc);
create unique index campaign_leads_campaign_username_key on public.campaign_leads (campaign_id, lower(username));
create index campaign_leads_do_not_contact_idx on public.campaign_leads (user_id, lower(username)) where (skip_reason = 'do_not_contact'::text);
create index campaign_leads_due_idx on public.campaign_leads (campaign_id, next_send_at) where (next_send_at is not null);
create index campaign_leads_in_flight_idx on public.campaign_leads (campaign_id) where (state = any (array['sending'::text, 'uncertain'::text]));
create index campaign_leads_scraping_lead_id_idx on public.campaign_leads (scraping_lead_id);
create index campaign_leads_user_id_collected_at_idx on public.campaign_leads (user_id, collected_at desc);
create index campaign_leads_user_replied_at_idx on public.campaign_leads (user_id, replied_at) where (replied_at is not null);
create index campaign_leads_workspace_id_collected_at_idx on public.campaign_leads (workspace_id, collected_at desc);
create index campaign_leads_workspace_replied_at_idx on public.campaign_leads (workspace_id, replied_at) where (replied_at is not null);
create index campaign_leads_workspace_do_not_contact_idx on public.campaign_leads (workspace_id, lower(username)) where (skip_reason = 'do_not_contact'::text);

create index campaign_daily_stats_user_id_day_idx on public.campaign_daily_stats (user_id, day);
create index campaign_daily_stats_workspace_id_day_idx on public.campaign_daily_stats (workspace_id, day);

-- Triggers ----------------------------------------------------------------------------------------

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

create or replace function internal.check_campaign_channel()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Instagram's API lets an official account answer people who wrote first, never open a cold
  -- conversation, and the runner has no browser sign-in for it: a DM campaign could only fail.
  if exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
              where a.id = new.account_id and a.connection = 'official' and p.name = 'instagram') then
    raise exception 'This Instagram account is connected through the official API, which only answers people who write first: use its automations, or choose a browser-connected account for DM campaigns' using errcode = '22023';
  end if;
  return new;
end;
$$;
comment on function internal.check_campaign_channel() is
  'BEFORE INSERT or UPDATE of account_id on campaigns: refuses an official Instagram account (the API cannot start a conversation).';

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
comment on function internal.count_campaign_replies() is
  'AFTER a lead''s first reply: counts it on the campaign.';

create or replace function internal.count_campaign_targets()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.campaigns c set target_count = c.target_count + x.n
      from (select r.campaign_id, count(*) as n from added r
             where internal.is_campaign_target(r.state, r.last_sent_at) group by 1) x
     where c.id = x.campaign_id;
  elsif tg_op = 'DELETE' then
    update public.campaigns c set target_count = greatest(0, c.target_count - x.n)
      from (select r.campaign_id, count(*) as n from removed r
             where internal.is_campaign_target(r.state, r.last_sent_at) group by 1) x
     where c.id = x.campaign_id;
  else
    update public.campaigns c
       set target_count = greatest(0, c.target_count
                                      + case when internal.is_campaign_target(new.state, new.last_sent_at) then 1 else -1 end)
     where c.id = new.campaign_id;
  end if;
  return null;
end
$$;
comment on function internal.count_campaign_targets() is
  'AFTER INSERT/DELETE (per statement) and UPDATE (per lead whose membership changed) on campaign_leads: keeps campaigns.target_count.';

create or replace function internal.count_daily_reply()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.campaign_daily_stats as s (campaign_id, user_id, day, replies)
  select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.replied_at)::date, 1
    from public.campaigns c
   where c.id = new.campaign_id
  on conflict (campaign_id, day) do update set replies = s.replies + 1;
  return null;
end
$$;
comment on function internal.count_daily_reply() is
  'AFTER a lead''s first reply: counts it on the reply''s day.';

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

create or replace function internal.keep_campaign_target()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- only count_campaign_targets (a trigger's own update, one level down) sets it
  if tg_op = 'INSERT' then
    new.target_count := 0;
  elsif pg_catalog.pg_trigger_depth() = 1 then
    new.target_count := old.target_count;
  end if;
  return new;
end
$$;
comment on function internal.keep_campaign_target() is
  'BEFORE INSERT/UPDATE of target_count on campaigns: the counter starts at 0 and changes only through count_campaign_targets.';

create or replace function internal.keep_campaign_winner_current()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Turned off, or the winning text is no longer one of the messages: every variant is sent again
  -- (balanced), and a winner is chosen anew under the campaign's current rule.
  if new.winner_after_sends is null
     or (new.winner_variant_id is not null and not exists (
           select 1
             from public.message_variants v, pg_catalog.jsonb_array_elements_text(new.sequences -> 'messages') m
            where v.id = new.winner_variant_id and v.campaign_id = new.id and m = v.template)) then
    new.winner_variant_id := null;
    new.winner_chosen_at := null;
  end if;
  return new;
end
$$;
comment on function internal.keep_campaign_winner_current() is
  'BEFORE UPDATE of the winner rule or the messages on campaigns: forgets a winner that is turned off or whose text was edited away.';

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
      from public.social_accounts a where a.id = new.account_id and a.workspace_id = new.workspace_id;
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
    if not exists (select 1 from public.scraping_campaigns s where s.id = new.scraping_campaign_id and s.workspace_id = new.workspace_id) then
      raise exception 'Choose one of your scraping campaigns as the lead source' using errcode = '23503';
    end if;
    if not exists (select 1 from public.scraping_campaigns s where s.id = new.scraping_campaign_id and s.platform_id = new.platform_id) then
      raise exception 'The lead source must be on the same platform as the account' using errcode = '22023';
    end if;
  end if;
  if new.lead_list_id is not null and (tg_op = 'INSERT' or new.lead_list_id is distinct from old.lead_list_id)
     and not exists (select 1 from public.lead_lists l where l.id = new.lead_list_id and l.workspace_id = new.workspace_id) then
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
  'BEFORE INSERT/UPDATE on campaigns: validates sequences and schedule, checks the account and lead source are in the campaign''s workspace, starts run_immediately campaigns.';

create or replace function internal.prepare_campaign_lead()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign record;
  follow_ups integer;
  step_status text;
begin
  if tg_op = 'INSERT' then
    select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
    new.username := ltrim(btrim(new.username), '@');
  end if;

  if tg_op = 'UPDATE' and new.state in ('pending', 'sent') and old.state in ('sending', 'uncertain') then
    select d.status into step_status
      from public.dm_logs d where d.campaign_lead_id = new.id and d.step = old.current_step;
  end if;

  if step_status = 'deferred' then
    -- nothing was attempted (the page ran out of time before send was pressed): due again at once,
    -- and the attempt given back, so a slow machine never backs the lead off nor gives it up
    new.current_step := old.current_step;
    new.next_send_at := internal.now();
    new.attempts := greatest(0, new.attempts - 1);
  elsif step_status in ('failed', 'error') then
    -- not delivered: the same step again, later
    new.current_step := old.current_step;
    new.next_send_at := internal.now()
      + least(interval '6 hours', interval '5 minutes' * power(2, greatest(0, new.attempts - 1)));
  elsif tg_op = 'UPDATE' and new.state = 'sent' and old.state is distinct from 'sent' then
    -- a send recorded as sent moves the lead to its next step; a follow-up is due followUpDays later
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
  elsif tg_op = 'UPDATE' and new.state = 'sent' and new.next_send_at is not null
        and new.next_send_at is not distinct from old.next_send_at then
    -- a follow-up is due: still, if the campaign has one for this step (follow-ups can be removed;
    -- a due time set in this very update is kept)
    select c.sequences into campaign from public.campaigns c where c.id = new.campaign_id;
    select count(*) into follow_ups
      from jsonb_array_elements_text(campaign.sequences -> 'followUpMessages') m where btrim(m) <> '';
    if not coalesce((campaign.sequences ->> 'followUpEnabled')::boolean, false) or new.current_step > follow_ups then
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
  'BEFORE INSERT/UPDATE on campaign_leads: owner from the campaign; keeps current_step and next_send_at consistent with state, replies and the step''s dm_logs row (retries of undelivered steps back off).';

create trigger campaigns_attach_leads_on_insert after insert on public.campaigns for each row execute function internal.attach_leads_on_campaign_change();

create trigger campaigns_attach_leads_on_source_change after update of scraping_campaign_id, lead_list_id on public.campaigns for each row when (((old.scraping_campaign_id is distinct from new.scraping_campaign_id) or (old.lead_list_id is distinct from new.lead_list_id))) execute function internal.attach_leads_on_campaign_change();

create trigger campaigns_check_channel before insert or update of account_id on public.campaigns for each row execute function internal.check_campaign_channel();

create trigger campaigns_fill_workspace_id before insert on public.campaigns for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger campaigns_guard_status before update of status on public.campaigns for each row when ((old.status is distinct from new.status)) execute function internal.guard_campaign_status();

create trigger campaigns_keep_target before insert or update of target_count on public.campaigns for each row execute function internal.keep_campaign_target();

create trigger campaigns_prepare before insert or update of sequences, schedule, account_id, scraping_campaign_id, lead_list_id, message_template on public.campaigns for each row execute function internal.prepare_campaign();

create trigger campaigns_set_updated_at before update on public.campaigns for each row execute function internal.set_updated_at();

create trigger campaigns_variant_winner_current before update of winner_after_sends, winner_variant_id, sequences on public.campaigns for each row when ((new.winner_variant_id is not null)) execute function internal.keep_campaign_winner_current();

create trigger campaign_leads_count_daily_reply after update of replied_at on public.campaign_leads for each row when (((old.replied_at is null) and (new.replied_at is not null))) execute function internal.count_daily_reply();

create trigger campaign_leads_count_daily_reply_on_insert after insert on public.campaign_leads for each row when ((new.replied_at is not null)) execute function internal.count_daily_reply();

create trigger campaign_leads_count_replies after update of replied_at on public.campaign_leads for each row when (((old.replied_at is null) and (new.replied_at is not null))) execute function internal.count_campaign_replies();

create trigger campaign_leads_count_replies_on_insert after insert on public.campaign_leads for each row when ((new.replied_at is not null)) execute function internal.count_campaign_replies();

create trigger campaign_leads_count_targets_delete after delete on public.campaign_leads referencing old table as removed for each statement execute function internal.count_campaign_targets();

create trigger campaign_leads_count_targets_insert after insert on public.campaign_leads referencing new table as added for each statement execute function internal.count_campaign_targets();

create trigger campaign_leads_count_targets_update after update of state, last_sent_at on public.campaign_leads for each row when ((((old.state <> 'skipped'::text) or (old.last_sent_at is not null)) is distinct from ((new.state <> 'skipped'::text) or (new.last_sent_at is not null)))) execute function internal.count_campaign_targets();

create trigger campaign_leads_fill_workspace_id before insert on public.campaign_leads for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_campaign();

create trigger campaign_leads_prepare before insert or update on public.campaign_leads for each row execute function internal.prepare_campaign_lead();

create trigger campaign_leads_set_updated_at before update on public.campaign_leads for each row execute function internal.set_updated_at();

create trigger campaign_daily_stats_fill_workspace_id before insert on public.campaign_daily_stats for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_campaign();

-- Helper functions --------------------------------------------------------------------------------

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

create or replace function internal.campaign_next_open_at(p_campaign_id uuid, p_schedule jsonb, p_after timestamp with time zone)
returns timestamp with time zone
language plpgsql
stable
set search_path = ''
as $$
declare
  zone text := p_schedule ->> 'timezone';
  first_day date := pg_catalog.timezone(zone, p_after)::date;
  opens timestamp with time zone;
begin
  -- Two weeks always hold an open window unless every active day is off.
  for i in 0..14 loop
    opens := greatest(p_after, pg_catalog.timezone(zone, (first_day + i) + (p_schedule ->> 'timeFrom')::time));
    if opens < pg_catalog.timezone(zone, (first_day + i) + (p_schedule ->> 'timeTo')::time)
       and internal.campaign_window_open(p_campaign_id, p_schedule, opens) then
      return opens;
    end if;
  end loop;
  return null;
end
$$;
comment on function internal.campaign_next_open_at(uuid, jsonb, timestamp with time zone) is
  'The first instant at or after p_after at which the campaign''s schedule window is open (active day, not a random day off); null when none in two weeks.';

create or replace function internal.campaign_sends_left_today(campaign public.campaigns, account public.social_accounts, platform public.platforms, at timestamp with time zone)
returns integer
language sql
stable
as $$
  -- One expression without FROM, so the planner inlines it into the scheduler's scan. The
  -- campaign's count belongs to the day it was last written on, in the campaign's time zone.
  select least(
    greatest(0, campaign.daily_message_limit
      - case when campaign.sent_today_on = pg_catalog.timezone(campaign.schedule ->> 'timezone', at)::date
             then campaign.messages_sent_today else 0 end),
    internal.account_sends_left_today(account, platform, at))
$$;
comment on function internal.campaign_sends_left_today(public.campaigns, public.social_accounts, public.platforms, timestamp with time zone) is
  'How many more DMs a campaign may send on the day of `at`: what its own daily limit leaves (campaign''s time zone), held to what its account may still send (internal.account_sends_left_today); 0 when none.';

create or replace function internal.campaign_window_open(campaign_id uuid, schedule jsonb, at timestamp with time zone)
returns boolean
language sql
stable
as $$
  -- One expression without FROM, so the planner can inline it.
  select pg_catalog.timezone(schedule ->> 'timezone', at)::time >= (schedule ->> 'timeFrom')::time
     and pg_catalog.timezone(schedule ->> 'timezone', at)::time < (schedule ->> 'timeTo')::time
     and schedule -> 'activeDays' ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
           [pg_catalog.date_part('isodow', pg_catalog.timezone(schedule ->> 'timezone', at))::integer]
     and not (coalesce((schedule ->> 'randomDaysOff')::boolean, true)
              and internal.is_random_day_off(campaign_id, pg_catalog.timezone(schedule ->> 'timezone', at)::date))
$$;
comment on function internal.campaign_window_open(uuid, jsonb, timestamp with time zone) is
  'True when the schedule''s window (timeFrom inclusive, timeTo exclusive) is open at that instant in the schedule''s time zone, on an active day that is not a random day off.';

create or replace function internal.is_campaign_target(p_state text, p_last_sent_at timestamp with time zone)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_state <> 'skipped' or p_last_sent_at is not null
$$;
comment on function internal.is_campaign_target(text, timestamp with time zone) is
  'Whether a campaign lead counts in its campaign''s target: not skipped, or skipped after it was messaged.';

create or replace function internal.is_random_day_off(campaign_id uuid, day date)
returns boolean
language sql
stable
as $$
  -- A stable pseudo-random draw per campaign and date: about one day in seven is off.
  select mod(pg_catalog.abs(('x' || pg_catalog.left(pg_catalog.md5(campaign_id::text || ':' || pg_catalog.to_char(day::timestamp, 'YYYY-MM-DD')), 7))::bit(28)::integer), 7) = 0
$$;
comment on function internal.is_random_day_off(uuid, date) is
  'True on the campaign''s random days off: deterministic per campaign and date, about one active day in seven.';

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

create or replace function internal.percent_or_none(p_part numeric, p_whole numeric)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when p_whole > 0 then round(p_part * 100.0 / p_whole, 1) end
$$;
comment on function internal.percent_or_none(numeric, numeric) is
  'A figure''s rate in percent with one decimal; null (shown "—") when there is nothing to divide by, so a rate before any send is no 0 %.';

create or replace function internal.sends_left_today(p_campaign_id uuid)
returns integer
language sql
stable security definer
set search_path = ''
as $$
  select internal.campaign_sends_left_today(c, a, p, internal.now())
    from public.campaigns c
    join public.social_accounts a on a.id = c.account_id
    join public.platforms p on p.id = a.platform_id
   where c.id = p_campaign_id
$$;
comment on function internal.sends_left_today(uuid) is
  'For the runner, right before a send: DMs the campaign may still send today under every cap (0 when none; null without an account).';

-- Views -------------------------------------------------------------------------------------------

create view public.lead_view with (security_invoker=false, security_barrier=false) as
  select leads.id,
     leads.source,
     leads.user_id,
     leads.campaign_id,
     leads.campaign_name,
     leads.username,
     leads.display_name,
     leads.email,
     leads.company,
     leads.title,
     leads.avatar,
     leads.status,
     leads.last_activity,
     leads.collected_at
    from ( select l.id,
             'campaign'::text as source,
             l.user_id,
             l.workspace_id,
             l.campaign_id,
             coalesce(( select c.name
                    from public.campaigns c
                   where c.id = l.campaign_id), 'Unknown Campaign'::text) as campaign_name,
             l.username,
             coalesce(nullif(l.profile_data ->> 'display_name'::text, ''::text), nullif(l.profile_data ->> 'full_name'::text, ''::text), l.username) as display_name,
             nullif(l.profile_data ->> 'email'::text, ''::text) as email,
             coalesce(nullif(l.profile_data ->> 'company'::text, ''::text), nullif(l.profile_data ->> 'business'::text, ''::text)) as company,
             coalesce(nullif(l.profile_data ->> 'title'::text, ''::text), nullif(l.profile_data ->> 'job_title'::text, ''::text)) as title,
             upper("left"(l.username, 1)) as avatar,
                 case
                     when l.replied_at is not null then 'replied'::text
                     else l.state
                 end as status,
             l.collected_at as last_activity,
             l.collected_at
            from public.campaign_leads l
         union all
          select s.id,
             'scraping'::text as text,
             s.user_id,
             s.workspace_id,
             s.scraping_campaign_id,
             coalesce(( select sc.name
                    from public.scraping_campaigns sc
                   where sc.id = s.scraping_campaign_id), 'Unknown Scraping Campaign'::text) as "coalesce",
             s.username,
             coalesce(nullif(s.profile_data ->> 'display_name'::text, ''::text), nullif(s.profile_data ->> 'full_name'::text, ''::text), s.username) as "coalesce",
             nullif(s.profile_data ->> 'email'::text, ''::text) as "nullif",
             coalesce(nullif(s.profile_data ->> 'company'::text, ''::text), nullif(s.profile_data ->> 'business'::text, ''::text)) as "coalesce",
             coalesce(nullif(s.profile_data ->> 'title'::text, ''::text), nullif(s.profile_data ->> 'job_title'::text, ''::text)) as "coalesce",
             upper("left"(s.username, 1)) as upper,
                 case
                     when s.is_filtered then 'filtered'::text
                     else 'active'::text
                 end as "case",
             s.collected_at,
             s.collected_at
            from public.scraping_campaign_leads s) leads
   where leads.workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role);
comment on view public.lead_view is
  'The Leads tab: the caller''s campaign leads and scraped leads in one list (product.md §3). Page it with order=collected_at.desc, limit/offset and count=exact. Shows only the caller''s active workspace''s rows (it filters by internal.active_workspace_with_role itself).';
comment on column public.lead_view.source is
  'campaign (a DM campaign lead) or scraping (a scraped lead).';
comment on column public.lead_view.status is
  'Campaign leads: pending, sending, sent, failed, uncertain, skipped or replied. Scraped leads: active or filtered.';
create trigger lead_view_read_only instead of insert or delete or update on public.lead_view for each row execute function internal.refuse_view_write();

create view public.lead_people with (security_invoker=false, security_barrier=false) as
  with rows as (
          select 'campaign'::text as source,
             l.id,
             l.campaign_id,
             coalesce(c.name, 'Unknown Campaign'::text) as campaign_name,
             c.platform_id,
             l.username,
             l.profile_data,
                 case
                     when l.replied_at is not null then 'replied'::text
                     else l.state
                 end as status,
                 case
                     when l.replied_at is not null then 0
                     else 1
                 end as precedence,
             greatest(l.collected_at, coalesce(l.last_sent_at, l.collected_at), coalesce(l.replied_at, l.collected_at)) as activity_at,
             l.collected_at
            from public.campaign_leads l
              join public.campaigns c on c.id = l.campaign_id
           where l.workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)
         union all
          select 'scraping'::text as text,
             s.id,
             s.scraping_campaign_id,
             coalesce(sc.name, 'Unknown Scraping Campaign'::text) as "coalesce",
             sc.platform_id,
             s.username,
             s.profile_data,
                 case
                     when s.is_filtered then 'filtered'::text
                     else 'active'::text
                 end as "case",
             2,
             s.collected_at,
             s.collected_at
            from public.scraping_campaign_leads s
              join public.scraping_campaigns sc on sc.id = s.scraping_campaign_id
           where s.workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)
         ), people as (
          select r.platform_id,
             lower(r.username) as person,
             (array_agg(r.id order by r.precedence, r.activity_at desc, r.id))[1] as id,
             (array_agg(r.source order by r.precedence, r.activity_at desc, r.id))[1] as source,
             (array_agg(r.campaign_id order by r.precedence, r.activity_at desc, r.id))[1] as campaign_id,
             (array_agg(r.campaign_name order by r.precedence, r.activity_at desc, r.id))[1] as campaign_name,
             (array_agg(r.username order by r.precedence, r.activity_at desc, r.id))[1] as username,
             (array_agg(r.status order by r.precedence, r.activity_at desc, r.id))[1] as status,
             (array_agg(coalesce(nullif(r.profile_data ->> 'display_name'::text, ''::text), nullif(r.profile_data ->> 'full_name'::text, ''::text)) order by r.collected_at desc) filter (where coalesce(nullif(r.profile_data ->> 'display_name'::text, ''::text), nullif(r.profile_data ->> 'full_name'::text, ''::text)) is not null))[1] as display_name,
             (array_agg(nullif(r.profile_data ->> 'email'::text, ''::text) order by r.collected_at desc) filter (where nullif(r.profile_data ->> 'email'::text, ''::text) is not null))[1] as email,
             (array_agg(coalesce(nullif(r.profile_data ->> 'company'::text, ''::text), nullif(r.profile_data ->> 'business'::text, ''::text)) order by r.collected_at desc) filter (where coalesce(nullif(r.profile_data ->> 'company'::text, ''::text), nullif(r.profile_data ->> 'business'::text, ''::text)) is not null))[1] as company,
             (array_agg(coalesce(nullif(r.profile_data ->> 'title'::text, ''::text), nullif(r.profile_data ->> 'job_title'::text, ''::text)) order by r.collected_at desc) filter (where coalesce(nullif(r.profile_data ->> 'title'::text, ''::text), nullif(r.profile_data ->> 'job_title'::text, ''::text)) is not null))[1] as title,
             array_agg(distinct r.campaign_name) as sources,
             array_agg(distinct r.campaign_id) as campaign_ids,
             count(*)::integer as source_count,
             max(r.activity_at) as last_activity,
             max(r.collected_at) as collected_at
            from rows r
           group by r.platform_id, (lower(r.username))
         )
  select p.id,
     p.source,
     p.campaign_id,
     p.campaign_name,
     p.username,
     coalesce(p.display_name, p.username) as display_name,
     p.email,
     p.company,
     p.title,
     upper("left"(p.username, 1)) as avatar,
     p.status,
     p.last_activity,
     p.collected_at,
     p.sources,
     p.campaign_ids,
     p.source_count,
     ( select pl.name
            from public.platforms pl
           where pl.id = p.platform_id) as platform
    from people p;
comment on view public.lead_people is
  'The Leads tab: one row per person (platform + username) across the caller''s DM and scraped leads, with the latest status (replied wins, then DM states, then active/filtered), the sources (campaign names) and campaign_ids. Shows only the caller''s rows.';
comment on column public.lead_people.status is
  'The person''s latest status across sources: replied; pending, sending, sent, failed, uncertain or skipped from a DM campaign; active or filtered when only scraped.';
create trigger lead_people_read_only instead of insert or delete or update on public.lead_people for each row execute function internal.refuse_view_write();

-- Row-level security ------------------------------------------------------------------------------

alter table public.campaigns enable row level security;

create policy "The runner reads campaigns" on public.campaigns
  for select
  to reachflow_runner
  using (true);

create policy "The runner updates campaigns" on public.campaigns
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "Members can read the workspace's campaigns" on public.campaigns
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can change the workspace's campaigns" on public.campaigns
  for update
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)))
  with check ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's campaigns" on public.campaigns
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

create policy "Members who edit can delete the workspace's campaigns" on public.campaigns
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.campaign_leads enable row level security;

create policy "The runner reads campaign leads" on public.campaign_leads
  for select
  to reachflow_runner
  using (true);

create policy "The runner updates campaign leads" on public.campaign_leads
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "Members can read the workspace's campaign leads" on public.campaign_leads
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.campaign_daily_stats enable row level security;

create policy "Members can read the workspace's campaigns' daily figures" on public.campaign_daily_stats
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.campaigns from anon;
revoke insert, update, truncate, references, trigger on public.campaigns from authenticated;
grant select on public.campaigns to reachflow_runner;
grant insert (id, user_id, account_id, scraping_campaign_id, lead_list_id, name, message_template, sequences, schedule, run_immediately, target_count, daily_message_limit, industry, stage, winner_after_sends, ai_personalization) on public.campaigns to authenticated;
grant update (account_id, scraping_campaign_id, lead_list_id, name, message_template, sequences, schedule, target_count, status, daily_message_limit, industry, stage, updated_at, winner_after_sends, ai_personalization) on public.campaigns to authenticated;
grant update (status, error_message, next_action_at, updated_at, winner_variant_id, winner_chosen_at) on public.campaigns to reachflow_runner;

revoke all on public.campaign_leads from anon;
revoke insert, update, delete, truncate, references, trigger on public.campaign_leads from authenticated;
grant select on public.campaign_leads to reachflow_runner;
grant update (state, skip_reason, last_sent_at, replied_at, reply_text, last_error, updated_at) on public.campaign_leads to reachflow_runner;

revoke all on public.campaign_daily_stats from anon;
revoke insert, update, delete, truncate, references, trigger on public.campaign_daily_stats from authenticated;

revoke all on public.lead_view from anon;
revoke insert, update, delete, truncate, references, trigger on public.lead_view from authenticated;

revoke all on public.lead_people from anon;
revoke insert, update, delete, truncate, references, trigger on public.lead_people from authenticated;

revoke execute on function internal.attach_campaign_leads(uuid) from public;
revoke execute on function internal.attach_leads_on_campaign_change() from public;

revoke execute on function internal.campaign_next_open_at(uuid, jsonb, timestamp with time zone) from public;
grant execute on function internal.campaign_next_open_at(uuid, jsonb, timestamp with time zone) to authenticated, service_role;

revoke execute on function internal.campaign_sends_left_today(public.campaigns, public.social_accounts, public.platforms, timestamp with time zone) from public;
grant execute on function internal.campaign_sends_left_today(public.campaigns, public.social_accounts, public.platforms, timestamp with time zone) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.campaign_window_open(uuid, jsonb, timestamp with time zone) from public;
grant execute on function internal.campaign_window_open(uuid, jsonb, timestamp with time zone) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.check_campaign_channel() from public;
revoke execute on function internal.count_campaign_replies() from public;
revoke execute on function internal.count_campaign_targets() from public;
revoke execute on function internal.count_daily_reply() from public;
revoke execute on function internal.guard_campaign_status() from public;

revoke execute on function internal.is_campaign_target(text, timestamp with time zone) from public;
grant execute on function internal.is_campaign_target(text, timestamp with time zone) to authenticated, service_role;

revoke execute on function internal.is_random_day_off(uuid, date) from public;
grant execute on function internal.is_random_day_off(uuid, date) to authenticated, reachflow_runner, service_role;

revoke execute on function internal.keep_campaign_target() from public;
revoke execute on function internal.keep_campaign_winner_current() from public;
revoke execute on function internal.normalized_schedule(jsonb) from public;
revoke execute on function internal.normalized_sequences(jsonb) from public;

revoke execute on function internal.percent_or_none(numeric, numeric) from public;
grant execute on function internal.percent_or_none(numeric, numeric) to authenticated, service_role;

revoke execute on function internal.prepare_campaign() from public;
revoke execute on function internal.prepare_campaign_lead() from public;

revoke execute on function internal.sends_left_today(uuid) from public;
grant execute on function internal.sends_left_today(uuid) to reachflow_runner, service_role;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.admin_campaign_detail(p_campaign_id uuid, p_messages integer default 20)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id,
    'name', c.name,
    'status', c.status,
    'userEmail', u.email,
    'accountUsername', a.username,
    'platformName', pl.name,
    'targetCount', c.target_count,
    'dailyMessageLimit', c.daily_message_limit,
    'messagesSent', c.messages_sent,
    'messagesFailed', c.messages_failed,
    'totalAttempts', c.total_attempts,
    'responseCount', c.response_count,
    'messagesSentToday', case when c.sent_today_on = (now() at time zone coalesce(c.schedule ->> 'timezone', 'UTC'))::date
                              then c.messages_sent_today else 0 end,
    'errorMessage', c.error_message,
    'schedule', c.schedule,
    'createdAt', c.created_at,
    'startedAt', c.started_at,
    'pausedAt', c.paused_at,
    'completedAt', c.completed_at,
    'updatedAt', c.updated_at,
    'nextActionAt', c.next_action_at,
    'leads', (
      select jsonb_build_object(
        'total', count(*),
        'pending', count(*) filter (where l.state = 'pending'),
        'inFlight', count(*) filter (where l.state in ('sending', 'uncertain')),
        'contacted', count(*) filter (where l.state = 'sent' or l.last_sent_at is not null),
        'replied', count(*) filter (where l.replied_at is not null),
        'failed', count(*) filter (where l.state = 'failed'),
        'skipped', count(*) filter (where l.state = 'skipped'))
        from public.campaign_leads l where l.campaign_id = c.id),
    'recentMessages', coalesce((
      select jsonb_agg(x order by x.sent_at desc)
        from (select d.id, d.status, d.target_username, d.message_sent, d.message_type, d.step, d.error, d.sent_at
                from public.dm_logs d where d.campaign_id = c.id
               order by d.sent_at desc limit least(greatest(coalesce(p_messages, 20), 1), 100)) x), '[]'::jsonb))
    from public.campaigns c
    join auth.users u on u.id = c.user_id
    join public.platforms pl on pl.id = c.platform_id
    left join public.social_accounts a on a.id = c.account_id
   where c.id = p_campaign_id
$$;
comment on function public.admin_campaign_detail(uuid, integer) is
  'Admin Monitor: a campaign''s figures, lead progress by state and its latest message log entries. Null for an unknown campaign.';
revoke execute on function public.admin_campaign_detail(uuid, integer) from public, anon, authenticated;

create or replace function public.admin_campaigns(p_limit integer default 500)
returns table(id uuid, name text, user_email text, status text, messages_sent integer, contacted integer, target_count integer, response_count integer, started_at timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  select c.id, c.name, u.email::text, c.status, c.messages_sent,
         (select count(*)::integer from public.campaign_leads l where l.campaign_id = c.id and l.last_sent_at is not null),
         c.target_count, c.response_count, c.started_at
    from public.campaigns c
    join auth.users u on u.id = c.user_id
   order by c.created_at desc
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$$;
comment on function public.admin_campaigns(integer) is
  'Admin Campaigns table: every customer''s DM campaigns, newest first, with messages sent, people contacted and the target (people it will message).';
revoke execute on function public.admin_campaigns(integer) from public, anon, authenticated;

create or replace function public.campaign_days_off(p_campaign_id uuid, p_from date default null::date, p_days integer default 28)
returns setof date
language sql
stable
set search_path = ''
as $$
  select d::date
    from public.campaigns c
   cross join lateral pg_catalog.generate_series(
           coalesce(p_from, pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date),
           coalesce(p_from, pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date)
             + (least(greatest(coalesce(p_days, 28), 1), 366) - 1),
           interval '1 day') d
   where c.id = p_campaign_id
     and coalesce((c.schedule ->> 'randomDaysOff')::boolean, true)
     and c.schedule -> 'activeDays' ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
           [pg_catalog.date_part('isodow', d)::integer]
     and internal.is_random_day_off(c.id, d::date)
   order by 1
$$;
comment on function public.campaign_days_off(uuid, date, integer) is
  'The campaign''s random days off (active days it will not send) from p_from (default: today in its time zone) for p_days days (1-366). Under RLS: only the owner''s campaigns.';
revoke execute on function public.campaign_days_off(uuid, date, integer) from public, anon;

create or replace function public.campaign_figures(p_campaign_id uuid default null::uuid)
returns table(campaign_id uuid, target bigint, not_deliverable bigint, eligible bigint, contacted bigint, replied bigint, delivered bigint, not_delivered bigint, unconfirmed bigint, delivery_rate numeric, progress numeric, reply_rate numeric)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- The one definition of each campaign figure (the card, the details, the dashboard read it;
  -- domain/campaign-figures.ts names them): every lead the campaign took is its target; a lead
  -- skipped before anything went out (refused by the platform: closed inbox, verified senders
  -- only, cannot be messaged; do-not-contact; opted out) is not deliverable; the rest are eligible
  -- (= campaigns.target_count, kept by triggers with internal.is_campaign_target).
  return query
    select c.id, l.target, l.target - l.eligible, l.eligible, l.contacted, l.replied,
           c.messages_sent::bigint, c.messages_failed::bigint,
           (c.total_attempts - c.messages_sent - c.messages_failed)::bigint,
           internal.percent_or_none(c.messages_sent, c.messages_sent + c.messages_failed),
           internal.percent_or_none(l.contacted, l.eligible),
           internal.percent_or_none(l.replied, c.messages_sent)
      from public.campaigns c
     cross join lateral (
       select count(*) as target,
              count(*) filter (where internal.is_campaign_target(cl.state, cl.last_sent_at)) as eligible,
              count(*) filter (where cl.last_sent_at is not null) as contacted,
              count(*) filter (where cl.replied_at is not null) as replied
         from public.campaign_leads cl where cl.campaign_id = c.id) l
     where c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and (p_campaign_id is null or c.id = p_campaign_id);
end
$$;
comment on function public.campaign_figures(uuid) is
  'Each DM campaign of the caller (or the one asked for), its figures by one definition: target (its leads), not_deliverable (skipped before anything went out), eligible (target - not deliverable), contacted (sent at least once), replied, delivered (messages confirmed sent, follow-ups included), not_delivered (failed now), unconfirmed, delivery_rate (delivered / (delivered + not delivered)), progress (contacted / eligible), reply_rate (replied / delivered); a rate is null while its whole is 0.';
revoke execute on function public.campaign_figures(uuid) from public, anon;

create or replace function public.campaign_lead_counts()
returns table(campaign_id uuid, leads bigint)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select l.campaign_id, count(*) from public.campaign_leads l
     where l.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
     group by l.campaign_id;
end
$$;
comment on function public.campaign_lead_counts() is
  'How many leads each of the caller''s DM campaigns has (the campaign cards'' Total Leads), in one query.';
revoke execute on function public.campaign_lead_counts() from public, anon;

create or replace function public.campaign_sending_waits()
returns table(campaign_id uuid, account_username text, cause text, cap integer, resumes_at timestamp with time zone)
language sql
stable
set search_path = ''
as $$
  -- Campaigns with leads due that send nothing because a daily cap is used up (the scheduler queues
  -- no tick for them: internal.campaign_sends_left_today is 0). The account's cap is named first;
  -- sending resumes once every used-up cap's day has turned and the schedule's window is open.
  select w.id, w.username,
         case when w.account_left = 0 then w.account_reason else 'campaign' end,
         case when w.account_left = 0 then w.account_cap else w.campaign_cap end,
         internal.campaign_next_open_at(w.id, w.schedule, greatest(
           case when w.account_left = 0 then w.account_day_ends end,
           case when w.campaign_left = 0 then w.campaign_day_ends end))
    from (
      select c.id, c.schedule, a.username, c.daily_message_limit as campaign_cap,
             internal.account_sends_left_today(a, p, clock.t) as account_left,
             internal.account_daily_cap(a, p) as account_cap,
             internal.account_cap_reason(a, p) as account_reason,
             c.daily_message_limit
               - case when c.sent_today_on = pg_catalog.timezone(c.schedule ->> 'timezone', clock.t)::date
                      then c.messages_sent_today else 0 end as campaign_left,
             pg_catalog.timezone(a.timezone, (pg_catalog.timezone(a.timezone, clock.t)::date + 1)::timestamp) as account_day_ends,
             pg_catalog.timezone(c.schedule ->> 'timezone',
               (pg_catalog.timezone(c.schedule ->> 'timezone', clock.t)::date + 1)::timestamp) as campaign_day_ends
        from (select internal.now() as t) clock
        cross join public.campaigns c
        join public.social_accounts a on a.id = c.account_id
        join public.platforms p on p.id = a.platform_id
       where c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
         and c.status in ('queued', 'running', 'active')
         and a.status = 'active'
         and internal.campaign_sends_left_today(c, a, p, clock.t) = 0
         and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= clock.t)
    ) w
$$;
comment on function public.campaign_sending_waits() is
  'Per sending DM campaign of the caller that has leads due but may send no more today: whose cap stopped it (cause warmup, account, platform, recovering — the account''s — or campaign), that cap, and when sending resumes (the next open window after the cap''s day ends, in its own time zone).';
revoke execute on function public.campaign_sending_waits() from public, anon;

create or replace function public.campaign_stats(p_campaign_id uuid, p_days integer default 30)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  campaign public.campaigns;
  tz text;
  days integer := least(greatest(coalesce(p_days, 30), 1), 365);
  leads jsonb;
  figures record;
  per_day jsonb;
begin
  select * into campaign from public.campaigns c where c.id = p_campaign_id and c.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'));
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  tz := campaign.schedule ->> 'timezone';

  select jsonb_build_object(
           'total', count(*),
           'pending', count(*) filter (where l.state = 'pending'),
           'contacted', count(*) filter (where l.last_sent_at is not null),
           'skipped', count(*) filter (where l.state = 'skipped'),
           'failed', count(*) filter (where l.state = 'failed'),
           'uncertain', count(*) filter (where l.state = 'uncertain'),
           'replied', count(*) filter (where l.replied_at is not null))
    into leads
    from public.campaign_leads l where l.campaign_id = campaign.id;

  with calendar as (
    select d::date as day
      from pg_catalog.generate_series(pg_catalog.timezone(tz, (select internal.now()))::date - (days - 1),
                                      pg_catalog.timezone(tz, (select internal.now()))::date, interval '1 day') d
  )
  select jsonb_agg(jsonb_build_object('date', c.day, 'sent', coalesce(s.sent, 0), 'failed', coalesce(s.failed, 0),
                                      'uncertain', coalesce(s.uncertain, 0), 'replies', coalesce(s.replies, 0)) order by c.day)
    into per_day
    from calendar c
    left join public.campaign_daily_stats s on s.campaign_id = campaign.id and s.day = c.day;

  select * into figures from public.campaign_figures(campaign.id);

  return jsonb_build_object(
    'campaignId', campaign.id,
    'status', campaign.status,
    'totalLeads', figures.target,
    'notDeliverable', figures.not_deliverable,
    'leads', leads,
    'messagesSent', figures.delivered,
    'totalAttempts', campaign.total_attempts,
    'responses', figures.replied,
    'replyRate', figures.reply_rate,
    'messagesFailed', figures.not_delivered,
    'messagesUncertain', figures.unconfirmed,
    'eligible', figures.eligible,
    'deliveryRate', figures.delivery_rate,
    'progress', figures.progress,
    'sentToday', case when campaign.sent_today_on = pg_catalog.timezone(tz, (select internal.now()))::date
                      then campaign.messages_sent_today else 0 end,
    'daysOff', (select coalesce(jsonb_agg(d), '[]'::jsonb) from public.campaign_days_off(campaign.id, null, 14) d),
    'perDay', per_day);
end
$$;
comment on function public.campaign_stats(uuid, integer) is
  'DM campaign detail figures, those of campaign_figures under their screen names: totalLeads (target), notDeliverable, target (eligible), messagesSent (delivered), messagesFailed (not delivered), messagesUncertain, responses (replied), replyRate, deliveryRate, progress (null rates while nothing to divide by); lead counts by state, attempts, sent today, the next 14 days'' days off, and per-day sent/failed/replies for the last p_days days (campaign time zone).';
revoke execute on function public.campaign_stats(uuid, integer) from public, anon;

create or replace function public.delete_campaign(p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_campaign_id uuid;
begin
  select c.id into v_campaign_id from public.campaigns c
   where c.id = p_campaign_id and c.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if v_campaign_id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[v_campaign_id], true);
  delete from public.campaigns c where c.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$$;
comment on function public.delete_campaign(uuid) is
  'Deletes one of the caller''s DM campaigns (its leads and logs go with it) and removes its waiting jobs.';
revoke execute on function public.delete_campaign(uuid) from public, anon;

create or replace function public.pause_campaign(p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign public.campaigns;
begin
  select * into campaign from public.campaigns c
   where c.id = p_campaign_id and c.workspace_id = (select internal.require_active_role('{owner,admin,editor}'))
   for update;
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status in ('queued', 'running', 'active') then
    update public.campaigns c set status = 'paused' where c.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running campaign can be paused (this one is %)', campaign.status using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$$;
comment on function public.pause_campaign(uuid) is
  'Pauses one of the caller''s DM campaigns and cancels its waiting campaign.tick jobs in the same transaction (pausing a paused campaign changes nothing).';
revoke execute on function public.pause_campaign(uuid) from public, anon;

create or replace function public.preview_campaign_days_off(p_campaign_id uuid, p_schedule jsonb, p_days integer default 28)
returns setof date
language sql
stable
set search_path = ''
as $$
  -- The same rule as public.campaign_days_off, for a schedule that is not stored yet.
  select d::date
    from pg_catalog.generate_series(
           pg_catalog.timezone(coalesce(p_schedule ->> 'timezone', 'UTC'), internal.now())::date,
           pg_catalog.timezone(coalesce(p_schedule ->> 'timezone', 'UTC'), internal.now())::date
             + (least(greatest(coalesce(p_days, 28), 1), 366) - 1),
           interval '1 day') d
   where coalesce((p_schedule ->> 'randomDaysOff')::boolean, true)
     and coalesce(p_schedule -> 'activeDays', '[]'::jsonb)
           ? (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
             [pg_catalog.date_part('isodow', d)::integer]
     and internal.is_random_day_off(p_campaign_id, d::date)
   order by 1
$$;
comment on function public.preview_campaign_days_off(uuid, jsonb, integer) is
  'Random days off a campaign with this id and schedule would take, from today in the schedule''s time zone for p_days days (1-366). Reads no table.';
revoke execute on function public.preview_campaign_days_off(uuid, jsonb, integer) from public, anon;
