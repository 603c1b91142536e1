-- Official Instagram conversations in the Conversations inbox: the runner records every message
-- Meta's webhook brings (and the DMs automations send) once per mid in the person's thread
-- (record_instagram_message); Instagram's answer window (24 hours normal, 7 days with the
-- HUMAN_AGENT tag) is one function the runner, queue_inbox_reply and retry_inbox_reply share, so
-- an answer after 7 days is refused at once with the reason. Written by `npm run db:diff` from
-- supabase/schemas.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.instagram_answer_refusal (
  p_thread_id uuid
)
  RETURNS text
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION internal.instagram_answer_window (
  p_thread_id uuid
)
  RETURNS text
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- Instagram's rules for a business answering a person: a normal message within 24 hours of the
  -- person's last message, one tagged HUMAN_AGENT (a person answering) within 7 days, nothing after
  select case
           when t.last_incoming_at is null then 'closed'
           when t.last_incoming_at >= internal.now() - interval '24 hours' then 'standard'
           when t.last_incoming_at >= internal.now() - interval '7 days' then 'human_agent'
           else 'closed'
         end
    from public.inbox_threads t where t.id = p_thread_id
$function$;

CREATE OR REPLACE FUNCTION internal.record_instagram_message (
  p_account_id      uuid,
  p_person_id       text,
  p_person_username text,
  p_direction       text,
  p_mid             text,
  p_body            text,
  p_sent_at         timestamp with time zone
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.queue_inbox_reply (
  p_thread_id uuid,
  p_body      text
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  thread public.inbox_threads;
  account public.social_accounts;
  text_to_send text := pg_catalog.btrim(coalesce(p_body, ''));
  message_id uuid;
  refusal text;
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
$function$;

CREATE OR REPLACE FUNCTION public.retry_inbox_reply (
  p_message_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  message public.inbox_messages;
  refusal text;
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
$function$;

COMMENT ON FUNCTION "internal"."instagram_answer_refusal"(uuid) IS 'Why Instagram would refuse an answer in this official thread now (its window is closed), in words for the customer; null while an answer may go.';

COMMENT ON FUNCTION "internal"."instagram_answer_window"(uuid) IS 'An official Instagram thread''s answer window now: standard (within 24 hours of the person''s last message), human_agent (within 7 days, sent with the HUMAN_AGENT tag) or closed.';

COMMENT ON FUNCTION "internal"."record_instagram_message"(uuid, text, text, text, text, text, timestamp with time zone) IS 'Runner: one message of an official Instagram account''s conversation with a person (by their Instagram-scoped id), stored once per mid; an incoming one opens the thread and counts unread, an outgoing one alone starts it handled.';

COMMENT ON TABLE "public"."inbox_threads" IS 'Conversations inbox: one thread per account and person who replied to outreach, written by the runner''s inbox sync, or (official Instagram) per account and person who wrote to it or was sent a DM, written from its webhook. Customers read their own; status and read marks change only through RPCs.';

REVOKE ALL ON FUNCTION "internal"."instagram_answer_refusal"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."instagram_answer_refusal"(uuid) TO "reachflow_runner", "service_role";

REVOKE ALL ON FUNCTION "internal"."instagram_answer_window"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."instagram_answer_window"(uuid) TO "reachflow_runner", "service_role";

REVOKE ALL ON FUNCTION "internal"."record_instagram_message"(uuid, text, text, text, text, text, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."record_instagram_message"(uuid, text, text, text, text, text, timestamp WITH time zone) TO "reachflow_runner", "service_role";
