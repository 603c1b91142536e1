-- Conversations inbox (issue 21 item 1): the whole thread with every person who replied to the
-- customer's outreach, as the runner's inbox sync reads it, plus the customer's answers, which the
-- runner sends through the at-most-once path of campaign DMs.
--
-- Threads are keyed by (account, peer username): the send path, which knows only the lead's
-- username, and the inbox sync, which knows the platform's thread id, write to the same thread.
-- Messages are de-duplicated per thread by the platform's message id (or, when a platform gives
-- none, a hash of direction, time and text), so a sync can run any number of times.
--
-- Unread: an incoming message is unread until the customer opens its thread in Reachflow, unless
-- the customer had already read it on the platform itself. The platform's read marker only says
-- so when the runner has not opened the conversation since the message arrived (opening a thread
-- on X marks it read), so each thread remembers when the runner last opened it; a campaign DM or
-- an answer the runner sent opened it too.
--
-- Answers are rows with status queued; the account's inbox.sync job (queued at once, a singleton
-- per account) sends them before it reads the inbox: queued → sending (claimed, committed before
-- anything is typed) → sent / uncertain (checked in the thread later) / failed (with the reason).

-- Tables ---------------------------------------------------------------------------------------

create table public.inbox_threads (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  account_id uuid not null references public.social_accounts (id) on delete cascade,
  peer_username text not null check (char_length(peer_username) between 1 and 100),
  peer_platform_id text,
  platform_thread_id text,
  campaign_id uuid references public.campaigns (id) on delete set null,
  campaign_lead_id uuid references public.campaign_leads (id) on delete set null,
  status text not null default 'open' check (status in ('open', 'handled')),
  handled_at timestamptz,
  unread_count integer not null default 0 check (unread_count >= 0),
  last_message_at timestamptz,
  last_message_preview text,
  last_message_direction text check (last_message_direction in ('incoming', 'outgoing')),
  last_incoming_at timestamptz,
  runner_opened_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.inbox_messages (
  id uuid primary key default gen_random_uuid(),
  thread_id uuid not null references public.inbox_threads (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  account_id uuid not null references public.social_accounts (id) on delete cascade,
  direction text not null check (direction in ('incoming', 'outgoing')),
  body text not null check (char_length(body) between 1 and 10000),
  origin text not null default 'platform' check (origin in ('platform', 'reachflow')),
  status text not null check (status in ('received', 'queued', 'sending', 'sent', 'uncertain', 'failed')),
  error text,
  platform_message_id text,
  dedupe_key text not null,
  sent_at timestamptz,
  read_at timestamptz,
  read_on_platform boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (thread_id, dedupe_key)
);

-- Which accounts the customer asked to check, for "Check now"'s once-a-minute limit.
create table public.inbox_check_requests (
  account_id uuid primary key references public.social_accounts (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  requested_at timestamptz not null
);

comment on table public.inbox_threads is
  'Conversations inbox: one thread per account and person who replied to outreach, written by the runner''s inbox sync. Customers read their own; status and read marks change only through RPCs.';
comment on column public.inbox_threads.unread_count is 'Incoming messages the customer has not opened in Reachflow nor read on the platform.';
comment on column public.inbox_threads.runner_opened_at is
  'When the runner last opened the conversation (sync, send): the platform''s read marker says nothing about the customer before it.';
comment on column public.inbox_threads.status is 'open, or handled (the customer marked it done); a new reply reopens it.';
comment on table public.inbox_messages is
  'Every message of an inbox thread, incoming and outgoing, de-duplicated per thread by platform message id (dedupe_key), plus the customer''s answers (origin reachflow).';
comment on column public.inbox_messages.status is
  'received (incoming); outgoing: queued → sending → sent / uncertain (checked in the thread later) / failed (error says why; nothing went out).';
comment on column public.inbox_messages.read_on_platform is 'The customer had read it on X / Instagram before Reachflow synced it: never counted unread.';
comment on table public.inbox_check_requests is 'When the customer last pressed "Check now" per account (rate limit: once a minute).';

-- Indexes --------------------------------------------------------------------------------------

create unique index inbox_threads_account_peer_key on public.inbox_threads (account_id, lower(peer_username));
create index inbox_threads_user_id_last_message_at_idx on public.inbox_threads (user_id, last_message_at desc);
create index inbox_threads_campaign_id_idx on public.inbox_threads (campaign_id);
create index inbox_threads_campaign_lead_id_idx on public.inbox_threads (campaign_lead_id);
create index inbox_messages_thread_id_created_at_idx on public.inbox_messages (thread_id, created_at);
create index inbox_messages_user_id_idx on public.inbox_messages (user_id);
create index inbox_messages_account_id_status_idx on public.inbox_messages (account_id, status)
  where status in ('queued', 'sending', 'uncertain');
create index inbox_check_requests_user_id_idx on public.inbox_check_requests (user_id);
create index dm_logs_account_id_lower_target_idx on public.dm_logs (account_id, lower(target_username));

-- Triggers -------------------------------------------------------------------------------------

create trigger inbox_threads_set_updated_at before update on public.inbox_threads
  for each row execute function internal.set_updated_at();
create trigger inbox_messages_set_updated_at before update on public.inbox_messages
  for each row execute function internal.set_updated_at();

-- Helper functions -----------------------------------------------------------------------------

-- The thread's figures from its messages: unread count, last message, last reply.
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
comment on function internal.refresh_inbox_thread(uuid) is 'Recomputes a thread''s unread count and last message from its messages.';

-- When the runner last had the conversation open: its own syncs, the campaign DMs and the answers it sent.
create or replace function internal.inbox_runner_seen_at(p_thread_id uuid)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select greatest(
           t.runner_opened_at,
           (select max(d.sent_at) from public.dm_logs d
             where d.account_id = t.account_id and lower(d.target_username) = lower(t.peer_username)
               and d.status in ('sent', 'uncertain')),
           (select max(m.sent_at) from public.inbox_messages m
             where m.thread_id = t.id and m.origin = 'reachflow' and m.status in ('sent', 'uncertain')))
    from public.inbox_threads t where t.id = p_thread_id
$$;
comment on function internal.inbox_runner_seen_at(uuid) is
  'When the runner last had the conversation open (its syncs, campaign DMs, answers): later platform read marks are the customer''s.';

-- Runner RPCs ----------------------------------------------------------------------------------

/*
 * Records what the runner read of one conversation. p_messages: [{id, text, direction, at}], oldest
 * first. p_platform_unread: the platform's unread marker as the inbox listed it before the runner
 * opened the thread (null: unknown, so new replies count unread). p_opened: reading it opened the
 * conversation on the platform (X), so later read markers are the runner's own.
 * Only conversations with someone this account messaged from Reachflow (or already in the inbox)
 * are kept, and only once they hold a reply. Returns {thread_id, inserted, new_incoming} or null.
 */
create or replace function internal.record_inbox_thread(
  p_account_id uuid,
  p_peer_username text,
  p_peer_platform_id text,
  p_platform_thread_id text,
  p_platform_unread boolean,
  p_opened boolean,
  p_messages jsonb
)
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
    insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status,
                                       platform_message_id, dedupe_key, sent_at, read_at, read_on_platform)
    values (thread.id, account_user, p_account_id, message ->> 'direction', message_text, 'platform',
            case when message ->> 'direction' = 'incoming' then 'received' else 'sent' end,
            nullif(message ->> 'id', ''), key, message_at,
            case when message ->> 'direction' = 'incoming' and p_platform_unread is false
                      and message_at is not null and (seen_at is null or message_at > seen_at)
                 then internal.now() end,
            message ->> 'direction' = 'incoming' and p_platform_unread is false
              and message_at is not null and (seen_at is null or message_at > seen_at))
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

/*
 * The inbox listed these conversations as read: replies still unread in Reachflow that arrived
 * after the runner last opened them were read by the customer on the platform. Returns how many.
 */
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

/*
 * Claims the account's oldest queued answer: it becomes `sending` in this transaction, before
 * anything is typed, so a runner that dies mid-send leaves it uncertain, never sent twice.
 */
create or replace function internal.claim_inbox_reply(p_account_id uuid)
returns table (message_id uuid, thread_id uuid, body text, peer_username text, peer_platform_id text,
               platform_thread_id text)
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
comment on function internal.claim_inbox_reply(uuid) is 'Runner: marks the account''s oldest queued answer sending (the at-most-once claim) and returns it.';

/*
 * What came of an answer: sent (the page confirmed it), uncertain (send pressed, not confirmed),
 * or failed (nothing went out; p_error says why). Sent and uncertain count towards the account's
 * messages today, as campaign DMs do.
 */
create or replace function internal.finish_inbox_reply(
  p_message_id uuid,
  p_status text,
  p_platform_message_id text default null,
  p_platform_thread_id text default null,
  p_error text default null
)
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

-- Nothing went out for these: the account reached its cap or was stopped before sending them.
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

-- Customer RPCs --------------------------------------------------------------------------------

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
begin
  select * into thread from public.inbox_threads t where t.id = p_thread_id and t.user_id = (select auth.uid());
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

create or replace function public.retry_inbox_reply(p_message_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  message public.inbox_messages;
begin
  select * into message from public.inbox_messages m
   where m.id = p_message_id and m.user_id = (select auth.uid()) and m.origin = 'reachflow';
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
  update public.inbox_messages m set status = 'queued', error = null where m.id = message.id;
  perform internal.refresh_inbox_thread(message.thread_id);
  perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', message.account_id), 'inbox:' || message.account_id);
end
$$;
comment on function public.retry_inbox_reply(uuid) is 'Queues a failed answer (nothing went out) again.';

create or replace function public.mark_inbox_thread_read(p_thread_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.inbox_threads t where t.id = p_thread_id and t.user_id = (select auth.uid())) then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
  update public.inbox_messages m set read_at = internal.now()
   where m.thread_id = p_thread_id and m.direction = 'incoming' and m.read_at is null;
  perform internal.refresh_inbox_thread(p_thread_id);
end
$$;
comment on function public.mark_inbox_thread_read(uuid) is 'The customer opened the conversation: its replies are read.';

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
   where t.id = p_thread_id and t.user_id = (select auth.uid());
  if not found then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
end
$$;
comment on function public.set_inbox_thread_status(uuid, text) is 'Marks one of the caller''s conversations handled, or open again.';

/*
 * "Check now": queues an inbox sync for the given active account of the caller (or all of them),
 * at most once a minute per account. Returns {queued, limited, retry_after_seconds}; raises PT429
 * when every account was checked less than a minute ago.
 */
create or replace function public.request_inbox_check(p_account_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  t constant timestamptz := internal.now();
  account record;
  queued integer := 0;
  limited integer := 0;
  wait_seconds integer := 0;
begin
  if p_account_id is not null
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.user_id = me) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  for account in
    select a.id, r.requested_at
      from public.social_accounts a
      left join public.inbox_check_requests r on r.account_id = a.id
     where a.user_id = me and a.status = 'active' and (p_account_id is null or a.id = p_account_id)
     for update of a
  loop
    if account.requested_at is not null and account.requested_at > t - interval '1 minute' then
      limited := limited + 1;
      wait_seconds := greatest(wait_seconds,
        ceil(extract(epoch from account.requested_at + interval '1 minute' - t))::integer);
      continue;
    end if;
    insert into public.inbox_check_requests (account_id, user_id, requested_at) values (account.id, me, t)
    on conflict (account_id) do update set requested_at = excluded.requested_at;
    perform internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', account.id), 'inbox:' || account.id);
    queued := queued + 1;
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
  '"Check now": queues inbox syncs for the caller''s active account(s), once a minute per account (PT429 with the wait otherwise).';

-- The Inbox tab's badge and header: conversations with unread replies, and each active account's
-- last inbox check (for "Last checked" and "Check now").
create or replace function public.inbox_overview()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'unread', (select count(*) from public.inbox_threads t where t.user_id = (select auth.uid()) and t.unread_count > 0),
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'username', a.username, 'platform', p.name, 'status', a.status,
                                          'last_synced_at', a.last_synced_at, 'check_requested_at', r.requested_at)
                       order by a.username)
        from public.social_accounts a
        join public.platforms p on p.id = a.platform_id
        left join public.inbox_check_requests r on r.account_id = a.id
       where a.user_id = (select auth.uid())), '[]'::jsonb))
$$;
comment on function public.inbox_overview() is
  'The Inbox tab''s badge (conversations with unread replies) and the caller''s accounts with their last inbox check.';

-- Policies -------------------------------------------------------------------------------------

alter table public.inbox_threads enable row level security;
alter table public.inbox_messages enable row level security;
alter table public.inbox_check_requests enable row level security;

create policy "Customers read their own inbox threads" on public.inbox_threads
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Customers read the messages of their own inbox threads" on public.inbox_messages
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Customers read their own inbox check requests" on public.inbox_check_requests
  for select to authenticated using (user_id = (select auth.uid()));
create policy "The runner reads every inbox thread" on public.inbox_threads
  for select to reachflow_runner using (true);
create policy "The runner reads every inbox message" on public.inbox_messages
  for select to reachflow_runner using (true);

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.inbox_threads, public.inbox_messages, public.inbox_check_requests from anon, authenticated;
grant select on public.inbox_threads, public.inbox_messages, public.inbox_check_requests to authenticated;
grant select on public.inbox_threads, public.inbox_messages to reachflow_runner;
grant all on public.inbox_threads, public.inbox_messages, public.inbox_check_requests to service_role;

revoke execute on function internal.refresh_inbox_thread(uuid), internal.inbox_runner_seen_at(uuid),
  internal.record_inbox_thread(uuid, text, text, text, boolean, boolean, jsonb),
  internal.apply_platform_read_markers(uuid, text[]), internal.claim_inbox_reply(uuid),
  internal.finish_inbox_reply(uuid, text, text, text, text), internal.fail_queued_inbox_replies(uuid, text) from public;
grant execute on function internal.record_inbox_thread(uuid, text, text, text, boolean, boolean, jsonb),
  internal.apply_platform_read_markers(uuid, text[]), internal.claim_inbox_reply(uuid),
  internal.finish_inbox_reply(uuid, text, text, text, text), internal.fail_queued_inbox_replies(uuid, text)
  to reachflow_runner, service_role;

revoke execute on function public.queue_inbox_reply(uuid, text), public.retry_inbox_reply(uuid),
  public.mark_inbox_thread_read(uuid), public.set_inbox_thread_status(uuid, text),
  public.request_inbox_check(uuid), public.inbox_overview() from public, anon;
grant execute on function public.queue_inbox_reply(uuid, text), public.retry_inbox_reply(uuid),
  public.mark_inbox_thread_read(uuid), public.set_inbox_thread_status(uuid, text),
  public.request_inbox_check(uuid), public.inbox_overview() to authenticated, service_role;
