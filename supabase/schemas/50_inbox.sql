-- The Conversations inbox: threads and messages of people an account messaged, the customer's
-- answers and their sending, and "Check now".

-- Tables ------------------------------------------------------------------------------------------

create table public.inbox_threads (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  account_id uuid not null,
  peer_username text not null,
  peer_platform_id text,
  platform_thread_id text,
  campaign_id uuid,
  campaign_lead_id uuid,
  status text not null default 'open'::text,
  handled_at timestamp with time zone,
  unread_count integer not null default 0,
  last_message_at timestamp with time zone,
  last_message_preview text,
  last_message_direction text,
  last_incoming_at timestamp with time zone,
  runner_opened_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint inbox_threads_pkey primary key (id),
  constraint inbox_threads_last_message_direction_check check ((last_message_direction = any (array['incoming'::text, 'outgoing'::text]))),
  constraint inbox_threads_peer_username_check check (((char_length(peer_username) >= 1) and (char_length(peer_username) <= 100))),
  constraint inbox_threads_status_check check ((status = any (array['open'::text, 'handled'::text]))),
  constraint inbox_threads_unread_count_check check ((unread_count >= 0)),
  constraint inbox_threads_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint inbox_threads_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete set null,
  constraint inbox_threads_campaign_lead_id_fkey foreign key (campaign_lead_id) references public.campaign_leads(id) on delete set null,
  constraint inbox_threads_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint inbox_threads_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.inbox_threads is
  'Conversations inbox: one thread per account and person who replied to outreach, written by the runner''s inbox sync, or (official Instagram) per account and person who wrote to it or was sent a DM, written from its webhook. Customers read their own; status and read marks change only through RPCs.';
comment on column public.inbox_threads.status is
  'open, or handled (the customer marked it done); a new reply reopens it.';
comment on column public.inbox_threads.unread_count is
  'Incoming messages the customer has not opened in Reachflow nor read on the platform.';
comment on column public.inbox_threads.runner_opened_at is
  'When the runner last opened the conversation (sync, send): the platform''s read marker says nothing about the customer before it.';
comment on column public.inbox_threads.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.inbox_messages (
  id uuid not null default gen_random_uuid(),
  thread_id uuid not null,
  user_id uuid not null,
  account_id uuid not null,
  direction text not null,
  body text not null,
  origin text not null default 'platform'::text,
  status text not null,
  error text,
  platform_message_id text,
  dedupe_key text not null,
  sent_at timestamp with time zone,
  read_at timestamp with time zone,
  read_on_platform boolean not null default false,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint inbox_messages_pkey primary key (id),
  constraint inbox_messages_thread_id_dedupe_key_key unique (thread_id, dedupe_key),
  constraint inbox_messages_body_check check (((char_length(body) >= 1) and (char_length(body) <= 10000))),
  constraint inbox_messages_direction_check check ((direction = any (array['incoming'::text, 'outgoing'::text]))),
  constraint inbox_messages_origin_check check ((origin = any (array['platform'::text, 'reachflow'::text]))),
  constraint inbox_messages_status_check check ((status = any (array['received'::text, 'queued'::text, 'sending'::text, 'sent'::text, 'uncertain'::text, 'failed'::text]))),
  constraint inbox_messages_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint inbox_messages_thread_id_fkey foreign key (thread_id) references public.inbox_threads(id) on delete cascade,
  constraint inbox_messages_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint inbox_messages_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.inbox_messages is
  'Every message of an inbox thread, incoming and outgoing, de-duplicated per thread by platform message id (dedupe_key), plus the customer''s answers (origin reachflow).';
comment on column public.inbox_messages.status is
  'received (incoming); outgoing: queued → sending → sent / uncertain (checked in the thread later) / failed (error says why; nothing went out).';
comment on column public.inbox_messages.read_on_platform is
  'The customer had read it on X / Instagram before Reachflow synced it: never counted unread.';
comment on column public.inbox_messages.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.inbox_check_requests (
  account_id uuid not null,
  user_id uuid not null,
  requested_at timestamp with time zone not null,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint inbox_check_requests_pkey primary key (account_id),
  constraint inbox_check_requests_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete cascade,
  constraint inbox_check_requests_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint inbox_check_requests_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.inbox_check_requests is
  'When the customer last pressed "Check now" per account (rate limit: once a minute).';
comment on column public.inbox_check_requests.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create unique index inbox_threads_account_peer_key on public.inbox_threads (account_id, lower(peer_username));
create index inbox_threads_campaign_id_idx on public.inbox_threads (campaign_id);
create index inbox_threads_campaign_lead_id_idx on public.inbox_threads (campaign_lead_id);
create index inbox_threads_open_account_idx on public.inbox_threads (account_id, last_message_at) where (status = 'open'::text);
create index inbox_threads_user_id_last_message_at_idx on public.inbox_threads (user_id, last_message_at desc);
create index inbox_threads_workspace_id_last_message_at_idx on public.inbox_threads (workspace_id, last_message_at desc);

create index inbox_messages_account_id_status_idx on public.inbox_messages (account_id, status) where (status = any (array['queued'::text, 'sending'::text, 'uncertain'::text]));
create index inbox_messages_thread_id_created_at_idx on public.inbox_messages (thread_id, created_at);
create index inbox_messages_user_id_idx on public.inbox_messages (user_id);
create index inbox_messages_workspace_id_idx on public.inbox_messages (workspace_id);

create index inbox_check_requests_user_id_idx on public.inbox_check_requests (user_id);
create index inbox_check_requests_workspace_id_idx on public.inbox_check_requests (workspace_id);

-- Triggers ----------------------------------------------------------------------------------------

create trigger inbox_threads_fill_workspace_id before insert on public.inbox_threads for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_account();

create trigger inbox_threads_set_updated_at before update on public.inbox_threads for each row execute function internal.set_updated_at();

create trigger inbox_messages_fill_workspace_id before insert on public.inbox_messages for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_thread();

create trigger inbox_messages_set_updated_at before update on public.inbox_messages for each row execute function internal.set_updated_at();

create trigger inbox_check_requests_fill_workspace_id before insert on public.inbox_check_requests for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_account();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.apply_platform_read_markers(p_account_id uuid, p_read_thread_ids text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  thread record;
  marked integer := 0;
  n integer;
begin
  for thread in
    select t.id from public.inbox_threads t
     where t.account_id = p_account_id and t.unread_count > 0 and t.platform_thread_id = any (p_read_thread_ids)
  loop
    update public.inbox_messages m
       set read_at = internal.now(), read_on_platform = true
     where m.thread_id = thread.id and m.direction = 'incoming' and m.read_at is null
       and m.sent_at is not null
       and m.sent_at > coalesce(internal.inbox_runner_seen_at(thread.id), '-infinity');
    get diagnostics n = row_count;
    if n > 0 then
      marked := marked + n;
      perform internal.refresh_inbox_thread(thread.id);
    end if;
  end loop;
  return marked;
end
$$;
comment on function internal.apply_platform_read_markers(uuid, text[]) is
  'Runner: replies the customer read on the platform (listed read, arrived after the runner last opened the thread) stop counting unread.';

create or replace function internal.claim_inbox_reply(p_account_id uuid)
returns table(message_id uuid, thread_id uuid, body text, peer_username text, peer_platform_id text, platform_thread_id text)
language sql
security definer
set search_path = ''
as $$
  with next as (
    select m.id from public.inbox_messages m
     where m.account_id = p_account_id and m.status = 'queued'
     order by m.created_at
     limit 1
     for update skip locked
  )
  update public.inbox_messages m
     set status = 'sending', error = null, sent_at = internal.now()
    from next, public.inbox_threads t
   where m.id = next.id and t.id = m.thread_id
  returning m.id, m.thread_id, m.body, t.peer_username, t.peer_platform_id, t.platform_thread_id
$$;
comment on function internal.claim_inbox_reply(uuid) is
  'Runner: marks the account''s oldest queued answer sending (the at-most-once claim) and returns it.';

create or replace function internal.fail_queued_inbox_replies(p_account_id uuid, p_reason text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  thread_ids uuid[];
  failed_count integer;
begin
  with failed as (
    update public.inbox_messages m set status = 'failed', error = left(p_reason, 1000)
     where m.account_id = p_account_id and m.status = 'queued'
    returning m.thread_id
  )
  select array_agg(distinct thread_id), count(*) into thread_ids, failed_count from failed;
  perform internal.refresh_inbox_thread(t) from unnest(coalesce(thread_ids, '{}')) t;
  return failed_count;
end
$$;
comment on function internal.fail_queued_inbox_replies(uuid, text) is
  'Runner: the account''s queued answers were not sent (cap reached, account stopped); the reason is shown with each.';

create or replace function internal.finish_inbox_reply(p_message_id uuid, p_status text, p_platform_message_id text default null::text, p_platform_thread_id text default null::text, p_error text default null::text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  message public.inbox_messages;
begin
  if p_status not in ('sent', 'uncertain', 'failed') then
    raise exception 'Unknown answer status %', p_status using errcode = '22023';
  end if;
  update public.inbox_messages m
     set status = p_status,
         error = case when p_status = 'sent' then null else left(p_error, 1000) end,
         platform_message_id = coalesce(nullif(p_platform_message_id, ''), m.platform_message_id),
         dedupe_key = case when coalesce(p_platform_message_id, '') <> ''
                                and not exists (select 1 from public.inbox_messages o
                                                 where o.thread_id = m.thread_id and o.dedupe_key = 'id:' || p_platform_message_id)
                           then 'id:' || p_platform_message_id else m.dedupe_key end
   where m.id = p_message_id and m.status in ('sending', 'uncertain')
  returning * into message;
  if message.id is null then
    return;
  end if;
  if coalesce(p_platform_thread_id, '') <> '' then
    update public.inbox_threads t set platform_thread_id = p_platform_thread_id
     where t.id = message.thread_id and t.platform_thread_id is distinct from p_platform_thread_id;
  end if;
  if p_status in ('sent', 'uncertain') then
    update public.social_accounts a
       set messages_sent_today = case
             when a.sent_today_on = pg_catalog.timezone(a.timezone, internal.now())::date then a.messages_sent_today + 1
             else 1 end,
           sent_today_on = pg_catalog.timezone(a.timezone, internal.now())::date
     where a.id = message.account_id;
  end if;
  perform internal.refresh_inbox_thread(message.thread_id);
end
$$;
comment on function internal.finish_inbox_reply(uuid, text, text, text, text) is
  'Runner: records an answer as sent, uncertain or failed (with the reason); sent/uncertain count as today''s messages of the account.';

create or replace function internal.inbox_runner_seen_at(p_thread_id uuid)
returns timestamp with time zone
language sql
stable security definer
set search_path = ''
as $$
  select greatest(
           t.runner_opened_at,
           (select max(d.sent_at) + interval '5 minutes' from public.dm_logs d
             where d.account_id = t.account_id and lower(d.target_username) = lower(t.peer_username)
               and d.status in ('sent', 'uncertain')),
           (select max(m.sent_at) + interval '5 minutes' from public.inbox_messages m
             where m.thread_id = t.id and m.origin = 'reachflow' and m.status in ('sent', 'uncertain')))
    from public.inbox_threads t where t.id = p_thread_id
$$;
comment on function internal.inbox_runner_seen_at(uuid) is
  'When the runner last had the conversation open (its syncs; its DMs and answers, plus 5 minutes for the page to leave): later platform read marks are the customer''s.';

create or replace function internal.inbox_syncs_due(p_at timestamp with time zone)
returns table(account_id uuid)
language sql
stable security definer
set search_path = ''
as $$
  -- A read by anything (this sync, a campaign tick that held the session, "Check now") moves
  -- last_synced_at, so an account read recently is never due: the fold saves the separate job.
  -- Three paces: a conversation going on (a message either way in the last hour, in a thread where
  -- the other side has written) every 4 minutes; in use (a sending campaign, an open conversation
  -- from the last 3 days, a reply in the last day) every 15 minutes, which a campaign tick at 100
  -- DMs a day (one every 14.4 minutes) covers by itself; idle once an hour in its own minute.
  select a.id
    from public.social_accounts a
   where a.status = 'active'
     -- an official Instagram account's messages arrive by webhook; no browser reads its inbox
     and not (a.connection = 'official'
              and a.platform_id = (select p.id from public.platforms p where p.name = 'instagram'))
     and case
           when exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.last_incoming_at is not null
                           and th.last_message_at > p_at - interval '1 hour')
             then coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '3 minutes 30 seconds'
           when exists (select 1 from public.campaigns c
                         where c.account_id = a.id and c.status in ('queued', 'running', 'active'))
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.status = 'open'
                           and th.last_message_at > p_at - interval '3 days')
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.last_incoming_at > p_at - interval '1 day')
             then coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '14 minutes 30 seconds'
                  -- one not read for over half an hour (never, or the runners were down) in its own
                  -- minute of the quarter hour: a restart's backlog comes over 15 minutes, not at once
                  and (a.last_synced_at > p_at - interval '30 minutes'
                       or mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 15)
                          = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 15))
           -- idle: in its own minute of the hour, unless something read it in the last half hour
           else mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 60)
                  = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 60)
                and coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '30 minutes'
         end
$$;
comment on function internal.inbox_syncs_due(timestamp with time zone) is
  'Accounts whose inbox.sync is due at p_at: in a conversation (a message either way in the last hour, in a thread where the other side has written) once their last read began 3.5 minutes ago; in use (a queued/running campaign, an open inbox thread with a message in the last 3 days, or a reply in the last day) once it began 14.5 minutes ago (one not read for half an hour in its own minute of the quarter hour); idle ones in their own minute of the hour when their last read is half an hour old.';

create or replace function internal.instagram_answer_refusal(p_thread_id uuid)
returns text
language sql
stable security definer
set search_path = ''
as $$
  select case
           when t.last_incoming_at is null then
             format('@%s has not written to @%s yet: Instagram lets a business answer only people who wrote to it. Nothing was sent.',
                    t.peer_username, a.username)
           else
             format('@%s last wrote on %s, more than 7 days ago: Instagram allows an answer only within 7 days of the person''s last message. Nothing was sent.',
                    t.peer_username, pg_catalog.to_char(pg_catalog.timezone(a.timezone, t.last_incoming_at), 'FMDD Mon YYYY'))
         end
    from public.inbox_threads t join public.social_accounts a on a.id = t.account_id
   where t.id = p_thread_id and internal.instagram_answer_window(t.id) = 'closed'
$$;
comment on function internal.instagram_answer_refusal(uuid) is
  'Why Instagram would refuse an answer in this official thread now (its window is closed), in words for the customer; null while an answer may go.';

create or replace function internal.instagram_answer_window(p_thread_id uuid)
returns text
language sql
stable security definer
set search_path = ''
as $$
  -- Instagram's rules for a business answering a person: a normal message within 24 hours of the
  -- person's last message, one tagged HUMAN_AGENT (a person answering) within 7 days, nothing after
  select case
           when t.last_incoming_at is null then 'closed'
           when t.last_incoming_at >= internal.now() - interval '24 hours' then 'standard'
           when t.last_incoming_at >= internal.now() - interval '7 days' then 'human_agent'
           else 'closed'
         end
    from public.inbox_threads t where t.id = p_thread_id
$$;
comment on function internal.instagram_answer_window(uuid) is
  'An official Instagram thread''s answer window now: standard (within 24 hours of the person''s last message), human_agent (within 7 days, sent with the HUMAN_AGENT tag) or closed.';

create or replace function internal.record_inbox_thread(p_account_id uuid, p_peer_username text, p_peer_platform_id text, p_platform_thread_id text, p_platform_unread boolean, p_opened boolean, p_messages jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_user uuid;
  peer text := pg_catalog.ltrim(pg_catalog.btrim(coalesce(p_peer_username, '')), '@');
  thread public.inbox_threads;
  lead_id uuid;
  lead_campaign_id uuid;
  seen_at timestamptz;
  message jsonb;
  key text;
  message_at timestamptz;
  message_text text;
  inserted integer := 0;
  new_incoming integer := 0;
  matched uuid;
begin
  select a.user_id into account_user from public.social_accounts a where a.id = p_account_id;
  if account_user is null or peer = '' then
    return null;
  end if;
  if jsonb_typeof(p_messages) is distinct from 'array' then
    raise exception 'p_messages must be a JSON array' using errcode = '22023';
  end if;

  select * into thread from public.inbox_threads t
   where t.account_id = p_account_id and lower(t.peer_username) = lower(peer);
  -- the person's latest campaign lead messaged from this account
  select l.id, l.campaign_id into lead_id, lead_campaign_id
    from public.campaign_leads l
    join public.dm_logs d on d.campaign_lead_id = l.id
   where d.account_id = p_account_id and lower(l.username) = lower(peer) and d.status in ('sent', 'uncertain')
   order by d.sent_at desc
   limit 1;
  if thread.id is null then
    if lead_id is null then
      return null; -- not someone Reachflow wrote to
    end if;
    if not exists (select 1 from pg_catalog.jsonb_array_elements(p_messages) e
                    where e ->> 'direction' = 'incoming' and pg_catalog.btrim(coalesce(e ->> 'text', '')) <> '') then
      return null; -- no reply yet
    end if;
    insert into public.inbox_threads (user_id, account_id, peer_username, peer_platform_id, platform_thread_id,
                                      campaign_id, campaign_lead_id)
    values (account_user, p_account_id, peer, nullif(p_peer_platform_id, ''), nullif(p_platform_thread_id, ''),
            lead_campaign_id, lead_id)
    on conflict (account_id, lower(peer_username)) do nothing
    returning * into thread;
    if thread.id is null then
      select * into thread from public.inbox_threads t
       where t.account_id = p_account_id and lower(t.peer_username) = lower(peer);
    end if;
  else
    update public.inbox_threads t
       set peer_platform_id = coalesce(nullif(p_peer_platform_id, ''), t.peer_platform_id),
           platform_thread_id = coalesce(nullif(p_platform_thread_id, ''), t.platform_thread_id),
           campaign_id = coalesce(lead_campaign_id, t.campaign_id),
           campaign_lead_id = coalesce(lead_id, t.campaign_lead_id)
     where t.id = thread.id;
  end if;
  -- serialises syncs of one thread
  perform 1 from public.inbox_threads t where t.id = thread.id for update;
  seen_at := internal.inbox_runner_seen_at(thread.id);

  for message in select * from pg_catalog.jsonb_array_elements(p_messages) loop
    message_text := left(coalesce(message ->> 'text', ''), 10000);
    continue when pg_catalog.btrim(message_text) = '' or message ->> 'direction' not in ('incoming', 'outgoing');
    message_at := case when coalesce(message ->> 'at', '') ~ '^\d{4}-\d{2}-\d{2}' then (message ->> 'at')::timestamptz end;
    key := case when coalesce(message ->> 'id', '') <> '' then 'id:' || (message ->> 'id')
                else 'hash:' || pg_catalog.md5((message ->> 'direction') || '|' || coalesce(message_at::text, '') || '|' || message_text) end;
    continue when exists (select 1 from public.inbox_messages m where m.thread_id = thread.id and m.dedupe_key = key);
    if message ->> 'direction' = 'outgoing' then
      -- the platform's copy of an answer sent from Reachflow: the same row, now confirmed
      select m.id into matched from public.inbox_messages m
       where m.thread_id = thread.id and m.origin = 'reachflow' and m.platform_message_id is null
         and m.status in ('sending', 'sent', 'uncertain') and m.body = message_text
       order by m.created_at
       limit 1;
      if matched is not null then
        update public.inbox_messages m
           set platform_message_id = nullif(message ->> 'id', ''), dedupe_key = key, status = 'sent', error = null,
               sent_at = coalesce(message_at, m.sent_at)
         where m.id = matched;
        continue;
      end if;
    end if;
    -- created_at from the clock at each insert, not the transaction's start: messages the page gives no
    -- time keep the thread's order within one read, so the last one (the preview) is the page's last
    insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status,
                                       platform_message_id, dedupe_key, sent_at, read_at, read_on_platform,
                                       created_at)
    values (thread.id, account_user, p_account_id, message ->> 'direction', message_text, 'platform',
            case when message ->> 'direction' = 'incoming' then 'received' else 'sent' end,
            nullif(message ->> 'id', ''), key, message_at,
            case when message ->> 'direction' = 'incoming' and p_platform_unread is false
                      and message_at is not null and (seen_at is null or message_at > seen_at)
                 then internal.now() end,
            message ->> 'direction' = 'incoming' and p_platform_unread is false
              and message_at is not null and (seen_at is null or message_at > seen_at),
            pg_catalog.clock_timestamp())
    on conflict (thread_id, dedupe_key) do nothing;
    if found then
      inserted := inserted + 1;
      if message ->> 'direction' = 'incoming' then
        new_incoming := new_incoming + 1;
      end if;
    end if;
  end loop;

  -- a new reply reopens a handled thread
  update public.inbox_threads t
     set status = case when new_incoming > 0 then 'open' else t.status end,
         handled_at = case when new_incoming > 0 then null else t.handled_at end,
         runner_opened_at = case when p_opened then internal.now() else t.runner_opened_at end
   where t.id = thread.id;
  perform internal.refresh_inbox_thread(thread.id);
  return jsonb_build_object('thread_id', thread.id, 'inserted', inserted, 'new_incoming', new_incoming);
end
$$;
comment on function internal.record_inbox_thread(uuid, text, text, text, boolean, boolean, jsonb) is
  'Runner: stores one conversation as read (idempotent per platform message id); unread unless read on the platform before the runner opened it.';

create or replace function internal.record_instagram_message(p_account_id uuid, p_person_id text, p_person_username text, p_direction text, p_mid text, p_body text, p_sent_at timestamp with time zone)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account public.social_accounts;
  person text := pg_catalog.btrim(coalesce(p_person_id, ''));
  username text := left(pg_catalog.ltrim(pg_catalog.btrim(coalesce(p_person_username, '')), '@'), 100);
  message_text text := left(pg_catalog.btrim(coalesce(p_body, '')), 10000);
  key text;
  thread public.inbox_threads;
  created boolean := false;
  adopted uuid;
  inserted boolean := false;
begin
  if p_direction is null or p_direction not in ('incoming', 'outgoing') then
    raise exception 'Direction must be incoming or outgoing' using errcode = '22023';
  end if;
  if person = '' or coalesce(p_mid, '') = '' or message_text = '' then
    raise exception 'A message needs the person''s id, its mid and a text' using errcode = '22023';
  end if;
  select a.* into account
    from public.social_accounts a join public.platforms p on p.id = a.platform_id
   where a.id = p_account_id and a.connection = 'official' and p.name = 'instagram';
  if account.id is null then
    return null;
  end if;
  key := 'id:' || p_mid;
  -- a person's first messages may be worked at once by two jobs: one thread per account and person
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('instagram-thread:' || account.id || ':' || person));
  select * into thread from public.inbox_threads t where t.account_id = account.id and t.peer_platform_id = person;
  if thread.id is null then
    -- a thread only an outgoing message started (an automation's DM nobody answered yet) starts
    -- handled, out of the open inbox; the person's first message reopens it
    insert into public.inbox_threads (user_id, account_id, peer_username, peer_platform_id, status, handled_at)
    values (account.user_id, account.id,
            case when username <> '' and not exists (select 1 from public.inbox_threads o
                                                      where o.account_id = account.id and lower(o.peer_username) = lower(username))
                 then username else person end,
            person,
            case when p_direction = 'incoming' then 'open' else 'handled' end,
            case when p_direction = 'outgoing' then internal.now() end)
    returning * into thread;
    created := true;
  elsif username <> '' and thread.peer_username is distinct from username
        and not exists (select 1 from public.inbox_threads o
                         where o.account_id = account.id and lower(o.peer_username) = lower(username) and o.id <> thread.id) then
    update public.inbox_threads t set peer_username = username where t.id = thread.id;
  end if;

  if exists (select 1 from public.inbox_messages m where m.thread_id = thread.id and m.dedupe_key = key) then
    return jsonb_build_object('thread_id', thread.id, 'inserted', false, 'created', created);
  end if;
  if p_direction = 'outgoing' then
    -- the echo of an answer sent from the inbox that came before the runner wrote down its mid
    select m.id into adopted from public.inbox_messages m
     where m.thread_id = thread.id and m.origin = 'reachflow' and m.platform_message_id is null
       and m.status in ('sending', 'uncertain') and m.body = message_text
     order by m.created_at
     limit 1;
    if adopted is not null then
      update public.inbox_messages m
         set platform_message_id = p_mid, dedupe_key = key,
             status = case when m.status = 'uncertain' then 'sent' else m.status end,
             error = case when m.status = 'uncertain' then null else m.error end
       where m.id = adopted;
      perform internal.refresh_inbox_thread(thread.id);
      return jsonb_build_object('thread_id', thread.id, 'inserted', false, 'created', created);
    end if;
  end if;
  insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status,
                                     platform_message_id, dedupe_key, sent_at)
  values (thread.id, account.user_id, account.id, p_direction, message_text, 'platform',
          case when p_direction = 'incoming' then 'received' else 'sent' end,
          p_mid, key, coalesce(p_sent_at, internal.now()))
  on conflict (thread_id, dedupe_key) do nothing;
  inserted := found;
  -- a new message from the person reopens a handled thread
  if inserted and p_direction = 'incoming' then
    update public.inbox_threads t set status = 'open', handled_at = null where t.id = thread.id and t.status <> 'open';
  end if;
  perform internal.refresh_inbox_thread(thread.id);
  return jsonb_build_object('thread_id', thread.id, 'inserted', inserted, 'created', created);
end
$$;
comment on function internal.record_instagram_message(uuid, text, text, text, text, text, timestamp with time zone) is
  'Runner: one message of an official Instagram account''s conversation with a person (by their Instagram-scoped id), stored once per mid; an incoming one opens the thread and counts unread, an outgoing one alone starts it handled.';

create or replace function internal.refresh_inbox_thread(p_thread_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.inbox_threads t
     set unread_count = (select count(*) from public.inbox_messages m
                          where m.thread_id = t.id and m.direction = 'incoming' and m.read_at is null),
         last_incoming_at = (select max(coalesce(m.sent_at, m.created_at)) from public.inbox_messages m
                              where m.thread_id = t.id and m.direction = 'incoming'),
         last_message_at = l.at, last_message_preview = l.preview, last_message_direction = l.direction
    from (select coalesce(m.sent_at, m.created_at) as at, left(pg_catalog.regexp_replace(m.body, '\s+', ' ', 'g'), 140) as preview,
                 m.direction
            from public.inbox_messages m
           where m.thread_id = p_thread_id
           order by coalesce(m.sent_at, m.created_at) desc, m.created_at desc
           limit 1) l
   where t.id = p_thread_id
$$;
comment on function internal.refresh_inbox_thread(uuid) is
  'Recomputes a thread''s unread count and last message from its messages.';

create or replace function internal.request_inbox_sync(p_account_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.status = 'active') then
    return null;
  end if;
  return internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', p_account_id), 'inbox:' || p_account_id);
end
$$;
comment on function internal.request_inbox_sync(uuid) is
  'Queues an inbox.sync for an active account (singleton per account); the runner calls it when an account test passes.';

create or replace function internal.requeue_inbox_reply(p_message_id uuid, p_reason text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  thread uuid;
begin
  -- An answer claimed but stopped by a changed page before send was pressed: nothing went out, so
  -- it waits in the queue again (sent once the pause is over), the reason on it meanwhile.
  update public.inbox_messages m set status = 'queued', error = left(p_reason, 1000), sent_at = null
   where m.id = p_message_id and m.status = 'sending'
  returning m.thread_id into thread;
  if thread is null then
    return false;
  end if;
  perform internal.refresh_inbox_thread(thread);
  return true;
end
$$;
comment on function internal.requeue_inbox_reply(uuid, text) is
  'Runner: an answer a site change stopped before it was sent goes back to the queue.';

-- Row-level security ------------------------------------------------------------------------------

alter table public.inbox_threads enable row level security;

create policy "Members can read the workspace's inbox threads" on public.inbox_threads
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "The runner reads every inbox thread" on public.inbox_threads
  for select
  to reachflow_runner
  using (true);

alter table public.inbox_messages enable row level security;

create policy "Members can read the workspace's inbox messages" on public.inbox_messages
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "The runner reads every inbox message" on public.inbox_messages
  for select
  to reachflow_runner
  using (true);

alter table public.inbox_check_requests enable row level security;

create policy "Members can read the workspace's inbox check requests" on public.inbox_check_requests
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "The runner reads every inbox check request" on public.inbox_check_requests
  for select
  to reachflow_runner
  using (true);

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.inbox_threads from anon;
revoke insert, update, delete, truncate, references, trigger on public.inbox_threads from authenticated;
grant select on public.inbox_threads to reachflow_runner;

revoke all on public.inbox_messages from anon;
revoke insert, update, delete, truncate, references, trigger on public.inbox_messages from authenticated;
grant select on public.inbox_messages to reachflow_runner;

revoke all on public.inbox_check_requests from anon;
revoke insert, update, delete, truncate, references, trigger on public.inbox_check_requests from authenticated;
grant select on public.inbox_check_requests to reachflow_runner;

revoke execute on function internal.apply_platform_read_markers(uuid, text[]) from public;
grant execute on function internal.apply_platform_read_markers(uuid, text[]) to reachflow_runner, service_role;

revoke execute on function internal.claim_inbox_reply(uuid) from public;
grant execute on function internal.claim_inbox_reply(uuid) to reachflow_runner, service_role;

revoke execute on function internal.fail_queued_inbox_replies(uuid, text) from public;
grant execute on function internal.fail_queued_inbox_replies(uuid, text) to reachflow_runner, service_role;

revoke execute on function internal.finish_inbox_reply(uuid, text, text, text, text) from public;
grant execute on function internal.finish_inbox_reply(uuid, text, text, text, text) to reachflow_runner, service_role;

revoke execute on function internal.inbox_runner_seen_at(uuid) from public;

revoke execute on function internal.inbox_syncs_due(timestamp with time zone) from public;
grant execute on function internal.inbox_syncs_due(timestamp with time zone) to service_role;

revoke execute on function internal.instagram_answer_refusal(uuid) from public;
grant execute on function internal.instagram_answer_refusal(uuid) to reachflow_runner, service_role;

revoke execute on function internal.instagram_answer_window(uuid) from public;
grant execute on function internal.instagram_answer_window(uuid) to reachflow_runner, service_role;

revoke execute on function internal.record_inbox_thread(uuid, text, text, text, boolean, boolean, jsonb) from public;
grant execute on function internal.record_inbox_thread(uuid, text, text, text, boolean, boolean, jsonb) to reachflow_runner, service_role;

revoke execute on function internal.record_instagram_message(uuid, text, text, text, text, text, timestamp with time zone) from public;
grant execute on function internal.record_instagram_message(uuid, text, text, text, text, text, timestamp with time zone) to reachflow_runner, service_role;

revoke execute on function internal.refresh_inbox_thread(uuid) from public;

revoke execute on function internal.request_inbox_sync(uuid) from public;
grant execute on function internal.request_inbox_sync(uuid) to reachflow_runner, service_role;

revoke execute on function internal.requeue_inbox_reply(uuid, text) from public;
grant execute on function internal.requeue_inbox_reply(uuid, text) to reachflow_runner, service_role;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.inbox_overview()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'unread', (select count(*) from public.inbox_threads t where t.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,agent}')) and t.unread_count > 0),
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'username', a.username, 'platform', p.name, 'status', a.status,
                                          'connection', a.connection, 'last_synced_at', a.last_synced_at,
                                          'check_requested_at', r.requested_at)
                       order by a.username)
        from public.social_accounts a
        join public.platforms p on p.id = a.platform_id
        left join public.inbox_check_requests r on r.account_id = a.id
       where a.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,agent}'))), '[]'::jsonb))
$$;
comment on function public.inbox_overview() is
  'The Inbox tab''s badge (conversations with unread replies) and the caller''s accounts with how they connect and their last inbox check.';
revoke execute on function public.inbox_overview() from public, anon;

create or replace function public.mark_inbox_thread_read(p_thread_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.inbox_threads t where t.id = p_thread_id and t.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}'))) then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
  update public.inbox_messages m set read_at = internal.now()
   where m.thread_id = p_thread_id and m.direction = 'incoming' and m.read_at is null;
  perform internal.refresh_inbox_thread(p_thread_id);
end
$$;
comment on function public.mark_inbox_thread_read(uuid) is
  'The customer opened the conversation: its replies are read.';
revoke execute on function public.mark_inbox_thread_read(uuid) from public, anon;

create or replace function public.queue_inbox_reply(p_thread_id uuid, p_body text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  thread public.inbox_threads;
  account public.social_accounts;
  text_to_send text := pg_catalog.btrim(coalesce(p_body, ''));
  message_id uuid;
  refusal text;
begin
  select * into thread from public.inbox_threads t where t.id = p_thread_id and t.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}'));
  if thread.id is null then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
  if text_to_send = '' then
    raise exception 'Write a message first.' using errcode = '22023';
  end if;
  if char_length(text_to_send) > 2000 then
    raise exception 'Keep the message under 2,000 characters (it has %).', char_length(text_to_send) using errcode = '22023';
  end if;
  select * into account from public.social_accounts a where a.id = thread.account_id;
  if account.status is distinct from 'active' then
    raise exception '@% is %, so it cannot send. Fix it in Social Accounts, then answer again.',
      account.username, coalesce(account.status, 'gone') using errcode = 'PT409';
  end if;
  -- Instagram refuses an answer 7 days after the person's last message: the customer learns it now
  if account.connection = 'official'
     and exists (select 1 from public.platforms p where p.id = account.platform_id and p.name = 'instagram') then
    refusal := internal.instagram_answer_refusal(thread.id);
    if refusal is not null then
      raise exception '%', refusal using errcode = 'PT409';
    end if;
  end if;
  insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
  values (thread.id, thread.user_id, thread.account_id, 'outgoing', text_to_send, 'reachflow', 'queued',
          'reply:' || gen_random_uuid())
  returning id into message_id;
  perform internal.refresh_inbox_thread(thread.id);
  -- the account's inbox.sync sends queued answers first; one waiting sync per account is enough
  perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', thread.account_id), 'inbox:' || thread.account_id);
  return message_id;
end
$$;
comment on function public.queue_inbox_reply(uuid, text) is
  'Queues the customer''s answer in one of their conversations (1-2,000 characters, active account); the runner sends it at most once. Returns the message id.';
revoke execute on function public.queue_inbox_reply(uuid, text) from public, anon;

create or replace function public.request_inbox_check(p_account_id uuid default null::uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  workspace uuid := internal.require_active_role('{owner,admin,editor,agent}');
  t constant timestamptz := internal.now();
  v_account uuid;
  last_request timestamptz;
  queued integer := 0;
  limited integer := 0;
  wait_seconds integer := 0;
begin
  if p_account_id is not null
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.workspace_id = workspace) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  -- id order: two calls for several accounts take the row locks in the same order (no deadlock)
  for v_account in
    select a.id
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id
     where a.workspace_id = workspace and a.status = 'active' and (p_account_id is null or a.id = p_account_id)
       -- Instagram's webhooks bring an official Instagram account's messages as they are sent
       and not (a.connection = 'official' and p.name = 'instagram')
     order by a.id
       for update of a
  loop
    insert into public.inbox_check_requests as r (account_id, user_id, requested_at)
    values (v_account, me, t)
    on conflict (account_id) do update set requested_at = excluded.requested_at
     where r.requested_at <= t - interval '1 minute';
    if found then
      perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', v_account), 'inbox:' || v_account);
      queued := queued + 1;
    else
      select r.requested_at into last_request from public.inbox_check_requests r where r.account_id = v_account;
      limited := limited + 1;
      -- a call that started just before the winning one committed waits from the winner's time
      wait_seconds := greatest(wait_seconds,
        least(60, greatest(1, ceil(extract(epoch from last_request + interval '1 minute' - t))::integer)));
    end if;
  end loop;
  if queued = 0 and limited = 0 then
    raise exception 'No active account to check. Connect or fix an account in Social Accounts.' using errcode = 'PT409';
  end if;
  if queued = 0 then
    raise exception 'Checked less than a minute ago. Try again in % s.', wait_seconds using errcode = 'PT429';
  end if;
  return jsonb_build_object('queued', queued, 'limited', limited, 'retry_after_seconds', wait_seconds);
end
$$;
comment on function public.request_inbox_check(uuid) is
  '"Check now": queues inbox syncs for the caller''s active account(s) but official Instagram ones (webhooks bring their messages), once a minute per account, claimed atomically (PT429 with the wait otherwise).';
revoke execute on function public.request_inbox_check(uuid) from public, anon;

create or replace function public.retry_inbox_reply(p_message_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  message public.inbox_messages;
  refusal text;
begin
  select * into message from public.inbox_messages m
   where m.id = p_message_id and m.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}')) and m.origin = 'reachflow';
  if message.id is null then
    raise exception 'Message not found' using errcode = 'PT404';
  end if;
  -- only an answer known not to have gone out may be sent again
  if message.status <> 'failed' then
    raise exception 'Only a failed message can be sent again.' using errcode = 'PT409';
  end if;
  if not exists (select 1 from public.social_accounts a where a.id = message.account_id and a.status = 'active') then
    raise exception 'The account is not active, so it cannot send. Fix it in Social Accounts first.' using errcode = 'PT409';
  end if;
  -- an official Instagram answer whose 7 days are over would only be refused again
  if exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
              where a.id = message.account_id and a.connection = 'official' and p.name = 'instagram') then
    refusal := internal.instagram_answer_refusal(message.thread_id);
    if refusal is not null then
      raise exception '%', refusal using errcode = 'PT409';
    end if;
  end if;
  update public.inbox_messages m set status = 'queued', error = null where m.id = message.id;
  perform internal.refresh_inbox_thread(message.thread_id);
  perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', message.account_id), 'inbox:' || message.account_id);
end
$$;
comment on function public.retry_inbox_reply(uuid) is 'Queues a failed answer (nothing went out) again.';
revoke execute on function public.retry_inbox_reply(uuid) from public, anon;

create or replace function public.set_inbox_thread_status(p_thread_id uuid, p_status text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_status not in ('open', 'handled') then
    raise exception 'Status must be open or handled' using errcode = '22023';
  end if;
  update public.inbox_threads t
     set status = p_status, handled_at = case when p_status = 'handled' then internal.now() end
   where t.id = p_thread_id and t.workspace_id = (select internal.require_active_role('{owner,admin,editor,agent}'));
  if not found then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
end
$$;
comment on function public.set_inbox_thread_status(uuid, text) is
  'Marks one of the caller''s conversations handled, or open again.';
revoke execute on function public.set_inbox_thread_status(uuid, text) from public, anon;
