-- Messages a page gives no time for (X Chat, Instagram's 2026 thread page) are ordered by when
-- they were stored; one read stored them all at the transaction's start, so the thread's last
-- message, and with it the stored preview, was any of them (our DM in place of the reply after
-- it). The next read then saw a preview other than the stored one and opened the thread again.
-- Each insert now takes the clock at that moment, so the page's order survives. Written by
-- `npm run db:diff` (pg-delta).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.record_inbox_thread (
  p_account_id         uuid,
  p_peer_username      text,
  p_peer_platform_id   text,
  p_platform_thread_id text,
  p_platform_unread    boolean,
  p_opened             boolean,
  p_messages           jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;
