-- The runner's page stays on an X conversation while it types, confirms and leaves after a DM or an
-- answer, and an open X conversation reads every reply that arrives meanwhile. So the runner's last
-- visit to a thread lasts until 5 minutes after its last DM or answer there: a platform read mark on
-- a reply that came within that window may be the runner's own page, and the reply stays unread in
-- Reachflow (a reply wrongly shown unread costs a click; one wrongly shown read is missed).
-- The full test run caught it: a lead who answered within a second of the DM was never unread.
create or replace function internal.inbox_runner_seen_at(p_thread_id uuid)
returns timestamptz
language sql
stable
security definer
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
