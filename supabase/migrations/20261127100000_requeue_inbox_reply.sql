-- An answer the runner claimed but could not even start to send because the platform's page had
-- changed (a site change, found before send was pressed) goes back to the queue: nothing went out,
-- it is not the customer's doing, and it is sent once the runner can read the page again.

create or replace function internal.requeue_inbox_reply(p_message_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  message public.inbox_messages;
begin
  update public.inbox_messages m
     set status = 'queued', error = null, sent_at = null
   where m.id = p_message_id and m.status = 'sending'
  returning * into message;
  if message.id is null then
    return false;
  end if;
  perform internal.refresh_inbox_thread(message.thread_id);
  return true;
end
$$;
comment on function internal.requeue_inbox_reply(uuid) is
  'Runner: puts a claimed answer back in the queue when nothing was sent because the platform''s page changed.';

revoke execute on function internal.requeue_inbox_reply(uuid) from public;
grant execute on function internal.requeue_inbox_reply(uuid) to reachflow_runner, service_role;
