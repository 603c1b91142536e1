-- Instagram's official API (Instagram API with Instagram Login): connects in progress, official
-- accounts and their tokens' refresh, and the webhook events Meta delivers.

-- Tables ------------------------------------------------------------------------------------------

create table internal.instagram_oauth_states (
  state_hash text not null,
  user_id uuid not null,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint instagram_oauth_states_pkey primary key (state_hash),
  constraint instagram_oauth_states_state_hash_check check ((state_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint instagram_oauth_states_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint instagram_oauth_states_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table internal.instagram_oauth_states is
  'Connects in progress: the SHA-256 of the OAuth state handed to Instagram and the key of the browser that started it, bound to the signed-in customer who started it; used once, within its expiry, from that browser.';
comment on column internal.instagram_oauth_states.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table internal.instagram_webhook_events (
  id uuid not null default gen_random_uuid(),
  event_key text not null,
  instagram_account_id text not null,
  field text not null,
  kind text not null,
  occurred_at timestamp with time zone not null,
  payload jsonb not null,
  deliveries integer not null default 1,
  received_at timestamp with time zone not null default now(),
  last_received_at timestamp with time zone not null default now(),
  job_id uuid,
  constraint instagram_webhook_events_pkey primary key (id),
  constraint instagram_webhook_events_account_event_key unique (instagram_account_id, event_key),
  constraint instagram_webhook_events_event_key_check check ((char_length(event_key) <= 300)),
  constraint instagram_webhook_events_kind_check check ((kind = any (array['comment'::text, 'message'::text, 'echo'::text, 'story_mention'::text, 'story_reply'::text, 'other'::text])))
);
comment on table internal.instagram_webhook_events is
  'What Meta delivered to the instagram-webhook function, one row per event of an account (a comment by its id, a message by its mid, per entry.id: another account''s event with the same id is its own event), however often it was delivered; each new one queued an instagram.event job. Only the service role reaches it, through record_instagram_webhook_events.';
comment on column internal.instagram_webhook_events.instagram_account_id is
  'entry.id: the Instagram professional account the event is for (social_accounts.platform_user_id of an official account).';
comment on column internal.instagram_webhook_events.deliveries is
  'How many times Meta delivered this event (it may deliver one more than once).';

create table public.instagram_automation_runs (
  id uuid not null default gen_random_uuid(),
  automation_id uuid not null,
  user_id uuid not null,
  account_id uuid not null,
  trigger_key text not null,
  person_id text not null,
  person_username text,
  status text not null default 'sending'::text,
  reason text,
  message_id text,
  public_reply_id text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint instagram_automation_runs_pkey primary key (id),
  constraint instagram_automation_runs_account_trigger_key unique (account_id, trigger_key),
  constraint instagram_automation_runs_status_check check ((status = any (array['sending'::text, 'sent'::text, 'refused'::text, 'failed'::text]))),
  constraint instagram_automation_runs_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint instagram_automation_runs_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint instagram_automation_runs_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.instagram_automation_runs is
  'Each time an automation answered (or was refused): at most one per account and comment or message, so a comment gets one private reply however often Meta delivers it. Written by the runner.';
comment on column public.instagram_automation_runs.reason is
  'refused or failed: the platform''s reason, as the customer should read it.';
comment on column public.instagram_automation_runs.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.instagram_automations (
  id uuid not null default gen_random_uuid(),
  account_id uuid not null,
  name text not null,
  trigger text not null,
  media_id text,
  keywords text[] not null default '{}'::text[],
  reply_text text not null,
  public_reply_text text,
  enabled boolean not null default true,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  user_id uuid not null default auth.uid(),
  followup_text text,
  followup_delay_minutes integer,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint instagram_automations_pkey primary key (id),
  constraint instagram_automations_followup_check check ((((followup_text is null) = (followup_delay_minutes is null)) and ((followup_text is null) or (trigger <> 'comment_keyword'::text)))),
  constraint instagram_automations_followup_delay_minutes_check check (((followup_delay_minutes is null) or ((followup_delay_minutes >= 1) and (followup_delay_minutes <= 1439)))),
  constraint instagram_automations_followup_text_check check (((followup_text is null) or ((char_length(followup_text) >= 1) and (octet_length(followup_text) <= 1000)))),
  constraint instagram_automations_keywords_check check (((cardinality(keywords) <= 20) and ((trigger <> all (array['comment_keyword'::text, 'dm_keyword'::text])) or (cardinality(keywords) >= 1)))),
  constraint instagram_automations_media_id_check check (((media_id is null) or ((trigger = 'comment_keyword'::text) and (media_id ~ '^[0-9]{1,30}$'::text)))),
  constraint instagram_automations_name_check check (((char_length(name) >= 1) and (char_length(name) <= 100))),
  constraint instagram_automations_public_reply_text_check check (((public_reply_text is null) or ((trigger = 'comment_keyword'::text) and (char_length(public_reply_text) >= 1) and (char_length(public_reply_text) <= 2200)))),
  constraint instagram_automations_reply_text_check check (((char_length(reply_text) >= 1) and (octet_length(reply_text) <= 1000))),
  constraint instagram_automations_trigger_check check ((trigger = any (array['comment_keyword'::text, 'dm_keyword'::text, 'story_mention'::text, 'story_reply'::text]))),
  constraint instagram_automations_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint instagram_automations_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint instagram_automations_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.instagram_automations is
  'A customer''s automation on an official Instagram account: a keyword in a comment (on one post or reel, or any), a keyword in a DM, or a story mention or reply, answered with a DM (a private reply for a comment) and, for a comment, an optional public reply.';
comment on column public.instagram_automations.media_id is
  'comment_keyword only: the post or reel it watches; null = any post.';
comment on column public.instagram_automations.keywords is
  'Matched as whole words, ignoring case; required for the keyword triggers, optional (empty = any) for story mentions and replies.';
comment on column public.instagram_automations.followup_text is
  'The one follow-up DM, sent when the person has not written again followup_delay_minutes after the automation''s DM, and only within 24 hours of their last message. Not for comments: a comment does not open Instagram''s 24-hour window.';
comment on column public.instagram_automations.followup_delay_minutes is
  'Minutes after the automation''s DM before the follow-up goes: 1 to 1,439 (23 h 59 min), so it can still fall inside the 24-hour window.';
comment on column public.instagram_automations.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

alter table public.instagram_automation_runs add constraint instagram_automation_runs_automation_id_fkey foreign key (automation_id) references public.instagram_automations(id) on delete cascade;

create table public.instagram_automation_followups (
  id uuid not null default gen_random_uuid(),
  run_id uuid not null,
  automation_id uuid not null,
  user_id uuid not null,
  account_id uuid not null,
  person_id text not null,
  sent_after timestamp with time zone not null,
  due_at timestamp with time zone not null,
  status text not null default 'scheduled'::text,
  reason text,
  message_id text,
  job_id uuid,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint instagram_automation_followups_pkey primary key (id),
  constraint instagram_automation_followups_run_id_key unique (run_id),
  constraint instagram_automation_followups_due_check check ((due_at > sent_after)),
  constraint instagram_automation_followups_status_check check ((status = any (array['scheduled'::text, 'sending'::text, 'sent'::text, 'skipped'::text, 'refused'::text, 'failed'::text, 'cancelled'::text]))),
  constraint instagram_automation_followups_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint instagram_automation_followups_automation_id_fkey foreign key (automation_id) references public.instagram_automations(id) on delete cascade,
  constraint instagram_automation_followups_run_id_fkey foreign key (run_id) references public.instagram_automation_runs(id) on delete cascade,
  constraint instagram_automation_followups_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint instagram_automation_followups_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.instagram_automation_followups is
  'The follow-up of an automation''s DM (at most one per run): scheduled when the DM was sent, then sent, skipped (the person wrote again first), refused (outside Instagram''s 24-hour window, or by Instagram), failed (unknown whether it went) or cancelled (automation paused or follow-up removed, account not working). Written by the runner.';
comment on column public.instagram_automation_followups.sent_after is
  'When the automation''s DM was sent (internal.now()): a message from the person after it means they answered.';
comment on column public.instagram_automation_followups.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table internal.instagram_data_deletions (
  confirmation_code text not null,
  accounts_deleted integer not null,
  requested_at timestamp with time zone not null default now(),
  constraint instagram_data_deletions_pkey primary key (confirmation_code),
  constraint instagram_data_deletions_accounts_deleted_check check ((accounts_deleted >= 0)),
  constraint instagram_data_deletions_confirmation_code_check check ((confirmation_code ~ '^[0-9A-F]{16}([0-9A-F]{16})?$'::text))
);
comment on table internal.instagram_data_deletions is
  'Data deletion requests Meta relayed for people who removed Reachflow on Instagram: the confirmation code given back (128 random bits as 32 hex digits; codes given before have 16) and what was deleted, nothing about the person (their data is gone). Read only through public.instagram_data_deletion_status (service role).';

create table internal.public_lookup_hits (
  form text not null,
  address text not null,
  window_start timestamp with time zone not null,
  hits integer not null default 1,
  constraint public_lookup_hits_pkey primary key (form, address, window_start),
  constraint public_lookup_hits_address_check check ((char_length(address) <= 100)),
  constraint public_lookup_hits_form_check check ((char_length(form) <= 50))
);
comment on table internal.public_lookup_hits is
  'Lookups of public pages without a sign-in (the data deletion status page), counted per form, client address and window, so one address cannot flood them. Only through public.take_public_lookup (service role); rows older than a day are removed as new ones come.';

-- Indexes -----------------------------------------------------------------------------------------

create index instagram_oauth_states_user_id_idx on internal.instagram_oauth_states (user_id);
create index instagram_oauth_states_workspace_id_idx on internal.instagram_oauth_states (workspace_id);

create index instagram_webhook_events_person_idx on internal.instagram_webhook_events (instagram_account_id, (((payload -> 'sender'::text) ->> 'id'::text)), occurred_at) where (kind = any (array['message'::text, 'story_reply'::text, 'story_mention'::text]));

create index instagram_automation_runs_automation_id_idx on public.instagram_automation_runs (automation_id, created_at);
create index instagram_automation_runs_person_idx on public.instagram_automation_runs (account_id, person_id, created_at);
create index instagram_automation_runs_user_id_idx on public.instagram_automation_runs (user_id);
create index instagram_automation_runs_workspace_id_idx on public.instagram_automation_runs (workspace_id);

create index instagram_automations_account_id_idx on public.instagram_automations (account_id) where enabled;
create index instagram_automations_user_id_idx on public.instagram_automations (user_id);
create index instagram_automations_workspace_id_idx on public.instagram_automations (workspace_id);

create index instagram_automation_followups_automation_id_idx on public.instagram_automation_followups (automation_id);
create index instagram_automation_followups_due_idx on public.instagram_automation_followups (due_at) where (status = any (array['scheduled'::text, 'sending'::text]));
create index instagram_automation_followups_user_id_idx on public.instagram_automation_followups (user_id);
create index instagram_automation_followups_workspace_id_idx on public.instagram_automation_followups (workspace_id);

create index public_lookup_hits_window_idx on internal.public_lookup_hits (window_start);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.check_instagram_automation_account()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Runs before a service insert's workspace is filled in from the account.
  if not exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
                  where a.id = new.account_id and a.workspace_id = coalesce(new.workspace_id, a.workspace_id)
                    and a.connection = 'official' and p.name = 'instagram') then
    raise exception 'Automations run on an Instagram account connected through Instagram''s API. Choose one of yours.'
      using errcode = '23503';
  end if;
  return new;
end
$$;
comment on function internal.check_instagram_automation_account() is
  'An automation belongs to one of its workspace''s official Instagram accounts.';

create trigger instagram_oauth_states_fill_workspace_id before insert on internal.instagram_oauth_states for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger instagram_automation_runs_fill_workspace_id before insert on public.instagram_automation_runs for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_automation();

create trigger instagram_automations_check_account before insert or update of account_id, user_id on public.instagram_automations for each row execute function internal.check_instagram_automation_account();

create trigger instagram_automations_fill_workspace_id before insert on public.instagram_automations for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_account();

create trigger instagram_automations_set_updated_at before update on public.instagram_automations for each row execute function internal.set_updated_at();

create trigger instagram_automation_followups_fill_workspace_id before insert on public.instagram_automation_followups for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_automation_run();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.begin_instagram_automation_run(p_automation_id uuid, p_trigger_key text, p_person_id text, p_person_username text)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, person_username)
  select au.id, au.user_id, au.account_id, p_trigger_key, p_person_id, p_person_username
    from public.instagram_automations au
   where au.id = p_automation_id
  on conflict (account_id, trigger_key) do nothing
  returning id
$$;
comment on function internal.begin_instagram_automation_run(uuid, text, text, text) is
  'The runner, before it answers a comment or message: claims it (null when it was already answered, or is being).';

create or replace function internal.begin_instagram_followup(p_followup_id uuid)
returns table(action text, followup_text text, person_id text, account_id uuid)
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  f public.instagram_automation_followups;
  au public.instagram_automations;
  account public.social_accounts;
  instagram_id text;
  trigger_key text;
  last_message timestamptz;
  verdict text;
  why text;
begin
  -- locked: a second job for the same follow-up waits here, then finds it no longer scheduled
  select * into f from public.instagram_automation_followups x where x.id = p_followup_id for update;
  if f.id is null or f.status <> 'scheduled' then
    return query select 'done'::text, null::text, null::text, null::uuid;
    return;
  end if;
  if f.due_at > t then
    return query select 'early'::text, null::text, null::text, null::uuid;
    return;
  end if;
  select * into au from public.instagram_automations a where a.id = f.automation_id;
  select * into account from public.social_accounts a where a.id = f.account_id;
  instagram_id := account.platform_user_id;
  select r.trigger_key into trigger_key from public.instagram_automation_runs r where r.id = f.run_id;

  if not au.enabled then
    verdict := 'cancelled';
    why := 'The automation was paused before the follow-up was due.';
  elsif au.followup_text is null then
    verdict := 'cancelled';
    why := 'The follow-up was removed from the automation before it was due.';
  elsif account.connection <> 'official' or account.status <> 'active' then
    verdict := 'cancelled';
    why := 'The Instagram account was not connected when the follow-up was due.';
  elsif exists (select 1 from internal.instagram_webhook_events e
                 where e.instagram_account_id = instagram_id
                   and e.kind = any (array['message', 'story_reply', 'story_mention'])
                   and (e.payload -> 'sender' ->> 'id') = f.person_id
                   and e.occurred_at > f.sent_after
                   and e.event_key <> trigger_key) then
    -- an answer stops the follow-up, as a reply stops a campaign's follow-ups
    verdict := 'skipped';
    why := 'They answered before the follow-up was due.';
  else
    select max(e.occurred_at) into last_message
      from internal.instagram_webhook_events e
     where e.instagram_account_id = instagram_id
       and e.kind = any (array['message', 'story_reply', 'story_mention'])
       and (e.payload -> 'sender' ->> 'id') = f.person_id;
    if last_message is null or t - last_message > interval '24 hours' then
      verdict := 'refused';
      why := 'Their last message is more than 24 hours old: Instagram allows a message only within 24 hours of it, so the follow-up was not sent.';
    else
      verdict := 'sending';
    end if;
  end if;

  update public.instagram_automation_followups x
     set status = verdict, reason = why, updated_at = now()
   where x.id = f.id;
  if verdict = 'sending' then
    return query select 'send'::text, au.followup_text, f.person_id, f.account_id;
  else
    return query select verdict, null::text, null::text, null::uuid;
  end if;
end
$$;
comment on function internal.begin_instagram_followup(uuid) is
  'The runner, when a follow-up''s job runs: claims it once it is due. Answers send (with the text, the person and the account: it is now sending), or what happened instead, already recorded with its reason: skipped (the person wrote after the DM), refused (their last message is over 24 hours old), cancelled (automation paused, follow-up removed, account not working); early (not due yet, nothing changed) or done (already handled).';

create or replace function internal.enqueue_due_instagram_followups()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  queued integer;
begin
  -- A follow-up claimed a quarter of an hour ago and never finished died with its runner: whether
  -- Instagram got it is unknown, so it is recorded failed, not sent again.
  update public.instagram_automation_followups f
     set status = 'failed', reason = 'The runner stopped while sending the follow-up: whether Instagram delivered it is unknown.',
         updated_at = now()
   where f.status = 'sending' and f.updated_at < now() - interval '15 minutes';
  -- A follow-up still waiting a minute after it was due lost its job (or the clock moved): queued now.
  with due as (
    select f.id from public.instagram_automation_followups f
     where f.status = 'scheduled' and f.due_at <= t - interval '1 minute'
     order by f.due_at
     limit 500
  )
  select count(*)::integer into queued
    from due d
   cross join lateral internal.enqueue_job('instagram.followup', jsonb_build_object('followupId', d.id),
                                           'instagram-followup-due:' || d.id) j
   where j is not null;
  return queued;
end
$$;
comment on function internal.enqueue_due_instagram_followups() is
  'Run by pg_cron every minute: queues the instagram.followup job of each follow-up still waiting a minute after it was due, and records as failed one that has been sending for 15 minutes. Returns how many were queued.';

create or replace function internal.enqueue_instagram_token_refreshes()
returns integer
language sql
security definer
set search_path = ''
as $$
  -- A long-lived token lasts 60 days and can be refreshed once it is a day old: each is renewed
  -- when 30 days are left, so a failed refresh has weeks of retries before the token runs out.
  select count(*)::integer
    from internal.enqueue_jobs('instagram.token', (
           select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', a.id),
                                               'singletonKey', 'instagram-token:' || a.id))
             from public.social_accounts a
             join public.platforms p on p.id = a.platform_id and p.name = 'instagram'
             join public.social_account_credentials c on c.account_id = a.id
            where a.connection = 'official'
              and a.status <> 'error'
              and c.token_expires_at < internal.now() + interval '30 days'))
$$;
comment on function internal.enqueue_instagram_token_refreshes() is
  'Run by pg_cron hourly: queues an instagram.token job (the runner refreshes the long-lived token) for each working official Instagram account whose token has less than 30 days left. Returns how many were queued.';

create or replace function internal.finish_instagram_automation_run(p_run_id uuid, p_status text, p_reason text, p_message_id text, p_public_reply_id text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.instagram_automation_runs r
     set status = p_status, reason = left(p_reason, 500), message_id = p_message_id, public_reply_id = p_public_reply_id,
         updated_at = now()
   where r.id = p_run_id
$$;
comment on function internal.finish_instagram_automation_run(uuid, text, text, text, text) is
  'The runner, after Instagram answered: sent (with the message and public reply ids), refused (with Instagram''s reason) or failed.';

create or replace function internal.finish_instagram_followup(p_followup_id uuid, p_status text, p_reason text, p_message_id text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.instagram_automation_followups f
     set status = p_status, reason = left(p_reason, 500), message_id = p_message_id, updated_at = now()
   where f.id = p_followup_id and f.status = 'sending'
$$;
comment on function internal.finish_instagram_followup(uuid, text, text, text) is
  'The runner, after Instagram answered a follow-up it was sending: sent (with the message id), refused (with Instagram''s reason) or failed (unknown whether it went; never sent again).';

create or replace function internal.instagram_token_failed(p_account_id uuid, p_reason text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  account public.social_accounts;
begin
  update public.social_accounts a
     set status = 'error', flag_reason = left(p_reason, 500)
   where a.id = p_account_id and a.connection = 'official' and a.status <> 'error'
  returning * into account;
  if account.id is null then
    return false;
  end if;
  perform internal.notify(account.workspace_id, account.user_id, 'account_flagged', 'Instagram connection lost', left(p_reason, 2000),
                          jsonb_build_object('accountId', account.id, 'status', 'error'));
  return true;
end
$$;
comment on function internal.instagram_token_failed(uuid, text) is
  'The runner, when Instagram refuses an official account''s token for good (expired, or access removed): the account turns error with the reason, and its owner is told once. Answers whether it changed.';

create or replace function internal.schedule_instagram_followup(p_run_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  t constant timestamptz := internal.now();
  followup public.instagram_automation_followups;
begin
  insert into public.instagram_automation_followups (run_id, automation_id, user_id, account_id, person_id, sent_after, due_at)
  select r.id, r.automation_id, r.user_id, r.account_id, r.person_id, t, t + make_interval(mins => au.followup_delay_minutes)
    from public.instagram_automation_runs r
    join public.instagram_automations au on au.id = r.automation_id
   where r.id = p_run_id and r.status = 'sent' and au.followup_text is not null
  on conflict (run_id) do nothing
  returning * into followup;
  if followup.id is null then
    return null;
  end if;
  -- started when it is due; a follow-up whose job is lost is queued again by the minute's sweep
  update public.instagram_automation_followups f
     set job_id = internal.enqueue_job('instagram.followup', jsonb_build_object('followupId', followup.id),
                                       'instagram-followup:' || followup.id, now() + (followup.due_at - t))
   where f.id = followup.id;
  return followup.id;
end
$$;
comment on function internal.schedule_instagram_followup(uuid) is
  'The runner, after an automation''s DM was sent: when the automation has a follow-up, schedules it (once per run) for its delay after now and queues its instagram.followup job to start then. Answers the follow-up''s id, or null when there is none.';

create or replace function internal.store_instagram_token(p_account_id uuid, p_key_id text, p_ciphertext text, p_expires_at timestamp with time zone)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if split_part(p_ciphertext, ':', 1) is distinct from p_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  update public.social_account_credentials c
     set key_id = p_key_id, ciphertext = p_ciphertext, token_expires_at = p_expires_at
    from public.social_accounts a
   where c.account_id = p_account_id and a.id = c.account_id and a.connection = 'official';
  if not found then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
end
$$;
comment on function internal.store_instagram_token(uuid, text, text, timestamp with time zone) is
  'The runner, after Instagram refreshed an official account''s token: stores the new seal and its expiry.';

-- Row-level security ------------------------------------------------------------------------------

alter table internal.instagram_oauth_states enable row level security;

alter table internal.instagram_webhook_events enable row level security;

create policy "The runner reads delivered Instagram events" on internal.instagram_webhook_events
  for select
  to reachflow_runner
  using (true);

alter table public.instagram_automation_runs enable row level security;

create policy "Members can read the workspace's automation runs" on public.instagram_automation_runs
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "The runner reads every automation run" on public.instagram_automation_runs
  for select
  to reachflow_runner
  using (true);

alter table public.instagram_automations enable row level security;

create policy "Members can read the workspace's automations" on public.instagram_automations
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can change the workspace's automations" on public.instagram_automations
  for update
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)))
  with check ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's automations" on public.instagram_automations
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

create policy "Members who edit can delete the workspace's automations" on public.instagram_automations
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "The runner reads every automation" on public.instagram_automations
  for select
  to reachflow_runner
  using (true);

alter table public.instagram_automation_followups enable row level security;

create policy "Members can read the workspace's follow-ups" on public.instagram_automation_followups
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "The runner reads every follow-up" on public.instagram_automation_followups
  for select
  to reachflow_runner
  using (true);

alter table internal.instagram_data_deletions enable row level security;

alter table internal.public_lookup_hits enable row level security;

-- Grants ------------------------------------------------------------------------------------------

grant select on internal.instagram_webhook_events to reachflow_runner;

revoke all on public.instagram_automation_runs from anon;
revoke insert, update, delete, truncate, references, trigger on public.instagram_automation_runs from authenticated;
grant select on public.instagram_automation_runs to reachflow_runner;

revoke all on public.instagram_automations from anon;
revoke truncate, references, trigger on public.instagram_automations from authenticated;
grant select on public.instagram_automations to reachflow_runner;

revoke all on public.instagram_automation_followups from anon;
revoke insert, update, delete, truncate, references, trigger on public.instagram_automation_followups from authenticated;
grant select on public.instagram_automation_followups to reachflow_runner;

revoke execute on function internal.begin_instagram_automation_run(uuid, text, text, text) from public;
grant execute on function internal.begin_instagram_automation_run(uuid, text, text, text) to reachflow_runner;

revoke execute on function internal.begin_instagram_followup(uuid) from public;
grant execute on function internal.begin_instagram_followup(uuid) to reachflow_runner;

revoke execute on function internal.check_instagram_automation_account() from public;
revoke execute on function internal.enqueue_due_instagram_followups() from public;
revoke execute on function internal.enqueue_instagram_token_refreshes() from public;

revoke execute on function internal.finish_instagram_automation_run(uuid, text, text, text, text) from public;
grant execute on function internal.finish_instagram_automation_run(uuid, text, text, text, text) to reachflow_runner;

revoke execute on function internal.finish_instagram_followup(uuid, text, text, text) from public;
grant execute on function internal.finish_instagram_followup(uuid, text, text, text) to reachflow_runner;

revoke execute on function internal.instagram_token_failed(uuid, text) from public;
grant execute on function internal.instagram_token_failed(uuid, text) to reachflow_runner;

revoke execute on function internal.schedule_instagram_followup(uuid) from public;
grant execute on function internal.schedule_instagram_followup(uuid) to reachflow_runner;

revoke execute on function internal.store_instagram_token(uuid, text, text, timestamp with time zone) from public;
grant execute on function internal.store_instagram_token(uuid, text, text, timestamp with time zone) to reachflow_runner;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.begin_instagram_connect(p_user_id uuid, p_state_hash text, p_expires_at timestamp with time zone)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- one customer's starts take turns, so parallel clicks cannot all see room under the cap
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('instagram_connect:' || p_user_id::text, 0));
  delete from internal.instagram_oauth_states s where s.expires_at <= internal.now();
  -- a customer clicking Connect again and again keeps a handful of live states, not a pile
  if (select count(*) from internal.instagram_oauth_states s where s.user_id = p_user_id) >= 5 then
    raise exception 'Too many Instagram connections started. Wait a few minutes and try again.' using errcode = 'P0001', hint = 'too_many_connects';
  end if;
  insert into internal.instagram_oauth_states (state_hash, user_id, expires_at)
  values (p_state_hash, p_user_id, p_expires_at);
end
$$;
comment on function public.begin_instagram_connect(uuid, text, timestamp with time zone) is
  'Service role only (the instagram-official function, for the signed-in caller): remembers the hash of a new OAuth state and the starting browser''s key until it expires; at most 5 wait per customer.';
revoke execute on function public.begin_instagram_connect(uuid, text, timestamp with time zone) from public, anon, authenticated;

create or replace function public.consume_instagram_connect(p_state_hash text)
returns uuid
language sql
security definer
set search_path = ''
as $$
  delete from internal.instagram_oauth_states s
   where s.state_hash = p_state_hash and s.expires_at > internal.now()
  returning s.user_id
$$;
comment on function public.consume_instagram_connect(text) is
  'Service role only: the customer who started the connect with this state, once (the row goes), or null when unknown, used or expired.';
revoke execute on function public.consume_instagram_connect(text) from public, anon, authenticated;

create or replace function public.create_instagram_official_account(p_user_id uuid, p_username text, p_platform_user_id text, p_credentials_key_id text, p_credentials text, p_token_expires_at timestamp with time zone)
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
  select * into target from public.platforms p where p.name = 'instagram';
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;

  select * into existing from public.social_accounts a
   where a.platform_id = target.id and a.connection = 'official' and a.platform_user_id = p_platform_user_id
   for update;
  if existing.id is not null and existing.user_id <> p_user_id then
    raise exception 'This Instagram account is connected to another Reachflow workspace. Disconnect it there first.'
      using errcode = '23505';
  end if;
  if existing.id is not null then
    -- connecting again (a new token after an error or a revoke): the same account, working again
    update public.social_accounts a
       set username = p_username, status = 'active', flag_reason = null, paused_until = null
     where a.id = existing.id
    returning * into account;
    update public.social_account_credentials c
       set key_id = p_credentials_key_id, ciphertext = p_credentials, token_expires_at = p_token_expires_at
     where c.account_id = account.id;
    return to_jsonb(account) || jsonb_build_object('reconnected', true);
  end if;

  refusal := internal.account_limit_refusal(p_user_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001', hint = 'account_limit';
  end if;

  begin
    -- no warm-up: the API's own limits pace an official account, not a browser's
    insert into public.social_accounts (user_id, platform_id, username, platform_user_id, connection, status, warmup_phase)
    values (p_user_id, target.id, p_username, p_platform_user_id, 'official', 'active', 5)
    returning * into account;
  exception
    when unique_violation then
      raise exception '@% is already connected through the browser. Remove it from your accounts first to connect it through Instagram''s API.', p_username
        using errcode = '23505';
  end;
  insert into public.social_account_credentials (account_id, key_id, ciphertext, token_expires_at)
  values (account.id, p_credentials_key_id, p_credentials, p_token_expires_at);
  return to_jsonb(account) || jsonb_build_object('reconnected', false);
end
$$;
comment on function public.create_instagram_official_account(uuid, text, text, text, text, timestamp with time zone) is
  'Service role only (the instagram-official callback, after Instagram confirmed the account): adds the customer''s Instagram professional account as connection official, active, with its sealed long-lived token and expiry, within the plan''s account limit; connecting the same Instagram account again renews its token.';
revoke execute on function public.create_instagram_official_account(uuid, text, text, text, text, timestamp with time zone) from public, anon, authenticated;

create or replace function public.delete_instagram_user_data(p_instagram_user_id text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account record;
  deleted integer := 0;
  -- 128 random bits: the code is the only key to the public status page
  code text := upper(encode(extensions.gen_random_bytes(16), 'hex'));
begin
  if coalesce(p_instagram_user_id, '') !~ '^[0-9]{1,30}$' then
    raise exception 'Invalid Instagram user id' using errcode = '22023';
  end if;
  for account in
    delete from public.social_accounts a
     using public.platforms p
     where p.id = a.platform_id and p.name = 'instagram'
       and a.connection = 'official' and a.platform_user_id = p_instagram_user_id
    returning a.workspace_id, a.user_id, a.username
  loop
    deleted := deleted + 1;
    perform internal.notify(account.workspace_id, account.user_id, 'account_flagged', 'Instagram account removed',
      format('@%s asked Instagram to delete the data Reachflow held for it: the account, its automations and its conversations were deleted. Connect it again to start over.', account.username),
      jsonb_build_object('status', 'deleted'));
  end loop;
  -- what Meta delivered for that account: comments and messages of the people who wrote to it
  delete from internal.instagram_webhook_events e where e.instagram_account_id = p_instagram_user_id;
  insert into internal.instagram_data_deletions (confirmation_code, accounts_deleted) values (code, deleted);
  return jsonb_build_object('confirmation_code', code, 'accounts_deleted', deleted);
end
$$;
comment on function public.delete_instagram_user_data(text) is
  'The instagram-webhook function, on Meta''s data deletion callback: deletes the official accounts of that Instagram user (their automations, runs, conversations and sealed tokens go with them) and the webhook events Meta delivered for them, tells each owner, and answers the confirmation code Meta shows the person.';
revoke execute on function public.delete_instagram_user_data(text) from public, anon, authenticated;

create or replace function public.instagram_access_removed(p_instagram_user_id text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  account record;
  changed integer := 0;
begin
  for account in
    select a.id, a.username
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id and p.name = 'instagram'
     where a.connection = 'official' and a.platform_user_id = p_instagram_user_id
  loop
    if internal.instagram_token_failed(account.id,
         format('Reachflow''s access to @%s was removed on Instagram (Settings › Apps and websites). Connect the account again from Accounts to keep its automations running.', account.username)) then
      changed := changed + 1;
    end if;
  end loop;
  return changed;
end
$$;
comment on function public.instagram_access_removed(text) is
  'The instagram-webhook function, on Meta''s deauthorize callback (the person removed Reachflow in Instagram''s settings): every official account of that Instagram user turns error with the reason and its owner is told. Answers how many changed.';
revoke execute on function public.instagram_access_removed(text) from public, anon, authenticated;

create or replace function public.instagram_automation_results()
returns table(automation_id uuid, triggered integer, sent integer, refused integer, failed integer, replied integer, conversations_started integer, refusals jsonb, last_triggered_at timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  -- Security definer because "replied" and "started" read what people wrote (the webhook events,
  -- which no customer reads); every row is the caller's own automation.
  with runs as (
    select r.*, a.platform_user_id as instagram_id
      from public.instagram_automation_runs r
      join public.instagram_automations au on au.id = r.automation_id
      join public.social_accounts a on a.id = r.account_id
     where au.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
  ),
  judged as (
    select r.automation_id, r.status, r.reason, r.created_at,
           -- the person wrote to the account after the automation's answer
           r.status = 'sent' and exists (
             select 1 from internal.instagram_webhook_events e
              where e.instagram_account_id = r.instagram_id
                and e.kind = any (array['message', 'story_reply', 'story_mention'])
                and (e.payload -> 'sender' ->> 'id') = r.person_id
                and e.occurred_at > r.created_at
                and e.event_key <> r.trigger_key) as replied,
           -- the answer was the account's first DM exchange with this person: nothing they wrote
           -- before (other than what triggered it) and no earlier automation DM to them
           r.status = 'sent' and not exists (
             select 1 from internal.instagram_webhook_events e
              where e.instagram_account_id = r.instagram_id
                and e.kind = any (array['message', 'story_reply', 'story_mention'])
                and (e.payload -> 'sender' ->> 'id') = r.person_id
                and e.occurred_at < r.created_at
                and e.event_key <> r.trigger_key)
           and not exists (
             select 1 from public.instagram_automation_runs p
              where p.account_id = r.account_id and p.person_id = r.person_id and p.status = 'sent'
                and (p.created_at, p.id) < (r.created_at, r.id)) as started
      from runs r
  )
  select au.id,
         count(j.status)::integer,
         (count(*) filter (where j.status = 'sent'))::integer,
         (count(*) filter (where j.status = 'refused'))::integer,
         (count(*) filter (where j.status = 'failed'))::integer,
         (count(*) filter (where j.replied))::integer,
         (count(*) filter (where j.started))::integer,
         coalesce((select jsonb_agg(jsonb_build_object('reason', x.reason, 'count', x.n) order by x.n desc, x.reason)
                     from (select k.reason, count(*)::integer as n from judged k
                            where k.automation_id = au.id and k.status in ('refused', 'failed') and k.reason is not null
                            group by k.reason order by count(*) desc, k.reason limit 5) x), '[]'::jsonb),
         max(j.created_at)
    from public.instagram_automations au
    left join judged j on j.automation_id = au.id
   where au.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
   group by au.id
$$;
comment on function public.instagram_automation_results() is
  'The signed-in customer''s automations with their results: triggered (every run), sent, refused and failed (with the five commonest reasons), replied (the person wrote again after the answer) and conversations started (the answer was the account''s first DM exchange with that person).';
revoke execute on function public.instagram_automation_results() from public, anon;

create or replace function public.instagram_data_deletion_status(p_code text)
returns jsonb
language sql
stable security definer
set search_path = ''
as $$
  select jsonb_build_object('confirmation_code', d.confirmation_code, 'status', 'completed',
                            'requested_at', d.requested_at, 'accounts_deleted', d.accounts_deleted)
    from internal.instagram_data_deletions d
   where d.confirmation_code = upper(btrim(p_code))
$$;
comment on function public.instagram_data_deletion_status(text) is
  'The instagram-webhook function, for the public page Meta links a person to after a data deletion request: by its confirmation code (unguessable, 128 bits), whether and when the deletion was done; null for an unknown code. The function counts each lookup per address first (public.take_public_lookup).';
revoke execute on function public.instagram_data_deletion_status(text) from public, anon, authenticated;

create or replace function public.instagram_followup_results()
returns table(automation_id uuid, waiting integer, sent integer, skipped integer, not_sent integer, reasons jsonb)
language sql
stable
set search_path = ''
as $$
  -- Beside instagram_automation_results, but as the caller: the follow-ups are theirs to read (RLS).
  select au.id,
         (count(*) filter (where f.status in ('scheduled', 'sending')))::integer,
         (count(*) filter (where f.status = 'sent'))::integer,
         (count(*) filter (where f.status = 'skipped'))::integer,
         (count(*) filter (where f.status in ('refused', 'failed', 'cancelled')))::integer,
         coalesce((select jsonb_agg(jsonb_build_object('reason', x.reason, 'count', x.n) order by x.n desc, x.reason)
                     from (select k.reason, count(*)::integer as n from public.instagram_automation_followups k
                            where k.automation_id = au.id and k.status in ('refused', 'failed', 'cancelled')
                              and k.reason is not null
                            group by k.reason order by count(*) desc, k.reason limit 5) x), '[]'::jsonb)
    from public.instagram_automations au
    join public.instagram_automation_followups f on f.automation_id = au.id
   where au.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
   group by au.id
$$;
comment on function public.instagram_followup_results() is
  'The signed-in customer''s automations that scheduled follow-ups, with what became of them: waiting, sent, skipped (the person answered first) and not sent (refused outside the 24-hour window or by Instagram, failed, or cancelled), with the five commonest reasons.';
revoke execute on function public.instagram_followup_results() from public, anon;

create or replace function public.instagram_official_facts()
returns table(account_id uuid, last_received_at timestamp with time zone, received_this_week integer, last_webhook_at timestamp with time zone)
language sql
stable security definer
set search_path = ''
as $$
  -- what is true for an account whose messages arrive by Meta's webhook: no browser syncs it, so
  -- its card shows what arrived and when Meta last delivered, not a sync time or browser limits
  select a.id,
         (select max(m.sent_at) from public.inbox_messages m
           where m.account_id = a.id and m.direction = 'incoming'),
         (select count(*)::integer from public.inbox_messages m
           where m.account_id = a.id and m.direction = 'incoming'
             and m.sent_at > internal.now() - interval '7 days'),
         (select max(e.last_received_at) from internal.instagram_webhook_events e
           where e.instagram_account_id = a.platform_user_id)
    from public.social_accounts a
    join public.platforms p on p.id = a.platform_id
   where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) and a.connection = 'official' and p.name = 'instagram'
   order by a.created_at desc
$$;
comment on function public.instagram_official_facts() is
  'Per official Instagram account of the caller: when its last message arrived, how many arrived in the last 7 days, and when Meta last delivered a webhook event for it (security definer: the events table is internal).';
revoke execute on function public.instagram_official_facts() from public, anon;

create or replace function public.record_instagram_webhook_events(p_events jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  item jsonb;
  stored_id uuid;
  fresh boolean;
  added integer := 0;
  repeated integer := 0;
begin
  -- p_events: [{key, accountId, field, kind, occurredAt, payload}], checked by the function
  for item in select value from jsonb_array_elements(coalesce(p_events, '[]'::jsonb)) loop
    insert into internal.instagram_webhook_events as e (event_key, instagram_account_id, field, kind, occurred_at, payload)
    values (item ->> 'key', item ->> 'accountId', item ->> 'field', item ->> 'kind', (item ->> 'occurredAt')::timestamptz,
            item -> 'payload')
    on conflict (instagram_account_id, event_key) do update
      set deliveries = e.deliveries + 1, last_received_at = now()
    returning e.id, (xmax = 0) into stored_id, fresh;
    if fresh then
      update internal.instagram_webhook_events e
         set job_id = internal.enqueue_job('instagram.event', jsonb_build_object('eventId', stored_id), 'instagram-event:' || stored_id)
       where e.id = stored_id;
      added := added + 1;
    else
      repeated := repeated + 1;
    end if;
  end loop;
  return jsonb_build_object('stored', added, 'repeated', repeated);
end
$$;
comment on function public.record_instagram_webhook_events(jsonb) is
  'Service role only (the instagram-webhook function, after the signature checked): stores each delivered event once by its account and key and queues an instagram.event job for each new one; a repeated delivery only counts. Answers {stored, repeated}.';
revoke execute on function public.record_instagram_webhook_events(jsonb) from public, anon, authenticated;

create or replace function public.take_public_lookup(p_form text, p_address text, p_limit integer, p_window_seconds integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  t timestamptz := now();
  bucket timestamptz := to_timestamp(floor(extract(epoch from t) / p_window_seconds) * p_window_seconds);
  counted integer;
begin
  if coalesce(p_limit, 0) < 1 or coalesce(p_window_seconds, 0) < 1 then
    raise exception 'A lookup limit needs a positive limit and window' using errcode = '22023';
  end if;
  delete from internal.public_lookup_hits h where h.window_start < t - interval '1 day';
  insert into internal.public_lookup_hits as h (form, address, window_start)
  values (left(p_form, 50), left(coalesce(p_address, ''), 100), bucket)
  on conflict (form, address, window_start) do update set hits = h.hits + 1
  returning h.hits into counted;
  return jsonb_build_object(
    'allowed', counted <= p_limit,
    'retryAfterSeconds', ceil(extract(epoch from bucket + make_interval(secs => p_window_seconds) - t))::integer);
end
$$;
comment on function public.take_public_lookup(text, text, integer, integer) is
  'Service role only (a function serving a public page): counts one lookup of p_form by p_address in the current window of p_window_seconds and answers {allowed (at most p_limit in the window), retryAfterSeconds (until the window ends)}.';
revoke execute on function public.take_public_lookup(text, text, integer, integer) from public, anon, authenticated;
